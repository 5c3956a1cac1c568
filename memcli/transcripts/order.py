"""Put entries in conversation order and drop what the tools themselves wrote twice.

Claude Code: follow the uuid/parentUuid chain so rewound branches drop out. Gemini CLI:
keep the last copy of a rewritten message, and honour ``$rewindTo``. Everyone: an echo a
tool writes for its UI goes when the model-visible original is present.
"""

from __future__ import annotations

from collections import Counter

from memcli.transcripts.model import Entry, Piece, get_str


def drop_echoes(entries: list[Entry], dropped: Counter[str]) -> None:
    echoes = [p for e in entries for p in e.pieces or () if p.echo]
    if not echoes:
        return
    originals = _original_keys(entries, echoes)
    for e in entries:
        if e.pieces is None or not any(p.echo for p in e.pieces):
            continue
        kept = [p for p in e.pieces if not (p.echo and _key(p) in originals)]
        dropped["duplicate"] += len(e.pieces) - len(kept)
        e.pieces = kept or None


def _original_keys(entries: list[Entry], echoes: list[Piece]) -> set[tuple[str, str]]:
    """The keys of the pieces an echo could repeat: same kind, not themselves echoes."""
    kinds = {p.kind for p in echoes}
    # an original longer than this cannot be the same words as any echo
    longest = 2 * max(len(p.text) for p in echoes) + 64
    return {
        _key(p)
        for e in entries
        for p in e.pieces or ()
        if not p.echo and p.later is None and p.kind in kinds and len(p.text) <= longest
    }


def _key(piece: Piece) -> tuple[str, str]:
    return piece.kind, " ".join(piece.text.split())


def keep_last_gemini_copy(entries: list[Entry]) -> None:
    """Gemini rewrites a message under the same id as its tool calls finish: the last copy
    is complete, the first copy's place in the file is when the message began."""
    first: dict[str, Entry] = {}
    for e in entries:
        gid = get_str(e.rec, "id") if e.fmt == "gemini" and e.pieces is not None else None
        if gid is None:
            continue
        if gid in first:
            first[gid].pieces, e.pieces = e.pieces, None
        else:
            first[gid] = e


def apply_gemini_rewinds(entries: list[Entry], dropped: Counter[str]) -> None:
    """``{"$rewindTo": id}`` retracts the message with that id and every one after it."""
    live: list[Entry] = []
    for e in entries:
        target = e.rec.get("$rewindTo") if e.fmt == "gemini" else None
        if not isinstance(target, str):
            live.append(e)
            continue
        ids = [get_str(x.rec, "id") for x in live]
        if target in ids:
            cut = ids.index(target)
            for gone in live[cut:]:
                if gone.fmt == "gemini" and gone.pieces:
                    dropped["rewound"] += len(gone.pieces)
                    gone.pieces = None
    # retracted entries stay counted as records; they just hold nothing any more


# ---------------------------------------------------------------------------------------------
# Pi


def _pi_branch(entries: list[Entry], dropped: Counter[str]) -> list[Entry]:
    """Pi (session format 2 on) appends every entry under a ``parentId``; going back to an
    earlier entry and typing again starts a branch in the same file, and the session goes
    on from its newest entry: what is on the path from it to the root is the conversation
    (pi-mono ``buildSessionContext``). Entries without an id (the header, format 1) stay."""
    by_id = {i: e for e in entries if e.fmt == "pi" and (i := get_str(e.rec, "id"))}
    if not any(get_str(e.rec, "parentId") for e in by_id.values()):
        return entries
    on_path: set[int] = set()
    cut_at: set[str] = set()  # parents a walk stopped at, not in the input
    limit = entries[-1].seq + 1
    # A walk that stops at a parent not in the input (a slice, a lost line) goes on from the
    # newest entry before where it stopped, as Claude Code's chain does; a walk that stops
    # at the same missing parent is a branch beside the path, left behind.
    for leaf in reversed(entries):
        if leaf.seq >= limit or leaf.fmt != "pi" or not get_str(leaf.rec, "id"):
            continue
        segment, parent = _pi_walk(leaf, by_id, on_path)
        limit = min(limit, *segment)
        if parent is not None and parent not in by_id:
            if parent in cut_at:
                continue  # beside the path: its entries stay off it
            cut_at.add(parent)
        on_path.update(segment)
        if parent is None or parent in by_id:
            break  # reached the root, or joined the path already walked
    kept: list[Entry] = []
    for e in entries:
        if e.fmt == "pi" and get_str(e.rec, "id") and e.seq not in on_path:
            dropped["abandoned branch"] += len(e.pieces or ())
            continue
        kept.append(e)
    return kept


def _pi_walk(leaf: Entry, by_id: dict[str, Entry], on_path: set[int]
             ) -> tuple[list[int], str | None]:
    """The ``seq`` of each entry from ``leaf`` back to the root, or to the path already
    walked, or to a parent not in the input; and the parent it stopped at."""
    segment: list[int] = []
    current: Entry | None = leaf
    parent: str | None = None
    seen: set[int] = set()
    while current is not None and current.seq not in on_path and current.seq not in seen:
        seen.add(current.seq)
        segment.append(current.seq)
        parent = get_str(current.rec, "parentId")
        current = by_id.get(parent) if parent else None
    return segment, parent


