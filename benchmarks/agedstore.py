"""Generate an aged memcli project store, with labels of what consolidation should find.

An aged store: notes written over months, some said twice in other words (near-duplicates),
some overruled by a later note on the same topic (contradictions), some past their
``expires`` date. Deterministic (seeded), stdlib only; the notes are written as files the
way a person or another tool would, then ``memcli index`` builds MEMORY.md.

    python benchmarks/agedstore.py FOLDER --notes 500   # writes FOLDER/ and FOLDER.labels.json

Of ``--notes`` notes: 10 % are near-duplicates of another note, 5 % contradict another
note, 5 % are expired; the rest are distinct. The labels name each pair (older, newer) and
each expired note.
"""

from __future__ import annotations

import argparse
import json
import random
from dataclasses import dataclass, field
from pathlib import Path

SERVICES = ("billing", "auth", "search", "checkout", "ledger", "gateway", "inventory",
            "payments", "reports", "scheduler", "mailer", "uploads", "profile", "catalog",
            "pricing", "shipping", "webhooks", "analytics", "exports", "identity")
ASPECTS = {
    "deploy steps": ("Deploy {s} with `make deploy-{s}` from the main branch.",
                     "Deploy {s} only through the release pipeline; `make deploy-{s}` is gone."),
    "test command": ("Run `pytest tests/{s}` before pushing {s} changes.",
                     "{s} tests now run with `tox -e {s}`; pytest alone misses the fixtures."),
    "owner team": ("The {s} service is owned by the platform team.",
                   "Team Atlas took over {s}; platform no longer answers its pages."),
    "log location": ("{s} logs go to /var/log/{s}/app.log on each host.",
                     "{s} writes to stdout only; read its lines in Loki, not on hosts."),
    "config file": ("{s} reads its settings from config/{s}.toml.",
                    "Settings of {s} moved into environment variables; the TOML is unused."),
    "alert channel": ("Alerts for {s} go to the #ops-{s} channel.",
                      "Page the on-call rota for {s}; that Slack channel was archived."),
    "cache policy": ("{s} caches responses in Redis for five minutes.",
                     "Caching in {s} is disabled; every request reaches Postgres now."),
    "release branch": ("{s} releases are cut from release/{s}-N branches.",
                       "Tag {s} releases on main; per-release branches were dropped."),
    "database": ("{s} stores its data in the shared Postgres cluster.",
                 "{s} has a dedicated CockroachDB instance since the migration."),
    "retry policy": ("{s} retries failed calls three times with backoff.",
                     "Never retry {s} calls; upstream requests are not idempotent."),
    "api docs": ("The {s} API reference lives at docs/api/{s}.md.",
                 "Generate {s} API pages from the OpenAPI spec; that markdown is stale."),
    "runbook": ("The {s} runbook is in the ops wiki under Runbooks.",
                "Use `ops/runbooks/{s}.md` in the repo; wiki pages are outdated."),
}
EXTRA = ("This was confirmed in review.", "Ask in #eng if unsure.",
         "It applies to staging as well.", "Check the dashboard afterwards.")
OLD, LATER, EXPIRED_ON, NOW = ("2026-01-10T09:00:00Z", "2026-06-20T15:30:00Z",
                               "2026-03-01", "2026-11-29T10:00:00Z")


@dataclass
class Labels:
    duplicates: list[list[str]] = field(default_factory=list)  # [older, newer]
    contradictions: list[list[str]] = field(default_factory=list)
    expired: list[str] = field(default_factory=list)
    now: str = NOW


def _note(title: str, summary: str, content: str, updated: str, expires: str = "") -> str:
    lines = ["---", "type: project_knowledge", f"title: {title}", f"summary: {summary}",
             f"created: {updated}", f"updated: {updated}"]
    if expires:
        lines.append(f"expires: {expires}")
    return "\n".join([*lines, "---", content, ""])


def _slug(title: str) -> str:
    return "-".join(title.lower().replace(":", "").split())


def _topics(count: int) -> list[tuple[str, str, str, str]]:
    """(title, statement, contradicting statement, service) for `count` distinct topics."""
    found = []
    for n in range(count):
        service = SERVICES[n % len(SERVICES)]
        if n >= len(SERVICES) * len(ASPECTS):
            service = f"{service}{n // (len(SERVICES) * len(ASPECTS))}"
        aspect = list(ASPECTS)[(n // len(SERVICES)) % len(ASPECTS)]
        said, contrary = ASPECTS[aspect]
        found.append((f"{service.capitalize()} {aspect}", said.format(s=service),
                      contrary.format(s=service), service))
    return found


def generate(folder: Path, notes: int = 500, seed: int = 15) -> Labels:
    rng = random.Random(seed)
    duplicates, contradictions, expired = notes // 10, notes // 20, notes // 20
    base = notes - duplicates - contradictions
    topics = _topics(base)
    folder.mkdir(parents=True, exist_ok=True)
    labels = Labels()
    chosen = rng.sample(range(base), duplicates + contradictions + expired)
    dup_of, contra_of = chosen[:duplicates], chosen[duplicates:duplicates + contradictions]
    expiring = set(chosen[duplicates + contradictions:])
    for n, (title, said, _, _) in enumerate(topics):
        name = f"project_knowledge_{_slug(title)}.md"
        expires = EXPIRED_ON if n in expiring else ""
        (folder / name).write_text(_note(title, said, said, OLD, expires), "utf-8")
        if expires:
            labels.expired.append(name)
    for count, n in enumerate(dup_of):
        title, said, _, service = topics[n]
        aspect = title.split(" ", 1)[1]
        again = f"{aspect.capitalize()} for {service}"  # the same words, in another order
        if count % 5 == 4:  # and some said with two more words, which the rules miss
            again = f"Notes on {service} {aspect} again"
        name = f"project_knowledge_{_slug(again)}.md"
        text = f"{said} {rng.choice(EXTRA)}"
        (folder / name).write_text(_note(again, said, text, LATER), "utf-8")
        labels.duplicates.append([f"project_knowledge_{_slug(title)}.md", name])
    for n in contra_of:
        title, _, contrary, service = topics[n]
        aspect = title.split(" ", 1)[1]
        again = f"{service.capitalize()} {aspect} (updated)"
        name = f"project_knowledge_{_slug(again).replace('(', '').replace(')', '')}.md"
        (folder / name).write_text(_note(again, contrary, contrary, LATER), "utf-8")
        labels.contradictions.append([f"project_knowledge_{_slug(title)}.md", name])
    return labels


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--notes", type=int, default=500)
    parser.add_argument("--seed", type=int, default=15)
    args = parser.parse_args()
    labels = generate(args.folder, args.notes, args.seed)
    out = args.folder.with_name(args.folder.name + ".labels.json")
    out.write_text(json.dumps(vars(labels), indent=1), "utf-8")
    print(f"{args.notes} notes in {args.folder}; labels in {out}")


if __name__ == "__main__":
    main()
