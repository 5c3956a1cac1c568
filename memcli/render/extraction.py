"""Output of extraction: `extract` (operations, explanations, the apply report), the
settings `config` shows, and `transcript` (what memcli reads from a transcript)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from memcli.json_values import JsonObject, JsonValue, to_json
from memcli.render.output import BOLD, Output, plural
from memcli.render.store import apply_json, apply_report

if TYPE_CHECKING:
    from memcli.commands.extract import ExtractResult
    from memcli.commands.transcript import TranscriptReport
    from memcli.extraction.budget import Cut
    from memcli.extraction.explain import Explanation
    from memcli.settings.config import Settings
    from memcli.transcripts.model import Format, Transcript


# --------------------------------------------------------------------------- extract


def extract_result(output: Output, result: ExtractResult, *, verbose: bool,
                   show_prompt: bool) -> None:
    if show_prompt:
        if result.prompt is not None:
            output.out.write(_for_terminal(output, result.prompt.combined()))
        return
    _what_was_read(output, result)
    for position, reason in result.rejected:
        output.error(f"rejected operation #{position} from the {result.provider} extractor: "
                     f"{reason}")
    if result.dropped:
        output.error(dropped_line(result))
    if result.explanation is not None and not output.as_json:
        explanation(output, result.explanation)
    if result.chosen and (verbose or result.passed_over):
        # Without --verbose only a fallback is said (the hook's agent CLI was missing): one
        # line in the hook log, the notes still written by what auto chose instead.
        output.note(f"memcli: provider auto chose {result.provider}: {result.chosen}")
    if verbose and result.usage:
        usage = result.usage
        cost = usage.get("cost_usd")
        spent = f", ${cost:.4f}" if isinstance(cost, int | float) else ""
        output.note(f"memcli: {result.provider}: {usage.get('model')}: "
                    f"{usage.get('seconds')} s, {usage.get('input_tokens')} input tokens, "
                    f"{usage.get('output_tokens')} output tokens{spent}, "
                    f"{_attempts(usage.get('attempts'))}")
    if output.as_json:
        output.data(extract_json(result))
    elif result.report is not None:
        apply_report(output, result.report)
    else:
        output.data(operations_document(result))


def _attempts(count: object) -> str:
    return plural(count, "attempt") if isinstance(count, int) else f"{count} attempts"


def _what_was_read(output: Output, result: ExtractResult) -> None:
    stats = result.stats
    # With no message at all, the notice says so in one line.
    if stats.messages and (stats.skipped or stats.broken):
        not_messages = "is not a message" if stats.skipped == 1 else "are not messages"
        skipped = [f"{plural(stats.skipped, 'record')} that {not_messages}"] \
            if stats.skipped else []
        skipped += [plural(stats.broken, "broken line")] if stats.broken else []
        output.note(f"memcli: transcript: {plural(stats.messages, 'message')}; skipped "
                    + " and ".join(skipped))
    for warning in result.warnings:
        output.warn(warning)
    if result.cut:
        output.note(f"memcli: {budget_line(result.cut)}")
    if stats.redacted:
        output.note(f"memcli: redacted {plural(stats.redacted, 'secret')} from the transcript")
    if result.notice:
        output.note(f"memcli: {result.notice}")


def dropped_line(result: ExtractResult) -> str:
    """The operations past the cap of one turn, counted by kind, in one line."""
    from collections import Counter

    from memcli.commands._extract_reply import MAX_OPERATIONS

    kinds = Counter(d.action for d in result.dropped)
    counted = ", ".join(f"{n} {kind}" for kind, n in sorted(kinds.items(), key=lambda kv: -kv[1]))
    first, last = result.dropped[0].position, result.dropped[-1].position
    return (f"dropped {plural(len(result.dropped), 'operation')} from the {result.provider} "
            f"extractor past the {MAX_OPERATIONS} one turn may hold ({counted}; #{first}"
            f"{f'-#{last}' if last != first else ''} of the reply); `--json` lists them")


def budget_line(cut: Cut) -> str:
    """What the extractor's budget left out, in one line."""
    budget = cut.budget
    parts = []
    if cut.shortened:
        parts.append(f"kept the start and the end of {plural(cut.shortened, 'message')} over "
                     f"{budget.message:,} characters ({cut.characters:,} characters left out)")
    if cut.dropped:
        what = "of the person's words" if budget.person_only else "of the conversation"
        parts.append(f"left out {plural(cut.dropped, 'older message')}: the "
                     f"{'rules read' if budget.person_only else 'model is sent'} the newest "
                     f"{budget.total:,} characters {what}")
    return "transcript over the extraction budget: " + "; ".join(parts)


