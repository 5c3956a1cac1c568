"""Whether a sentence points at where material lives: a place to look something up in, not a
tool the project uses. "the runbook for failovers is docs/runbooks/db.md", "bugs are
tracked as PAY-123 tickets", "latency is on the grafana dashboard 'api-p99'", "see #212",
仕様は Confluence のページにある, 기획서는 위키에 있어, макеты на доске в Miro.

Read from the shape of a place, not from a list of products: a web link or a host with a
path, a ticket id (ABC-123) or an issue number (#123), a path to a document (docs/…,
wiki/…, runbooks/…, a .md or .pdf file), and the words for a dashboard, a board, a wiki, a
page, a runbook, a document, a ticket, a tracker or a spreadsheet in the ten languages.
Round 3's list of tools ("jira", "sentry", "figma"…) was written while reading one
author's missed references and left a tool it did not name to the route head
(docs/extractor-model.md, routing round 5).
"""

from __future__ import annotations

import re

from memcli.extraction.rules.patterns import lazy

# A web link, or a host with a path to a document, a tracker, a wiki or a board
# ("docs.google.com/spreadsheets/d/…", "github.com/o/r/issues"); not any host with a path
# (an image registry: "ghcr.io/acme").
_LINK = lazy(r"https?://|\bwww\.\w|\b[\w-]+(?:\.[\w-]+)+/(?:[\w.-]+/)*(?:issues|wiki|docs?|"
             r"spreadsheets|document|pages|boards?|dashboards?|browse|projects)\b", re.I)
# A ticket or an issue: "#212", or an id (PAY-311) beside a word for tickets or tracking. An
# id alone is as often the project's own code for a thing (ST-07, MNA-0412, JSR-352).
_TICKET = lazy(r"(?<![\w&#])#\d{2,6}\b"
               r"|(?<![\w-])[A-Z][A-Z0-9]{1,9}-\d{1,6}(?![\w-]).{0,40}\b(?:ticket|issue|track|bug)"
               r"|\b(?:ticket|issue|track\w*|bug)\b.{0,40}(?<![\w-])[A-Z][A-Z0-9]{1,9}-\d{1,6}(?![\w-])")
# A path to where documents to read are kept: a runbooks, wiki, handbook or decisions
# folder. Not docs/ (as often where the agent is to write: "release notes go in docs/").
_DOC_PATH = lazy(r"(?<![\w.])(?:[\w.-]+/)*(?:wiki|runbooks?|handbook|adrs?|decisions)(?:/|\b)",
                 re.I)
# The words for a place material is kept in, in the ten languages. A word that is as often
# the project's code or data ("page" of a site, "board" of a circuit, a sheet a script
# reads) is not read alone.
_PLACE = lazy(
    r"\b(?:dashboards?|wiki(?:s| pages?)?|runbooks?|handbook|tickets?|issue tracker|tracker|"
    r"backlog|google (?:sheets?|docs?)|kanban|saved search|"
    r"(?:kanban|project|trello|miro|notion|confluence|team) (?:board|page|space|workspace)|"
    r"(?:doc|docs|documentation|design|wiki) page|documentation|design files?|mockups?|"
    r"tableau de bord|tableaux de bord|maquettes?|"
    r"tablero|panel de control|documentaci\w+n|maquetas?|painel|documenta\w+o|"
    r"dokumentation|doku|wikiseite|cruscotto|documentazione|"
    r"(?:дашборд|вики|тикет|ранбук|документаци)\w*)\b"
    r"|文档|看板|工单|仪表盘|面板|维基|知识库|手册|チケット|ダッシュボード|ドキュメント|手順書|"
    r"ウィキ|仕様書|티켓|대시보드|문서|위키|런북", re.I)
# Products that are places to look things up in (trackers, wikis, error trackers,
# dashboards, design and API documents, shared documents): named as the place itself.
_PLACE_PRODUCT = lazy(
    r"\b(?:jira|youtrack|redmine|trello|asana|clickup|confluence|notion|"
    r"sharepoint|smartsheet|sentry|bugsnag|rollbar|grafana|kibana|datadog|"
    r"new relic|pagerduty|opsgenie|metabase|looker|figma|zeplin|miro|storybook|"
    r"swagger|postman|stoplight|gitbook|backstage)\b"
    r"|(?<![a-z])(?:confluence|notion|sentry|grafana|figma|jira|kibana|pagerduty)", re.I)
# The person sends the agent to look there ("look there first", "check it before…", 先去那看,
# そっち見て, 거기 봐, смотри туда).
_LOOK_THERE = lazy(
    r"\b(?:look|check) (?:there|it|that|them) (?:first|before)|\bread it before\b"
    r"|\bregarde là|\bguarda lì|\bolha l[aá]\b|\bmira ah[ií]\b|\bschau (?:da|dort)\b"
    r"|(?<!\w)смотри туда(?!\w)|先去那|去那(?:看|查)|そっち見て|そこ見て|거기 봐|거기서 봐", re.I)


def points_at_material(sentence: str) -> bool:
    """Whether SENTENCE names a place where material to look things up lives."""
    return bool(_LINK.search(sentence) or _TICKET.search(sentence)
                or _DOC_PATH.search(sentence) or _PLACE.search(sentence)
                or _PLACE_PRODUCT.search(sentence) or _LOOK_THERE.search(sentence))
