"""`memcli extract`: a transcript slice in, validated operations out."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memcli.commands._extract_model import parse_answer, provider_settings
from memcli.commands._extract_prompt import prompt_for, related_notes
from memcli.commands._extract_reply import Dropped, validate
from memcli.commands._extract_transcript import TranscriptStats, nothing_read, redacted
from memcli.errors import ProviderError
from memcli.extraction.dedupe import Merged
from memcli.json_values import JsonObject
from memcli.messages import Message
from memcli.settings.config import Settings
from memcli.store.index import IndexEntry
from memcli.store.names import LEVELS
from memcli.store.stamps import Stamps, changed_names, note_stamps
from memcli.writes.stores import locked_levels, open_stores

if TYPE_CHECKING:  # the prompt loads only for a model or --show-prompt
    from memcli.commands.apply import ApplyReport
    from memcli.commands.extract_stores import StoreView
    from memcli.extraction.budget import Budget, Cut
    from memcli.extraction.explain import Explanation
    from memcli.extraction.prompt import PromptText, RelatedNote
    from memcli.extraction.rules import RulesTrace
    from memcli.transcripts.source import TranscriptFile
    from memcli.writes.history import Source



@dataclass(frozen=True)
class ExtractOptions:
    fmt: str | None = None
    include_tools: bool = False
    include_thinking: bool = False
    include_injected: bool = False
    last_turn: bool = False
    strict: bool = False
    redact: bool = True
    allow_delete: bool = False
    show_prompt: bool = False
    dry_run: bool = False
    apply: bool = False
    # Write nothing: every operation waits in the review inbox (`memcli review`).
    propose: bool = False
    # A statement said again should update its note, not fail the turn (or pile up copies).
    on_conflict: str = "update"
    explain: bool = False
    # Recorded in the history: the hook passes the agent's session and transcript.
    session: str | None = None
    transcript: str | None = None
    via: str | None = None
    job: str | None = None
    # Which offline extractor reads the turn (see memcli.extraction.rules.MODES); the benchmark
    # compares them, everyone else gets the default.
    rules_mode: str = "combined"
    # The agent whose hook queued the turn: `--provider auto` may use its CLI.
    agent: str | None = None


@dataclass
class ExtractResult:
    provider: str
    operations: list[dict[str, object]]  # as the extractor wrote them, once valid
    rejected: list[tuple[int, str]]
    base: dict[str, str]
    stats: TranscriptStats
    usage: JsonObject = field(default_factory=dict)  # the model's, its tokens and attempts
    prompt: PromptText | None = None
    report: ApplyReport | None = None
    warnings: list[str] = field(default_factory=list)
    notice: str = ""  # why nothing was found, when nothing was
    merged: list[Merged] = field(default_factory=list)
    positions: list[int] = field(default_factory=list)  # of each operation in the reply
    explanation: Explanation | None = None
    cut: Cut | None = None  # what the extractor's budget left out of the transcript
    dropped: list[Dropped] = field(default_factory=list)  # past MAX_OPERATIONS
    chosen: str = ""  # why `--provider auto` chose the provider it did
    # The agent whose CLI `auto` passed over (not on PATH) for a local server or the rules.
    passed_over: str = ""

    @property
    def needs_attention(self) -> bool:
        return ((self.report is not None and self.report.needs_attention)
                or bool(self.rejected or self.dropped))


# How many times a turn is matched again when the notes it was matched against changed
# before its apply (each time another process or person changed them meanwhile).
MATCHES = 3


def run_extract(settings: Settings, text: str | bytes | TranscriptFile, options: ExtractOptions,
                on_progress: Callable[[int], None] | None = None,
                on_read: Callable[[int, int], None] | None = None,
                on_notes: Callable[[str, int, int], None] | None = None,
                on_matched: Callable[[], None] | None = None) -> ExtractResult:
    """ON_NOTES: told, by level, how many of the notes the rules read afresh (not from their
    cache) are read so far. ON_MATCHED: called once a turn is matched, before its plan is
    applied (no store locked then)."""
    settings.require_extraction()
    chosen = ""
    if settings.provider == "auto":
        from memcli.providers.auto import resolve_auto

        settings, chosen = resolve_auto(settings, options.agent)
    provider = settings.provider
    passed_over = _passed_over(provider, options.agent) if chosen else ""
    from memcli.extraction.budget import PROMPT, RULES

    budget = RULES if provider == "rules" and not options.show_prompt else PROMPT
    messages, stats, warnings, cut = _read(text, options, budget, on_read)
    from memcli.store.heads_cache import DamagedCache
    from memcli.store.stamps import StoreChanged

    read = _Read(messages, stats, warnings, cut, chosen, passed_over)
    hooks = (on_progress, on_notes, on_matched)
    # Each store's cache of the notes' heads can be found damaged halfway (it is set aside
    # by then, and nothing was written): a derived file, so the turn is matched again, at
    # most once a store. The notes the rules matched can change before the apply (no lock
    # is held while they match): the turn is matched again then. The last of MATCHES tries
    # holds the stores' locks from its read to its apply, as every match did before: a busy
    # store (a hook's `memcli apply` every second) makes it wait, not fail; only an edit
    # that takes no lock (by hand) can still change the notes under it.
    damaged = changed = 0
    while True:
        try:
            with _held(settings, last=changed == MATCHES - 1):
                return _extract(settings, provider, read, options, hooks)
        except DamagedCache:
            damaged += 1
            if provider != "rules" or damaged > len(LEVELS):
                raise  # (only the rules read that cache: a model is never asked twice)
        except StoreChanged as exc:
            changed += 1
            if changed >= MATCHES:
                raise StoreChanged(f"{exc}, {MATCHES} times in a row; nothing was written: "
                                   "run it again") from None


@contextmanager
def _held(settings: Settings, *, last: bool) -> Iterator[None]:
    """The stores locked throughout, on the LAST try (the reads and the apply within take
    the same locks again for free: memcli.writes.locks); else nothing."""
    if not last:
        yield
        return
    with locked_levels(settings, LEVELS, lend=True):
        yield


@dataclass(frozen=True)
class _Read:
    """What was read of the transcript, and which provider `auto` chose."""

    messages: list[Message]
    stats: TranscriptStats
    warnings: list[str]
    cut: Cut
    chosen: str
    passed_over: str


_Hooks = tuple[Callable[[int], None] | None, Callable[[str, int, int], None] | None,
               Callable[[], None] | None]


def _extract(settings: Settings, provider: str, read: _Read, options: ExtractOptions,
             hooks: _Hooks) -> ExtractResult:
    on_progress, on_notes, on_matched = hooks
    messages, stats, warnings, cut = read.messages, read.stats, list(read.warnings), read.cut
    chosen, passed_over = read.chosen, read.passed_over
    related: list[RelatedNote] = []
    view: StoreView | None = None
    known: dict[str, Sequence[IndexEntry]]
    base: dict[str, str] = {}
    stamps: dict[str, tuple[Path, Stamps]] = {}
    if provider == "rules" and not options.show_prompt:
        # The rules read the notes only for a turn that proposes something (most propose
        # nothing); the base, then, is that of the notes they read. Each read locks the
        # stores for itself: none is held while the rules match.
        from memcli.commands.extract_stores import KnownNotes, StoreView

        view = StoreView(settings, on_notes)
        known = {"all": KnownNotes(view)}
    else:
        with open_stores(settings, LEVELS) as stores:
            # Without a project here only the user store is open; project notes are unknown.
            known = {lvl: stores[lvl].entries() if lvl in stores else [] for lvl in LEVELS}
            base = {lvl: state.fingerprint for lvl, state in stores.items()}
            # What a model's reply is applied against is the store at the apply: the notes
            # changed while it answered are found by their stamps (see _changed_since).
            stamps = {lvl: (state.path, note_stamps(lvl, state.path))
                      for lvl, state in stores.items() if lvl in LEVELS}
            if messages:
                # Only a model reads them: the notes the turn may change, shown whole.
                related = related_notes(settings, list(stores.values()), messages, options.redact)
    today = settings.moment().date()
    result = ExtractResult(provider, [], [], base, stats, warnings=warnings, cut=cut,
                           chosen=chosen, passed_over=passed_over)
    if options.show_prompt:
        result.prompt = prompt_for(messages, known, today, options.redact, cut.dropped, related)
        return result
    trace: RulesTrace | None = None
    items: list[Any] = []
    if not messages:
        # Not an error: a hook fires on turns with nothing new. The empty document (or the
        # empty apply report) still follows, so that a pipeline reads what it always reads.
        result.notice = nothing_read(stats)
    elif provider == "rules":
        from memcli.extraction.rules import RulesTrace, extract_rules

        trace = RulesTrace() if options.explain else None
        items = extract_rules(messages, known["all"], today=today, trace=trace,
                              mode=options.rules_mode)
        if not items:
            result.notice = _nothing_found(messages)
    else:
        # Built only for a model: the rules never read it, and redacting every index line
        # of a large store is not free.
        result.prompt = prompt_for(messages, known, today, options.redact, cut.dropped, related)
        items = _ask_model(settings, provider, result.prompt, result, on_progress)
    # With review on, a delete is kept: it waits in the inbox for the person instead.
    reviewed = options.propose or (options.apply and bool(settings.review))
    checked = validate(items, options.allow_delete or reviewed)
    result.operations, result.positions = checked.operations, checked.positions
    result.rejected.extend(checked.rejected)
    result.dropped.extend(checked.dropped)
    sources = _merge_near_duplicates(result, known, options.on_conflict)
    if view is not None:
        result.base = base = view.base  # that of the notes, when they were read
    if on_matched is not None:
        on_matched()
    _cite_named_files(settings, result.operations, project="project" in base)
    if options.explain:
        from memcli.extraction.explain import explain

        result.explanation = explain(result.operations, sources, result.positions,
                                     result.merged, messages, trace)
    if options.apply or options.dry_run or options.propose:
        from memcli.commands.apply import apply_items  # (the write path: only to write)
        from memcli.safety.unattended import UNATTENDED

        # Nobody reviews what extract applies: the guard keeps a reply from destroying notes,
        # and what the `review` setting names waits in the inbox (--propose: everything).
        guard = replace(UNATTENDED, allow_delete=options.allow_delete,
                        hold_instructions=result.provider != "rules",
                        review=frozenset({"all"}) if options.propose else settings.review)
        result.report = apply_items(settings, result.operations, base,
                                    dry_run=not (options.apply or options.propose),
                                    on_conflict=options.on_conflict, guard=guard,
                                    source=_source(options, result),
                                    evidence=_evidence(messages),
                                    check=view.check if view is not None
                                    else lambda: _changed_since(stamps))
    return result


def _changed_since(stamps: dict[str, tuple[Path, Stamps]]) -> frozenset[tuple[str, str]]:
    """The notes (level, name) changed since STAMPS were taken, under the apply's locks: a
    model is never asked again, so the guard refuses a change of those instead."""
    return frozenset((lvl, name) for lvl, (path, read) in stamps.items()
                     for name in changed_names(lvl, path, read))


def _passed_over(provider: str, agent: str | None) -> str:
    """AGENT when `auto` chose PROVIDER although AGENT's hook asked: its CLI was missing
    (a key would have come first: choosing that is no fallback)."""
    from memcli.settings.provider_registry import AGENT_CLIS, OFFLINE

    # After the agent's CLI, auto tries a local server ("ollama"), then the rules.
    return agent if agent in AGENT_CLIS and provider in ("ollama", OFFLINE) else ""


def _read(text: str | bytes | TranscriptFile, options: ExtractOptions, budget: Budget,
          on_read: Callable[[int, int], None] | None
          ) -> tuple[list[Message], TranscriptStats, list[str], Cut]:
    """The transcript's messages within the extractor's budget, redacted, and what was read.

    The budget is applied before anything else reads the text: a paste of megabytes costs
    the extractor (and the redaction) what its kept start and end cost."""
    from memcli.extraction.budget import fit
    from memcli.transcripts import read_transcript
    from memcli.transcripts.verdict import check

    transcript = read_transcript(
        text, fmt=options.fmt, include_tools=options.include_tools,
        include_thinking=options.include_thinking, include_injected=options.include_injected,
        last_turn=options.last_turn,
        strict=options.strict, on_progress=on_read,
    )
    warnings = check(transcript, strict=options.strict)
    fitted, cut = fit(transcript.messages, budget)
    messages, redactions = redacted(fitted, options.redact)
    stats = TranscriptStats(len(transcript.messages), transcript.records, transcript.skipped,
                            transcript.broken, transcript.formats, transcript.truncated,
                            redactions, transcript.unknown)
    return messages, stats, warnings, cut


def _nothing_found(messages: Sequence[Message]) -> str:
    from memcli.extraction.rules.languages import unread_language, unread_notice

    said = sum(1 for message in messages if message.role == "user")
    unread = sum(1 for m in messages if m.role == "user" and unread_language(m.text))
    if unread and unread == said:
        return unread_notice(unread)
    noun = "message" if said == 1 else "messages"
    if not said:
        others = "1 message" if len(messages) == 1 else f"{len(messages)} messages"
        return (f"nothing to extract: no message from the person among the {others} read, "
                "and the rules extractor reads only what the person typed")
    return (f"nothing lasting found in {said} {noun} from the person (the offline extractor "
            "keeps preferences, rules and facts about the project, not questions or one-off "
            "requests); use --provider openai or anthropic for a model's reading")


def _merge_near_duplicates(result: ExtractResult, known: dict[str, Sequence[IndexEntry]],
                           on_conflict: str) -> list[int]:
    """Merges in place; returns, per operation kept, its index before the merge."""
    from memcli.extraction.dedupe import merge_near_duplicates

    if not any(op.get("action") == "create" for op in result.operations):
        # Only a create is matched against the stored notes: nothing to read them for.
        return list(range(len(result.operations)))
    notes = known["all"] if "all" in known else [*known["project"], *known["user"]]
    dedupe = merge_near_duplicates(result.operations, notes, on_conflict)
    result.operations = dedupe.operations
    result.merged = dedupe.merged
    result.rejected.extend((result.positions[i], why) for i, why in dedupe.refused)
    result.rejected.sort()
    return dedupe.sources


def _cite_named_files(settings: Settings, operations: list[dict[str, object]], *,
                      project: bool) -> None:
    """Give each new project note the files it names that the repository holds now
    (docs/anchors.md); a note that already cites something keeps its list."""
    chosen = [op for op in operations if op.get("action") == "create"
              and op.get("level") == "project" and not op.get("cites")]
    if not project or not chosen:
        return
    from memcli.extraction.cited_paths import cites_for
    from memcli.store.anchor_repository import Repository, repository_root

    repo = Repository(repository_root(settings.project_root))
    for op in chosen:
        texts = [str(op.get(key) or "") for key in ("title", "summary", "content")]
        cites = cites_for(repo, texts)
        if cites:
            reason = op.pop("reason", None)  # cites go before the reason, as as_dict orders
            op["cites"] = cites
            if reason is not None:
                op["reason"] = reason


def _evidence(messages: Sequence[Message]) -> str:
    """The turn's words behind a proposal (redacted already): its last few messages."""
    return "\n".join(f"{m.role}: {' '.join(m.text.split())}" for m in messages[-4:])