def operations_document(result: ExtractResult) -> JsonObject:
    """What `extract` prints for `memcli apply`: the operations and the stores' base."""
    return {"operations": to_json(result.operations), "base": to_json(result.base),
            "extractor": {"provider": result.provider, **result.usage}}


def extract_json(result: ExtractResult) -> JsonObject:
    data = operations_document(result)
    data["rejected"] = [{"position": p, "reason": r} for p, r in result.rejected]
    data["dropped"] = [{"position": d.position, "action": d.action, "title": d.title}
                       for d in result.dropped]
    data["transcript"] = to_json(result.stats)
    if result.cut:
        cut = result.cut
        data["budget"] = {"message_chars": cut.budget.message, "total_chars": cut.budget.total,
                          "shortened": cut.shortened, "characters_left_out": cut.characters,
                          "messages_left_out": cut.dropped}
    if result.notice:
        data["notice"] = result.notice
    if result.report is not None:
        data["apply"] = apply_json(result.report)
    if result.explanation is not None:
        data["explain"] = explanation_json(result.explanation)
    return data


def explanation(output: Output, found: Explanation) -> None:
    """Why each operation was made, and why each silent message gave none (on stderr, so
    that stdout stays the operations document)."""
    from memcli.safety.invisible_chars import safe_line as q

    # The sentences quoted are the transcript's (a web page, a tool result): q keeps their
    # escape sequences from the terminal.
    for op in found.operations:
        output.note(f"memcli: explain: #{op.number} {op.action} {op.level} '{q(op.title)}'")
        output.note(f"  found by: {op.found_by}")
        if op.message is not None:
            output.note(f"  from message {op.message}: \"{q(op.sentence)}\"")
        output.note(f"  because: {q(op.statement)}")
        output.note(f"  routed: {op.level}/{op.type or '(type unchanged)'}: {op.routing}")
        output.note(f"  duplicate: {q(op.duplicate) or 'none found'}")
    for why in found.refused:
        output.note(f"memcli: explain: refused: {q(why)}")
    for message in found.silent:
        output.note(f"memcli: explain: message {message.message} gave no operation: "
                    f"\"{q(message.text)}\"")
        for reason in message.reasons:
            output.note(f"  {q(reason)}")


def explanation_json(found: Explanation) -> JsonObject:
    operations: list[JsonValue] = [
        {"operation": o.number, "action": o.action, "level": o.level, "type": o.type,
         "title": o.title, "message": o.message, "sentence": o.sentence,
         "statement": o.statement, "routing": o.routing, "duplicate": o.duplicate or None,
         "found_by": o.found_by}
        for o in found.operations]
    return {"operations": operations,
            "messages_without_operations": to_json(found.silent),
            "refused": to_json(found.refused)}


# --------------------------------------------------------------------------- config


def settings_sources(output: Output, settings: Settings, *, to_stdout: bool = False,
                     auto: tuple[str, str] | None = None) -> None:
    """The settings and where each came from; AUTO: what `--provider auto` would use, why."""
    rows: list[tuple[str, str | None, str]] = []
    for name, setting in settings.sources.items():
        value = None if setting.value is None else str(setting.value)
        if name == "api_key" and value:
            value = value[:4] + "…" + f" ({len(value)} characters)"
        rows.append((name, value, setting.source))
        if name == "provider" and auto is not None:
            rows.append(("auto_chooses", auto[0], auto[1]))
    problems = settings.problems
    if output.as_json and to_stdout:
        shown: JsonObject = {name: {"value": value, "source": source,
                                    **({"error": problems[name]} if name in problems else {})}
                             for name, value, source in rows}
        if settings.ignored:
            shown["ignored"] = to_json(settings.ignored)
        if settings.capped:
            shown["capped"] = list(settings.capped)
        if settings.teams:
            shown["teams"] = [{"name": t.name, "url": t.url, "mode": t.mode,
                               "folder": str(t.folder), "source": t.origin}
                              for t in settings.teams]
        if settings.teams_problem is not None:
            shown["teams_error"] = settings.teams_problem
        output.data(shown)
        return
    from memcli.safety.invisible_chars import safe_line

    write = output.line if to_stdout else output.note
    for name, value, source in rows:  # a value may be a repository's (a project_store path)
        write(safe_line(f"{name} = {value or '(unset)'}    # {source}"))
    for team in settings.teams:  # a trusted repository's config may have declared it
        write(safe_line(f"teams.{team.name} = {team.url} ({team.mode}, cloned in "
                        f"{team.folder})    # {team.origin}"))
    for name, why in settings.ignored.items():
        write(f"# ignored {name} from the project config: {why}")
    for problem in (*problems.values(), *filter(None, [settings.teams_problem])):
        output.error(problem)


