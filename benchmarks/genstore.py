"""Generate memcli stores and a Claude Code session for the benchmark.

Deterministic (seeded), stdlib only, and independent of memcli's own writer: the notes are
written the way a person or another tool would, so that the benchmark reads a store it did
not produce itself. ``memcli index`` builds MEMORY.md afterwards.

    python benchmarks/genstore.py FOLDER --notes 1000
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

TYPES = ("correction_feedback", "user_preference", "project_knowledge", "reference_material")
# Weights close to what agent memories look like: mostly project knowledge, few corrections.
TYPE_WEIGHTS = (1, 2, 5, 2)
WORDS = (
    "build", "cache", "deploy", "schema", "migration", "retry", "timeout", "queue", "worker",
    "parser", "index", "token", "session", "branch", "release", "lint", "format", "config",
    "secret", "rotation", "backup", "restore", "proxy", "endpoint", "payload", "header",
    "cursor", "batch", "shard", "replica", "latency", "budget", "fixture", "snapshot",
    "pipeline", "runner", "artifact", "wheel", "venv", "pytest", "mypy", "ruff", "docker",
    "kubernetes", "terraform", "postgres", "redis", "kafka", "grpc", "oauth", "webhook", "cron",
    "logging", "metrics", "tracing", "alert", "pager"
)
# Non-ASCII words in summaries and bodies keep UTF-8 widths and YAML decoding honest.
EXTRA_WORDS = ("café", "naïve", "größe", "東京", "données", "résumé")


def _sentence(rng: random.Random, low: int, high: int) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(low, high))]
    if rng.random() < 0.1:
        words.append(rng.choice(EXTRA_WORDS))
    text = " ".join(words)
    return text[0].upper() + text[1:] + "."


def note_text(rng: random.Random, number: int, level: str) -> tuple[str, str]:
    """(file name, file text) of one note; titles and slugs are unique by their number."""
    note_type = rng.choices(TYPES, TYPE_WEIGHTS)[0]
    topic = " ".join(rng.choice(WORDS) for _ in range(3))
    title = f"{topic.capitalize()} {level} {number}"
    slug = "-".join(title.lower().split())
    # Short enough that no index line passes lint's 200-character warning.
    summary = _sentence(rng, 4, 8)
    day = 1 + number % 28
    created = f"2026-{1 + number % 12:02d}-{day:02d}T{number % 24:02d}:{number % 60:02d}:00Z"
    paragraphs = [" ".join(_sentence(rng, 5, 16) for _ in range(rng.randint(1, 4)))
                  for _ in range(rng.randint(1, 3))]
    body = "\n\n".join(paragraphs)
    text = (
        "---\n"
        f"type: {note_type}\n"
        f"title: {title}\n"
        f"summary: {summary}\n"
        f"created: {created}\n"
        f"updated: {created}\n"
        "---\n"
        f"{body}\n"
    )
    return f"{note_type}_{slug}.md", text


def write_store(folder: Path, notes: int, level: str, seed: int = 1) -> Path:
    """A store folder holding NOTES notes (no MEMORY.md: `memcli index` writes it)."""
    rng = random.Random(f"{seed}-{level}-{notes}")
    folder.mkdir(parents=True, exist_ok=True)
    for number in range(notes):
        name, text = note_text(rng, number, level)
        (folder / name).write_text(text, "utf-8")
    return folder


def claude_code_session(messages: int, seed: int = 1) -> str:
    """A Claude Code JSONL session of MESSAGES user and assistant messages in one chain.

    Every fifth assistant message also calls a tool and gets a result, as real sessions do;
    those records are not messages and extract leaves them out by default.
    """
    rng = random.Random(f"session-{seed}")
    session = "bench0000-0000-4000-8000-000000000001"
    records: list[dict[str, object]] = []
    parent: str | None = None

    def record(kind: str, uid: str, message: dict[str, object], minute: int) -> None:
        nonlocal parent
        records.append({
            "type": kind, "uuid": uid, "parentUuid": parent, "isSidechain": False,
            "userType": "external", "cwd": "/workspace/bench", "sessionId": session,
            "version": "2.1.173", "timestamp": f"2026-06-15T{10 + minute // 60:02d}:"
            f"{minute % 60:02d}:00.000Z", "message": message,
        })
        parent = uid

    for number in range(messages):
        text = " ".join(_sentence(rng, 6, 18) for _ in range(rng.randint(1, 6)))
        if number % 2 == 0:
            if number % 20 == 0:
                text = "Remember: we always run the linters before the tests. " + text
            record("user", f"u{number}",
                   {"role": "user", "content": [{"type": "text", "text": text}]}, number)
            continue
        content: list[dict[str, object]] = [{"type": "text", "text": text}]
        tool = number % 10 == 1
        if tool:
            content.append({"type": "tool_use", "id": f"toolu_{number}", "name": "Bash",
                            "input": {"command": "make test"}})
        record("assistant", f"a{number}", {
            "id": f"msg_{number}", "type": "message", "role": "assistant",
            "model": "claude-haiku-4-5-20251001", "stop_reason": "end_turn", "content": content,
            "usage": {"input_tokens": 100, "output_tokens": 40},
        }, number)
        if tool:
            record("user", f"r{number}", {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": f"toolu_{number}",
                 "content": "ok: 412 passed in 9.81s"}]}, number)
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)


def apply_document(creates: int, level: str = "project", seed: int = 1) -> str:
    """One operations document of CREATES create operations with distinct titles."""
    rng = random.Random(f"apply-{seed}")
    operations = [
        {"action": "create", "level": level, "type": rng.choices(TYPES, TYPE_WEIGHTS)[0],
         "title": f"Applied {number} {rng.choice(WORDS)} {rng.choice(WORDS)}",
         "content": " ".join(_sentence(rng, 6, 16) for _ in range(rng.randint(1, 4)))}
        for number in range(creates)
    ]
    return json.dumps({"operations": operations}, ensure_ascii=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--notes", type=int, default=1000, help="notes per level")
    args = parser.parse_args()
    for level in ("project", "user"):
        write_store(args.folder / level, args.notes, level)


if __name__ == "__main__":
    main()