def _source(options: ExtractOptions, result: ExtractResult) -> Source:
    from memcli.writes.history import Source

    model = result.usage.get("model")
    return Source(options.via or "extract --apply",
                  session=options.session, transcript=options.transcript,
                  provider=result.provider, model=model if isinstance(model, str) else None,
                  job=options.job, via=options.via or "cli")


def _ask_model(settings: Settings, provider: str, prompt: PromptText, result: ExtractResult,
               on_progress: Callable[[int], None] | None) -> list[Any]:
    import time

    from memcli.providers import Prompt, complete

    started = time.monotonic()  # a duration, not the clock: the monotonic timer
    completion = complete(Prompt(prompt.system, prompt.user), provider_settings(settings, provider),
                          on_progress=on_progress)
    result.usage = {"model": completion.model, "input_tokens": completion.input_tokens,
                    "output_tokens": completion.output_tokens, "attempts": completion.attempts,
                    "json_mode": completion.json_mode, "cost_usd": completion.cost_usd,
                    "seconds": round(time.monotonic() - started, 3)}
    try:
        return parse_answer(completion.text, completion.json_mode)
    except ProviderError as exc:
        if not completion.cut_off:
            raise
        from memcli.providers import MAX_OUTPUT_TOKENS

        raise ProviderError(f"{exc} (the model stopped at the {MAX_OUTPUT_TOKENS:,}-token "
                            "output limit: a shorter turn, with --last-turn, may fit)") from None