def ignored_settings(output: Output, settings: Settings) -> None:
    """Say which settings of the project config this run leaves out, and why, on stderr.

    Without it, a `provider = "openai"` in an untrusted project config silently gave the
    rules extractor; only `memcli config` said why.
    """
    reasons = sorted(set(settings.ignored.values()))
    if reasons:
        output.warn(f"ignored {', '.join(settings.ignored)} from the project config: "
                    f"{'; '.join(reasons)}")


# --------------------------------------------------------------------------- transcript


def _for_terminal(output: Output, text: str) -> str:
    """TEXT as it is when piped; on a terminal, with each control and invisible character
    written as ``<U+XXXX>``: a transcript holds what web pages and tools wrote, and a person
    reading it must see what is hidden in it rather than have the terminal run it."""
    if not output.terminal:
        return text
    from memcli.safety.invisible_chars import visible

    return "\n".join(visible(line.removesuffix("\r")) for line in text.split("\n"))


def transcript_report(output: Output, report: TranscriptReport) -> None:
    """Each message with its role and format to stdout; what was skipped, and why, to stderr."""
    for warning in report.warnings:
        output.warn(warning)
    transcript = report.transcript
    if output.as_json:
        output.data(transcript_json(transcript))
        return
    for message, fmt in zip(transcript.messages, transcript.message_formats, strict=True):
        output.line(output.paint(f"[{message.role} · {fmt}]", BOLD))
        output.line(_for_terminal(output, message.text))
        output.line()
    output.note(_transcript_summary(transcript))


def transcript_json(transcript: Transcript) -> JsonObject:
    """``{"formats", "messages": [{"role", "format", "text", "timestamp"}], "skipped", ...}``.

    ``skipped`` counts what was left out and why: pieces of messages by reason (``tool``,
    ``thinking``, ``injected``, ``slash command``, ``duplicate``, ...), ``records without a
    message`` (headers, metadata), ``unknown records`` by kind and ``lines not JSON``.
    """
    skipped: JsonObject = dict(_left_out(transcript))
    skipped["unknown records"] = dict(sorted(transcript.unknown.items()))
    skipped["lines not JSON"] = transcript.broken
    messages: list[JsonValue] = [
        {"role": m.role, "format": fmt, "text": m.text, "timestamp": m.timestamp}
        for m, fmt in zip(transcript.messages, transcript.message_formats, strict=True)]
    return {
        "formats": to_json(transcript.formats),
        "messages": messages,
        "skipped": skipped,
        "records": transcript.records,
        "lines": transcript.lines,
        "truncated": transcript.truncated,
    }


def _left_out(transcript: Transcript) -> list[tuple[str, int]]:
    """Pieces of messages left out by reason, then records that hold no message."""
    unknown = sum(transcript.unknown.values())
    return [*sorted(transcript.dropped.items()),
            ("records without a message", transcript.skipped - unknown)]


def _transcript_summary(transcript: Transcript) -> str:
    formats = ", ".join(f"{name} {count}" for name, count in transcript.formats.items())
    counted = [*_left_out(transcript), ("lines not JSON", transcript.broken)]
    reasons = [f"{reason} {count}" for reason, count in counted if count]
    reasons += [f"unknown {kind} {count}" for kind, count in sorted(transcript.unknown.items())]
    said = (f"memcli: {plural(len(transcript.messages), 'message')} from "
            f"{plural(transcript.records, 'record')}")
    said += f" ({formats})" if formats else ""
    return said + ("; skipped: " + ", ".join(reasons) if reasons else "")


def transcript_formats(output: Output, formats: Sequence[Format]) -> None:
    if output.as_json:
        output.data([{"name": f.name, "agents": f.agents, "where": f.where} for f in formats])
        return
    for fmt in formats:
        output.line(output.paint(fmt.name, BOLD))
        output.line(f"  {fmt.agents}")
        output.line(f"  logs: {fmt.where}")