# ---------------------------------------------------------------------------------------------
# Claude Code


def conversation_order(entries: list[Entry], dropped: Counter[str]) -> list[Entry]:
    """Entries in conversation order: Claude Code records permuted among their own places,
    Pi's entries off the newest branch left out."""
    entries = _pi_branch(entries, dropped)
    claude = [e for e in entries if e.fmt == "claude-code"]
    if not claude:
        return entries
    kept = _claude_conversation(claude)
    kept_seqs = {e.seq for e in kept}
    abandoned = sum(len(e.pieces or ()) for e in claude if e.seq not in kept_seqs)
    if abandoned:
        dropped["abandoned branch"] += abandoned
    placed = dict(zip(sorted(kept_seqs), kept, strict=True))
    return [
        placed[e.seq] if e.fmt == "claude-code" else e
        for e in entries
        if e.fmt != "claude-code" or e.seq in placed
    ]


def _claude_conversation(claude: list[Entry]) -> list[Entry]:
    by_uuid = {u: e for e in claude if (u := get_str(e.rec, "uuid"))}
    chain = _claude_chain(claude, by_uuid)
    on_chain = {e.seq for e in chain}
    # Sidechains and uuid-less lines are not on the chain; they keep their place in the file.
    extras = {
        e.seq
        for e in claude
        if e.pieces is not None and e.seq not in on_chain and not _is_main_message(e)
    }
    extras |= _sibling_replies(claude, chain, on_chain)
    rank = {e.seq: i for i, e in enumerate(chain)}
    keyed = [((i, 0, 0), e) for i, e in enumerate(chain)]
    anchor = -1
    for e in claude:
        if e.seq in rank:
            anchor = max(anchor, rank[e.seq])
        elif e.seq in extras:
            keyed.append(((anchor, 1, e.seq), e))
    keyed.sort(key=lambda pair: pair[0])
    return [e for _, e in keyed]


def _sibling_replies(claude: list[Entry], chain: list[Entry], on_chain: set[int]) -> set[int]:
    """iFlow CLI writes Claude Code's records, but every reply of a turn under the prompt's
    ``parentUuid``: the walk back from the newest line takes one of them. A reply whose
    parent is on the chain and that nothing follows is part of that turn, not a branch
    left behind (a branch the person left starts with their own line, whose replies hang
    under it, off the chain; and a reply the chain goes on from by another way, a rewind
    before a compaction, has no sibling reply on the chain)."""
    # the parents whose next line on the chain is a reply: their other replies are siblings
    answered = {p for e in chain
                if e.rec.get("type") == "assistant" and (p := get_str(e.rec, "parentUuid"))}
    parents = {p for e in claude if (p := get_str(e.rec, "parentUuid"))}
    return {
        e.seq
        for e in claude
        if e.pieces is not None and e.seq not in on_chain and _is_main_message(e)
        and e.rec.get("type") == "assistant" and get_str(e.rec, "uuid") not in parents
        and get_str(e.rec, "parentUuid") in answered
    }


def _is_main_message(e: Entry) -> bool:
    return (
        e.rec.get("type") in ("user", "assistant")
        and e.rec.get("isSidechain") is not True
        and get_str(e.rec, "uuid") is not None
    )


def _claude_chain(claude: list[Entry], by_uuid: dict[str, Entry]) -> list[Entry]:
    """Walk back from the newest main-chain line; when the walk stops short (a slice whose
    first parent is elsewhere, a lost line), walk again from the newest line before it."""
    seen: set[int] = set()
    segments: list[list[Entry]] = []
    limit = claude[-1].seq + 1
    for leaf in reversed(claude):
        if leaf.seq >= limit or leaf.seq in seen or not _is_main_message(leaf):
            continue
        segment = _walk(leaf, by_uuid, seen)
        segments.append(segment[::-1])
        limit = min(e.seq for e in segment)
    return [e for segment in reversed(segments) for e in segment]


def _walk(leaf: Entry, by_uuid: dict[str, Entry], seen: set[int]) -> list[Entry]:
    segment: list[Entry] = []
    current: Entry | None = leaf
    while current is not None and current.seq not in seen:
        seen.add(current.seq)
        segment.append(current)
        # compact_boundary lines have parentUuid null and point across with logicalParentUuid
        parent = get_str(current.rec, "parentUuid") or get_str(current.rec, "logicalParentUuid")
        current = by_uuid.get(parent) if parent else None
    return segment


def claude_leaf_segment(entries: list[Entry]) -> set[int]:
    """The ``seq`` of each Claude Code entry the newest main-chain line's walk back reaches:
    the part of the conversation the chain puts last."""
    claude = [e for e in entries if e.fmt == "claude-code"]
    leaf = next((e for e in reversed(claude) if _is_main_message(e)), None)
    if leaf is None:
        return set()
    by_uuid = {u: e for e in claude if (u := get_str(e.rec, "uuid"))}
    return {e.seq for e in _walk(leaf, by_uuid, set())}
