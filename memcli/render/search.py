"""How `search` and `recall` print: data to stdout, as text or JSON."""

from __future__ import annotations

from memcli.json_values import JsonObject
from memcli.render.output import Output
from memcli.search.engine import MAX_QUERY_CHARS, SearchHit, SearchResult
from memcli.search.recall import RecallResult
from memcli.tokens import TOKENIZER


def _hit_json(hit: SearchHit) -> JsonObject:
    return {"level": hit.level, "file": hit.filename, "path": str(hit.path), "type": hit.type,
            "title": hit.title, "summary": hit.summary, "score": hit.score,
            "coverage": hit.coverage, "snippet": hit.snippet,
            **({"warning": hit.warning} if hit.warning else {})}


def _cut(output: Output, what: str, cut_from: int) -> None:
    if cut_from:
        output.warn(f"the {what} is {cut_from} characters long; only its first "
                    f"{MAX_QUERY_CHARS} were searched")


def search_result(output: Output, result: SearchResult) -> None:
    _cut(output, "query", result.cut_from)
    if output.as_json:
        output.data({"query": result.query, "results": [_hit_json(h) for h in result.hits],
                     "indexed": result.indexed})
        return
    if not result.hits:
        output.note("memcli: no note matches")
    for hit in result.hits:
        head = output.paint(f"{hit.level}/{hit.filename}", "\033[36m")
        output.line(f"{head}  {hit.score:.2f}")
        output.line(f"  [{hit.type}] {hit.title}")
        if hit.snippet:
            output.line(f"  {hit.snippet}")


def recall_result(output: Output, result: RecallResult) -> None:
    _cut(output, "prompt", result.cut_from)
    if output.as_json:
        output.data({
            "prompt": result.prompt, "text": result.text, "tokens": result.tokens,
            "budget": result.budget, "tokenizer": TOKENIZER, "threshold": result.threshold,
            "notes": [{**_hit_json(h), "tokens": h.tokens} for h in result.notes],
        })
        return
    output.out.write(result.text)
