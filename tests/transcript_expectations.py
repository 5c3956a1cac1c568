"""What each transcript fixture says, written by hand from reading the file (and the agent's
own writer), never by running memcli. Default options: what a person typed and what the
assistant said, in conversation order.

A text ending in "…" is compared as a prefix (long replies); every other text exactly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).parent / "fixtures" / "transcripts"

Said = tuple[str, str]  # (role, text)


@dataclass(frozen=True)
class Expected:
    path: Path
    formats: dict[str, int]
    messages: list[Said]
    last_turn: list[Said]
    # messages every reader must keep out of the default view (injected, tools, thinking)
    never: list[str] = field(default_factory=list)
    # a real log too long to copy out message by message: only its typed words are listed,
    # and the assistant's replies are counted
    only_user: bool = False
    assistant_count: int | None = None


def u(text: str) -> Said:
    return ("user", text)


def a(text: str) -> Said:
    return ("assistant", text)


COOKBOOK_PAIRS = [
    ("How many studio courses can I take in one term?",
     "It is strongly recommended that students not exceed three (3) studio c…"),
    ("Can the minor courses go towards the Design Major and the Sustainable …",
     "No, your design courses are mandatory (core) courses for your program.…"),
    ("Can I drop a course and what happens if I do?",
     "A student who is struggling in a course may decide to drop the course …"),
    ("Will my status change if I drop from 12 credits to 9 credits?",
     "Nothing changes in your status. You’re still an active student but if …"),
    ("I  would like to enrol for a class that requires a department permissi…",
     "Each department handles the registration of their courses. If you are …"),
    ("What's the difference between a 'Fine Arts Elective' and a 'General or…",
     "Free electives - All programs (excluding Major/Minor combination progr…"),
    ("How do I know if an elective will count towards my program?",
     "Rather than just give you the answer I will tell you how you can find …"),
    ("How do I look for an Elective?",
     "If you visit our main website and look at the top of the screen you'll…"),
    ("What is a prerequisite?",
     "A prerequisite is a specific course identified as being one you must h…"),
    ("How can I obtain a letter stating I'm a full-time student?",
     "Birk's Student Centre offers a variety of attestation letters for that…"),
    ("Can I investigate user interface for tech or other relevant areas?",
     "In the design major interface studies/experiments take place in course…"),
]

VCT_CODEX_REQUEST = (
    "幫我檢查一下 go.mod 裡面 為何 go版本是 1.24?\n"
    "請幫我統一成 1.24 並且我希望 1.24 以上就能使用 並將 .python-version 也改成 3.10\n"
    "然後幫我查看一下代碼中 除了 .python-version 以外 哪邊還有無寫死的 python version 字串\n"
    "另外想確認一下這版本是在 go mod init的時候決定的嗎？\n"
    "也請你幫我上網找看看 golang 最新版是幾版\n"
    "幫我把這段說明更新到兩個 markdown 來告訴其他開發者 一個是繁體中文 一個簡體中文\n"
    "最後幫我把 TODO.md 刪除"
)
VCT_CODEX_LAST = a("Here’s what I changed and what I found.\n\nChanges made\n…")

LOGLINES = [
    u("Create a simple Python function to add two numbers"),
    a("I'll create a simple Python function for you. Let me write it now."),
    a("I've created the `add` function. Now let me run the tests."),
    a("All tests pass. Let me update the todo list and make a commit."),
    a("Committed! Now pushing to remote."),
    u("Now edit the file to add a subtract function"),
    a("Added the subtract function. Let me verify with grep."),
    u("Run the tests again"),
    a("There's a test failure. I need to check the test file and fix it.\n\n…"),
    u("Fix the issue and commit"),
    a("Done! The subtract function is now working and committed."),
    # (here the file has "isCompactSummary": true and a continuation summary: injected)
    u("Add a multiply function too"),
    a("Added multiply function!"),
]

GEMINI_REDACTED = "gemini/vct-gemini-cli-session-redacted.jsonl"

# VS Code writes one Copilot Chat session as a .json document and as a .jsonl change log;
# both must read as the same conversation.
COPILOT_SESSION = [
    u("We target Node 20 in this repo, so don't use APIs from Node 22. Why does `npm test` "
      "fail?"),
    a("The test script uses `fs.globSync`, which only exists from Node 22. In `run.js` "
      "replace it with the `glob` package."),
    u("Thanks. Please also add a test for the glob fallback."),
    a("Added `test/glob.test.js` covering the fallback."),
]

EXPECTED: dict[str, Expected] = {
    e.path.name: e
    for e in [
        Expected(
            HERE / "claude-code/cclog-dag-compact-after-rewind.jsonl",
            {"claude-code": 12},
            [u("Start"), a("Ready"), u("Second attempt"), a("Second answer"), u("Keep going"),
             a("Kept going"), u("After compaction"), a("Final answer")],
            [u("After compaction"), a("Final answer")],
            never=["First attempt", "First answer", "This session is being continued"],
        ),
        Expected(
            HERE / "claude-code/cclog-minimal-showcase.jsonl",
            {"claude-code": 11},
            [u("Give me a tour of the repository: its structure, then compare the web and jobs "
               "modules side by side."),
             a("Let me inspect the repository structure first."),
             a("Now two agents, one per module, so their reports can be compared."),
             a("Both modules are surveyed: **web** renders the column layout, and **jobs** runs "
               "three scheduled jobs.")],
            [u("Give me a tour of the repository: its structure, then compare the web and jobs "
               "modules side by side."),
             a("Let me inspect the repository structure first."),
             a("Now two agents, one per module, so their reports can be compared."),
             a("Both modules are surveyed: **web** renders the column layout, and **jobs** runs "
               "three scheduled jobs.")],
            never=["make test"],
        ),
        Expected(
            HERE / "claude-code/cclog-sidechain-integrated.jsonl",
            {"claude-code": 6},
            [a("Excellent research! The sub-assistant has identifi...")],
            [a("Excellent research! The sub-assistant has identifi...")],
            never=["I'll research how"],
        ),
        Expected(
            HERE / "claude-code/cclog-teammates.jsonl",
            {"claude-code": 22},
            [u("Start a test-coverage team and dispatch two teammates."),
             a("Team test-coverage has one member still active. Shut down bob before retrying.")],
            [u("Start a test-coverage team and dispatch two teammates."),
             a("Team test-coverage has one member still active. Shut down bob before retrying.")],
            never=["heartbeat", "teammate-message", "Relay module coverage"],
        ),
        Expected(
            HERE / "claude-code/cclog-async-agents.jsonl",
            {"claude-code": 7},
            [u("Spawn a coverage analysis agent in the background and wait for the result."),
             a("Coverage report received. Done.")],
            [u("Spawn a coverage analysis agent in the background and wait for the result."),
             a("Coverage report received. Done.")],
            never=["Full transcript available at", "task-notification"],
        ),
        Expected(
            HERE / "claude-code/simonw-sample-session-loglines.json",
            {"claude-code": 1},
            LOGLINES,
            [u("Add a multiply function too"), a("Added multiply function!")],
            never=["session continuation summary", "The user wants a simple addition"],
        ),
        Expected(
            HERE / "claude-code/cclog-dag-fork.jsonl",
            {"claude-code": 11},
            [u("Start"), a("Reply 1"), u("Middle"), u("Fork from c"), a("Forked reply"),
             u("End of s3")],
            [u("End of s3")],
            never=["Reply 2", "Last in s1", "Continue from e", "End of s2"],
        ),
        Expected(
            HERE / "claude-code/cclog-real-deep-manifest-2.0.55.jsonl",
            {"claude-code": 316},
            [u("It's been a while - I see that I have pending changes, examine them, add and "
               "commit (i.e., including unknown files)."),
             u("Is everything OK with this project? Do all the tests pass? Does the README "
               "correctly reflects what the code does?"),
             u("The above \"status report\" is very interesting and good to keep as milestone "
               "information. Please create an empty commit with that content."),
             u("New feature: we support .zip, but I've seen an archive that contains embedded "
               "tar.gz. We should support those (.tar, .tar.gz) as well, in a similar way to "
               "the .zip embedded archives."),
             u("I saw in passing that in case of BadZipFile we don't do anything (pass); "
               "wouldn't be a way to report that in the manifest? Propose."),
             u("OK, so first commit the changes related to the previous task, adding support "
               "for tar, then proceed with this new plan (reporting archive errors)."),
             u("Excellent work, thank you!")],
            [u("Excellent work, thank you!"),
             a("You're welcome! Here's a summary of what we accomplished:\n\n…")],
            never=["Caveat: The messages below", "Set model to", "Context Usage",
                   "[Request interrupted"],
            only_user=True,
            assistant_count=69,
        ),
        Expected(
            HERE / "extra/claude-code-injected.jsonl",
            {"claude-code": 12},
            [u("Please keep commit messages under 72 characters."),
             a("Understood, 72 characters at most."),
             u("Now rename the parser module to reader."),
             a("Renamed parser to reader and fixed the imports.")],
            [u("Now rename the parser module to reader."),
             a("Renamed parser to reader and fixed the imports.")],
            never=["REMINDER_SECRET", "LOCAL_STDOUT", "SYNTHETIC_OVERLOADED", "THINKING_SECRET"],
        ),
        Expected(
            HERE / "codex/cclog-codex-rollout-synthetic.jsonl",
            {"codex": 14},
            [u("List the synthetic files."), a("The synthetic files are alpha.txt and beta.txt.")],
            [u("List the synthetic files."), a("The synthetic files are alpha.txt and beta.txt.")],
        ),
        Expected(
            HERE / "extra/codex-injected-context.jsonl",
            {"codex": 12},
            [u("Add a CHANGELOG entry for the parser fix."),
             a("Added the entry under Unreleased.")],
            [u("Add a CHANGELOG entry for the parser fix."),
             a("Added the entry under Unreleased.")],
            never=["AGENTS_MD_SECRET", "ENV_CONTEXT_SHELL"],
        ),
        Expected(
            HERE / "codex/vct-codex.jsonl",
            {"codex": 110},
            [u(VCT_CODEX_REQUEST),
             a("I’ll scan the repo for go.mod and Python version references, update go.mod to "
               "1.24, set .python-version to 3.10, look up the latest Go release online, write "
               "two Markdown notes (繁中/简中), and remove TODO.md."),
             a("Scanning the repo for go.mod, Python version references, and TODO.md before "
               "making changes."),
             a("Reading `go.mod` and `.python-version`, then searching for hardcoded Python "
               "versions in the repo."),
             a("Next, I’ll read `.python-version`, search the repo for any hardcoded Python "
               "version strings, and then update versions."),
             a("Fetching latest Go release, searching for Python version strings, then applying "
               "changes."),
             a("Updating go.mod to declare Go 1.24 and preparing the markdown notes."),
             a("I’m going to read the two README files to decide where to add concise "
               "“版本需求/版本要求” sections, then patch them."),
             a("Next, I’ll append a “版本需求/版本要求” section to the two READMEs and remove "
               "TODO.md."),
             VCT_CODEX_LAST],
            [u(VCT_CODEX_REQUEST),
             a("I’ll scan the repo for go.mod and Python version references, …"),
             a("Scanning the repo for go.mod, …"),
             a("Reading `go.mod` and …"),
             a("Next, I’ll read `.python-version`, …"),
             a("Fetching latest Go release, …"),
             a("Updating go.mod to declare Go 1.24 …"),
             a("I’m going to read the two README files …"),
             a("Next, I’ll append …"),
             VCT_CODEX_LAST],
            never=["<environment_context>", "# Context from my IDE setup"],
        ),
        Expected(
            HERE / "codex/codemie-rollout-2026-05-11T13-28-45.jsonl",
            {"codex": 99},
            [u("analyze trascript and summarzie action items related to codemie and demo "
               "preapration, specifically focus on demo, User and Vadym"),
             a("I analyzed `/Users/Sample_User/Downloads/Sample Project Demo Prep.vtt`. The "
               "Codemie-relevant action items are:…"),
             u("there is a need for nikita to draft demo scenario around governance, budgetings, "
               "analytics"),
             a("Yes. The transcript clearly assigns User to draft the demo scenario/script for "
               "the governance section…"),
             u("use app tools to go to Analytics and Project management tabs in codemie plaform "
               "onepned in google chrome to understand capaiblities. I can also paste scrrenshots "
               "with data that can be provided. there is a need to prepare focused max 8 min "
               "demo scenario showcasing platform and capabilities"),
             a("I couldn’t directly inspect your already-open Chrome tab: …")],
            [u("use app tools to go to Analytics and Project management tabs in codemie plaform…"),
             a("I couldn’t directly inspect your already-open Chrome tab: …")],
            never=["# Files mentioned by the user"],
        ),
        Expected(
            HERE / GEMINI_REDACTED,
            {"gemini": 28},
            [u("..."), a("..."), u("..."), a("..."), u("...")],
            [u("...")],
            never=["uv"],
        ),
        Expected(
            HERE / "gemini/agentsessions-gemini-jsonl_v040.jsonl",
            {"gemini": 5},
            [u("Say hello and list files."), a("Hello! I listed the files.")],
            [u("Say hello and list files."), a("Hello! I listed the files.")],
            never=["AgentSessions/"],
        ),
        Expected(
            HERE / "gemini/codemie-logs.json",
            {"gemini": 1},
            [u("hi"), u("Explain what this is"),
             u("Make a copy of lead_memory.txt name it as lead_gemini.txt and optimize this "
               "instructions to be shorter, consice but without loosing functionality")],
            [u("Make a copy of lead_memory.txt name it as lead_gemini.txt and optimize this "
               "instructions to be shorter, consice but without loosing functionality")],
        ),
        Expected(
            HERE / "gemini/gemini-rewind-session_context-probe.jsonl",
            {"gemini": 13},
            [u("Always run the tests with pytest -q in this repo."),
             a("Noted, I will use pytest -q."),
             u("Use 4 spaces for indentation."),
             a("OK, 4 spaces.")],
            [u("Use 4 spaces for indentation."), a("OK, 4 spaces.")],
            never=["tabs", "session_context", "/memory show", "Memory shown."],
        ),
        Expected(
            HERE / "openai-chat/cookbook-01-testing-example.jsonl",
            {"openai": 11},
            [m for q, r in COOKBOOK_PAIRS for m in (u(q), a(r))],
            [u(COOKBOOK_PAIRS[-1][0]), a(COOKBOOK_PAIRS[-1][1])],
            never=["Ava is the factual DCART chatbot"],
        ),
        Expected(
            HERE / "openai-chat/kimi-cli-context-subagent.head16.jsonl",
            {"openai": 16},
            [u("You are assisting the main agent by gathering project context.\n\nObjective:…"),
             a("I'll help you examine the ColumnTransformer's set_output method implementation…"),
             a("Perfect! I found the ColumnTransformer implementation. Let me examine the main "
               "file and look for the set_output method and the area around line 853.")],
            [u("You are assisting the main agent by gathering project context.\n\nObjective:…"),
             a("I'll help you examine the ColumnTransformer's set_output method implementation…"),
             a("Perfect! I found the ColumnTransformer implementation. Let me examine the main "
               "file and look for the set_output method and the area around line 853.")],
            never=["<system>"],
        ),
        Expected(
            HERE / "openai-chat/miniswe-local.traj.json",
            {"openai": 1},
            [u("Please solve this issue: Blah blah blah\n\nYou can execute bash commands…"),
             a("Here be some dummy command:\n\n```mswea_bash_command\necho 'hello world'\n```"),
             a("OK, now let me end this run.\n\n```mswea_bash_command\n"
               "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n```")],
            [u("Please solve this issue: Blah blah blah\n\nYou can execute bash commands…"),
             a("Here be some dummy command:\n\n```mswea_bash_command\necho 'hello world'\n```"),
             a("OK, now let me end this run.\n\n```mswea_bash_command\n"
               "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n```")],
            never=["You are a helpful assistant that can interact", "<returncode>"],
        ),
        Expected(
            HERE / "cline/cline-api_conversation_history-probe.json",
            {"cline": 1},
            [u("my github username is monchewharry. list out my repo on github")],
            [u("my github username is monchewharry. list out my repo on github")],
            never=["environment_details", "VSCode Visible Files", "total_count", "<thinking>",
                   "use_mcp_tool"],
        ),
        Expected(
            HERE / "copilot-cli/copilot-cli-agent-sessions-small.jsonl",
            {"copilot-cli": 32},
            [u("List the files"), a("Listing the files."), a("Done"),
             a("[trimmed for fixture]"),
             u("[trimmed for fixture]"), a("[trimmed for fixture]")],
            [u("[trimmed for fixture]"), a("[trimmed for fixture]")],
            never=["a.txt"],
        ),
        Expected(
            HERE / "cursor-agent/cursor-agent-transcript-agent-sessions-small.jsonl",
            {"cursor-agent": 5},
            [u("List the files."), a("Here are the files."), u("Run ls."), a("Running ls.")],
            [u("Run ls."), a("Running ls.")],
        ),
        Expected(
            HERE / "pi/pi-agent-sessions-small.jsonl",
            {"pi": 9},
            [u("Read hello.py and summarize what it prints without editing files."),
             a("hello.py prints a fixture greeting."),
             u("Add one concise follow-up sentence."),
             a("hello.py prints a fixture greeting.")],
            [u("Add one concise follow-up sentence."), a("hello.py prints a fixture greeting.")],
        ),
        Expected(
            HERE / "qwen-code/qwen-code-agent-sessions.jsonl",
            {"qwen-code": 6},
            [u("Inspect the synthetic fixture."), a("The synthetic fixture is valid.")],
            [u("Inspect the synthetic fixture."), a("The synthetic fixture is valid.")],
            never=["Synthetic hook context", "background notification", "I should read",
                   "Synthetic file contents"],
        ),
        Expected(
            HERE / "kimi-wire/kimi-wire-codemie-sample.jsonl",
            {"kimi-wire": 18},
            [u("Please read src/index.ts and then update it.")],
            [u("Please read src/index.ts and then update it.")],
            never=["export const version", "You are a helpful coding assistant."],
        ),
        Expected(
            HERE / "extra/codex-exec-json.jsonl",
            {"codex-exec": 7},
            [a("All 12 tests pass with `make test`.")],
            [a("All 12 tests pass with `make test`.")],
            never=["12 passed", "Checking the test command"],
        ),
        Expected(
            HERE / "extra/claude-stream-json.jsonl",
            {"claude-stream-json": 6},
            [a("I'll run the linter first."),
             a("The linter is clean; this project uses ruff, not flake8.")],
            [a("I'll run the linter first."),
             a("The linter is clean; this project uses ruff, not flake8.")],
            never=["All checks passed!", "ruff check ."],
        ),
        Expected(
            HERE / "extra/claude-code-queued-prompts.jsonl",
            {"claude-code": 21},
            [u("Add a CSV export to the orders page."),
             a("I'll add the export next to the print button."),
             u("We use semicolons as CSV separators here, not commas."),
             a("Added the export with semicolons as separators."),
             a("The background tests passed."),
             a("Rebased on main."),
             u("Ship it. And from now on, run the linter before every commit."),
             a("Committed after a clean lint run.")],
            [u("Ship it. And from now on, run the linter before every commit."),
             a("Committed after a clean lint run.")],
            never=["PEER_SECRET", "task-notification", "also bump the version"],
        ),
        Expected(
            HERE / "extra/claude-code-subagent.jsonl",
            {"claude-code": 4},
            [a("I'll search the config folder for the retry settings."),
             a("The retry delay is set in config/http.toml, line 4: retry_delay_ms = 250.")],
            # nobody typed anything: the whole file is the turn
            [a("I'll search the config folder for the retry settings."),
             a("The retry delay is set in config/http.toml, line 4: retry_delay_ms = 250.")],
            never=["three times", "Find where", "THINKING_SECRET", "GREP_OUTPUT"],
        ),
        Expected(
            HERE / "extra/gemini-checkpoint-legacy.json",
            {"gemini": 1},
            [u("Invoices are generated by the nightly job in src/jobs/invoices.py; never call "
               "it by hand."),
             a("Understood: the nightly job owns invoice generation.")],
            [u("Invoices are generated by the nightly job in src/jobs/invoices.py; never call "
               "it by hand."),
             a("Understood: the nightly job owns invoice generation.")],
            never=["This is the Gemini CLI", "Got it. Thanks", "TOOL_OUTPUT_SECRET",
                   "Locating the job"],
        ),
        Expected(
            HERE / "extra/gemini-checkpoint-history.json",
            {"gemini": 1},
            [u("We deploy with `make release`, not with the GitHub UI."),
             a("Noted. I will use `make release` for deployments."),
             u("Please also add a changelog entry for the rounding fix."),
             a("Added the changelog entry.")],
            [u("Please also add a changelog entry for the rounding fix."),
             a("Added the changelog entry.")],
            never=["session_context", "Got it. Thanks", "Successfully modified"],
        ),
        Expected(
            HERE / "extra/codex-legacy-rollout.jsonl",
            {"codex": 15},
            [u("This repository uses pnpm, not npm. Add lodash to the web package."),
             a("Added lodash to the web package with pnpm."),
             u("Thanks. Run the web tests too."),
             a("The web tests pass.")],
            [u("Thanks. Run the web tests too."),
             a("The web tests pass.")],
            never=["AGENTS_MD_SECRET", "environment_context", "Checking the workspace",
                   "ENCRYPTED", "12 passed"],
        ),
        Expected(
            HERE / "extra/copilot-chat-session.json",
            {"copilot-chat": 1},
            COPILOT_SESSION,
            COPILOT_SESSION[2:],
            never=["Node 20 compatibility", "copilot_readFile", "copilot-instructions"],
        ),
        Expected(
            HERE / "extra/copilot-chat-session.jsonl",
            {"copilot-chat": 1},
            COPILOT_SESSION,
            COPILOT_SESSION[2:],
            never=["STALE_CHUNK", "draft", "Node 20 compatibility"],
        ),
        Expected(
            HERE / "extra/cline-ui_messages.json",
            {"cline": 1},
            [u("Add pagination to the repos list. Our API returns at most 100 items per page, "
               "always pass per_page=100."),
             a("I'll look at the GitHub client first."),
             a("Should pages be fetched in parallel or one after another?"),
             u("One after another, the API rate-limits us."),
             a("Pagination is in place; pages are fetched one after another with "
               "per_page=100.")],
            [u("One after another, the API rate-limits us."),
             a("Pagination is in place; pages are fetched one after another with "
               "per_page=100.")],
            never=["TOOL_OUTPUT_SECRET", "tokensIn", "read the client first", "readFile"],
        ),
        Expected(
            HERE / "extra/roo-ui_messages.json",
            {"cline": 1},
            [u("Split the settings page into tabs. Our design system is Radix, never pull in "
               "another component library."),
             a("I'll read the settings page first."),
             a("Should the tabs keep their state in the URL?"),
             u("Yes, in the query string."),
             a("The settings page has three tabs; the open tab is kept in ?tab=.")],
            [u("Yes, in the query string."),
             a("The settings page has three tabs; the open tab is kept in ?tab=.")],
            never=["REASONING_SECRET", "tokensIn", "readFile", "4be1c0d"],
        ),
        Expected(
            HERE / "extra/codex-subagent-rollout.jsonl",
            {"codex": 10},
            [a("One call: src/cart.py:41 rounds the cart total to 2 places.")],
            [a("One call: src/cart.py:41 rounds the cart total to 2 places.")],
            never=["PARENT_HISTORY", "Do not edit files", "rg -n"],
        ),
        # print-mode (headless) outputs
        Expected(
            HERE / "extra/claude-print-json.json",
            {"claude-stream-json": 1},
            [a("Done: the migration now runs in CI. This repository pins Node 20 in `.nvmrc`, "
               "so I used that.")],
            [a("Done: the migration now runs in CI. This repository pins Node 20 in `.nvmrc`, "
               "so I used that.")],
        ),
        Expected(
            HERE / "extra/claude-agent-sdk-stream.jsonl",
            {"claude-stream-json": 9},
            [u("From now on we use pnpm in this repository, never npm. Find where the lockfile "
               "is checked."),
             a("I'll ask a subagent to look for the lockfile check."),
             a("The lockfile check is in `.github/workflows/ci.yml`; it runs "
               "`pnpm install --frozen-lockfile`.")],
            [u("From now on we use pnpm in this repository, never npm. Find where the lockfile "
               "is checked."),
             a("I'll ask a subagent to look for the lockfile check."),
             a("The lockfile check is in `.github/workflows/ci.yml`; it runs "
               "`pnpm install --frozen-lockfile`.")],
            never=["SUBAGENT_NOTE", "Search the CI config"],
        ),
        Expected(
            HERE / "extra/cursor-stream-json.jsonl",
            {"cursor-stream-json": 10},
            [u("Our API responses always use snake_case keys. Add a created_at field to the "
               "order payload."),
             a("I'll read the order serializer first."),
             a("Added `created_at` to `OrderSerializer`, in snake_case like the other keys.")],
            [u("Our API responses always use snake_case keys. Add a created_at field to the "
               "order payload."),
             a("I'll read the order serializer first."),
             a("Added `created_at` to `OrderSerializer`, in snake_case like the other keys.")],
            never=["FILE_BODY", "Looking for the order", "first.Added"],
        ),
        Expected(
            HERE / "extra/gemini-stream-json.jsonl",
            {"gemini-stream-json": 10},
            [u("Remember that the staging database is read-only on Fridays. Which migrations "
               "are pending?"),
             a("I'll list the migration files."),
             a("Two migrations are pending: `0041_orders.sql` and `0042_refunds.sql`.")],
            [u("Remember that the staging database is read-only on Fridays. Which migrations "
               "are pending?"),
             a("I'll list the migration files."),
             a("Two migrations are pending: `0041_orders.sql` and `0042_refunds.sql`.")],
            never=["TOOL_OUTPUT", "Loop detection", "ls migrations/"],
        ),
        Expected(
            HERE / "extra/gemini-print-json.json",
            {"gemini-stream-json": 1},
            [a("The build uses Bazel 7; run `bazel test //...` for the whole suite.")],
            [a("The build uses Bazel 7; run `bazel test //...` for the whole suite.")],
        ),
        Expected(
            HERE / "extra/opencode-run-json.jsonl",
            {"opencode-run": 9},
            [a("I'll check which test runner this project uses."),
             a("The tests run with Vitest: `npm test` calls `vitest run`.")],
            [a("I'll check which test runner this project uses."),
             a("The tests run with Vitest: `npm test` calls `vitest run`.")],
            never=["TOOL_OUTPUT", "THINKING", "cat package.json"],
        ),
        Expected(
            HERE / "extra/codex-exec-legacy-json.jsonl",
            {"codex-exec": 9},
            [u("Never commit directly to main in this repository. Bump the version to 1.4.0."),
             a("Bumped the version to 1.4.0 in `pyproject.toml` on a new branch, "
               "`release/1.4.0`.")],
            [u("Never commit directly to main in this repository. Bump the version to 1.4.0."),
             a("Bumped the version to 1.4.0 in `pyproject.toml` on a new branch, "
               "`release/1.4.0`.")],
            never=["TOOL_OUTPUT", "Finding the version", "workspace-write"],
        ),
        # API documents a script saved
        Expected(
            HERE / "extra/openai-chat-request.json",
            {"openai": 1},
            [u("Our invoices are always rounded half-even, never half-up. Fix the total in "
               "invoice.py."),
             a("`total` now uses `Decimal.quantize` with `ROUND_HALF_EVEN`.")],
            [u("Our invoices are always rounded half-even, never half-up. Fix the total in "
               "invoice.py."),
             a("`total` now uses `Decimal.quantize` with `ROUND_HALF_EVEN`.")],
            never=["SYSTEM_PROMPT", "TOOL_OUTPUT", "read_file"],
        ),
        Expected(
            HERE / "extra/openai-chat-response.json",
            {"openai": 1},
            [a("Rounded half-even: `total` now uses `Decimal.quantize`.")],
            [a("Rounded half-even: `total` now uses `Decimal.quantize`.")],
            never=["ALTERNATIVE_CHOICE"],
        ),
        Expected(
            HERE / "extra/openai-responses-request.json",
            {"openai": 1},
            [u("We always tag releases with a leading v. Tag the current commit as 2.3.0."),
             a("Tagged the current commit as `v2.3.0`.")],
            [u("We always tag releases with a leading v. Tag the current commit as 2.3.0."),
             a("Tagged the current commit as `v2.3.0`.")],
            never=["SYSTEM_PROMPT", "THINKING", "TOOL_OUTPUT", "git tag"],
        ),
        Expected(
            HERE / "extra/openai-responses-response.json",
            {"openai": 1},
            [a("The changelog lives in `docs/CHANGES.md`, not in the repository root.")],
            [a("The changelog lives in `docs/CHANGES.md`, not in the repository root.")],
        ),
        Expected(
            HERE / "extra/anthropic-messages-request.json",
            {"anthropic": 1},
            [u("Every pull request must link an issue. Review PR 42."),
             a("PR 42 has no linked issue; I asked the author to add one.")],
            [u("Every pull request must link an issue. Review PR 42."),
             a("PR 42 has no linked issue; I asked the author to add one.")],
            never=["SYSTEM_PROMPT"],
        ),
        Expected(
            HERE / "extra/sharegpt-rows.json",
            {"sharegpt": 1},
            [u("Always answer in British English. What is a lift?"),
             a("A lift is what Americans call an elevator."),
             u("Check the weather in Oslo."),
             a("It is 4°C with light rain in Oslo.")],
            [u("Check the weather in Oslo."),
             a("It is 4°C with light rain in Oslo.")],
            never=["SYSTEM_PROMPT", "TOOL_OUTPUT", "\"arguments\""],
        ),
        # agents' own sessions, third round
        Expected(
            HERE / "extra/codex-inter-agent-rollout.jsonl",
            {"codex": 11},
            [u("Money is always stored in integer cents in this codebase. Find who calls "
               "round_total."),
             a("Three callers: `cart.py`, `invoice.py` and `refund.py`; all pass integer "
               "cents.")],
            [u("Money is always stored in integer cents in this codebase. Find who calls "
               "round_total."),
             a("Three callers: `cart.py`, `invoice.py` and `refund.py`; all pass integer "
               "cents.")],
            never=["AGENT_MESSAGE", "recipient", "spawn_agent"],
        ),
        Expected(
            HERE / "extra/openhands-trajectory.json",
            {"openhands": 1},
            [u("Always write database migrations with Alembic, never by hand. Add a column "
               "for the refund reason."),
             a("I'll generate the migration with Alembic."),
             a("Added `0008_refund_reason.py` with Alembic; it adds a nullable `reason` "
               "column.")],
            [u("Always write database migrations with Alembic, never by hand. Add a column "
               "for the refund reason."),
             a("I'll generate the migration with Alembic."),
             a("Added `0008_refund_reason.py` with Alembic; it adds a nullable `reason` "
               "column.")],
            never=["SYSTEM_PROMPT", "RECALL_CONTEXT", "THOUGHT", "TOOL_OUTPUT",
                   "Retrieving content"],
        ),
        Expected(
            HERE / "extra/continue-session.json",
            {"continue": 1},
            [u("Always use cursor pagination, never page numbers. Add pagination to GET "
               "/users."),
             a("`GET /users` now takes `after` and `limit` and returns `next_cursor`, using "
               "`cursor_page`.")],
            [u("Always use cursor pagination, never page numbers. Add pagination to GET "
               "/users."),
             a("`GET /users` now takes `after` and `limit` and returns `next_cursor`, using "
               "`cursor_page`.")],
            never=["CONTEXT_FILE", "THINKING", "TOOL_OUTPUT", "read_file"],
        ),
        Expected(
            HERE / "extra/goose-session.jsonl",
            {"goose": 6},
            [u("We use Hugo for the docs site, not Jekyll. Fix the broken links on the about "
               "page."),
             a("I'll check the about page for broken links."),
             a("Fixed the link to `/team/` on the about page.")],
            [u("We use Hugo for the docs site, not Jekyll. Fix the broken links on the about "
               "page."),
             a("I'll check the about page for broken links."),
             a("Fixed the link to `/team/` on the about page.")],
            never=["THINKING", "TOOL_OUTPUT", "HIDDEN_CONTEXT", "developer__shell"],
        ),
        Expected(
            HERE / "extra/opencode-export.json",
            {"opencode": 1},
            [u("Dates in this app are always ISO 8601 strings, never timestamps. Fix the "
               "parser."),
             a("The parser now keeps ISO 8601 strings and rejects numeric timestamps.")],
            [u("Dates in this app are always ISO 8601 strings, never timestamps. Fix the "
               "parser."),
             a("The parser now keeps ISO 8601 strings and rejects numeric timestamps.")],
            never=["SYNTHETIC_FILE", "THINKING", "TOOL_OUTPUT"],
        ),
        Expected(
            HERE / "extra/gemini-api-request.json",
            {"gemini": 1},
            [u("Remember that release notes live in docs/RELEASES.md. Draft the notes for 3.1."),
             a("Drafted the 3.1 notes under a new `## 3.1` heading in `docs/RELEASES.md`.")],
            [u("Remember that release notes live in docs/RELEASES.md. Draft the notes for 3.1."),
             a("Drafted the 3.1 notes under a new `## 3.1` heading in `docs/RELEASES.md`.")],
            never=["SYSTEM_PROMPT", "TOOL_OUTPUT", "read_file"],
        ),
        Expected(
            HERE / "extra/gemini-api-response.json",
            {"gemini": 1},
            [a("The 3.1 notes are drafted.")],
            [a("The 3.1 notes are drafted.")],
            never=["THOUGHT_TEXT", "ALTERNATIVE_CANDIDATE"],
        ),
        Expected(
            HERE / "extra/codebuddy-session.jsonl",
            {"codebuddy": 12},
            [u("Our invoices are rounded half-even, never half-up. Fix the total in ledger.py."),
             a("ledger.py now rounds with ROUND_HALF_EVEN."),
             u("Add a test for the rounding."), a("Added tests/test_rounding.py.")],
            [u("Add a test for the rounding."), a("Added tests/test_rounding.py.")],
            never=["SKILLS_LIST_INJECTED", "QUOTED_OLD_ASK", "REASONING_TEXT", "TOOL_OUTPUT",
                   "/compact", "CONTINUE_NUDGE", "user_query"],
        ),
        Expected(
            HERE / "extra/droid-stream-json.jsonl",
            {"droid-stream-json": 6},
            [u("The API listens on port 8443 in every environment. Check the config."),
             a("config.yaml already sets port 8443.")],
            [u("The API listens on port 8443 in every environment. Check the config."),
             a("config.yaml already sets port 8443.")],
            never=["TOOL_OUTPUT"],
        ),
        Expected(
            HERE / "extra/grok-chat-history.jsonl",
            {"grok": 11},
            [u("The site is built with Hugo, not Jekyll. Update the build docs."),
             a("docs/build.md now describes the Hugo build."),
             u("Thanks, commit it."), a("Committed.")],
            [u("Thanks, commit it."), a("Committed.")],
            never=["SYSTEM_PROMPT", "Workspace Path", "PROJECT_INSTRUCTIONS", "REASONING_TEXT",
                   "TOOL_OUTPUT", "user_query"],
        ),
        Expected(
            HERE / "extra/antigravity-transcript.jsonl",
            {"antigravity": 11},
            [u("Migrations live in db/migrations and are never edited after merge. Add one for "
               "the email column."),
             a("Added db/migrations/0042_add_email.sql."),
             u("Now run it."), a("The migration ran.")],
            [u("Now run it."), a("The migration ran.")],
            never=["SETTINGS_CHANGE_TEXT", "REASONING_TEXT", "TOOL_OUTPUT", "COMPACTION_SUMMARY",
                   "SYSTEM_MESSAGE_TEXT", "USER_REQUEST"],
        ),
        Expected(
            HERE / "extra/kimi-wire-steer.jsonl",
            {"kimi-wire": 15},
            [u("Add a health check endpoint."), u("We always put endpoints under /api/v2."),
             u("Try again with that in mind."), a("Added GET /api/v2/health.")],
            [u("Try again with that in mind."), a("Added GET /api/v2/health.")],
            never=["SYSTEM_PROMPT"],
        ),
        Expected(
            HERE / "extra/cursor-agent-user-query.jsonl",
            {"cursor-agent": 7},
            [u("Always log with structlog, never with print(). Replace the prints in worker.py."),
             a("Replacing the prints in worker.py."),
             u("Also the one in cli.py."), a("cli.py uses structlog now.")],
            [u("Also the one in cli.py."), a("cli.py uses structlog now.")],
            never=["Workspace Path", "ATTACHED_FILE_BODY", "user_query"],
        ),
        Expected(
            HERE / "opencode/storage/message/test-session-1",
            {"opencode": 1},
            [u("Create a test file with console.log statements")],
            [u("Create a test file with console.log statements")],
        ),
        # issue 29: Cline's own texts, Pi and Droid variants, Pi's branches, Kimi 1.4
        Expected(
            HERE / "extra/cline-task-injected.json",
            {"cline": 1},
            [u("The tests live under tests/unit; make test_parse pass without touching the "
               "fixtures."),
             a("I will run the failing test to see the error."),
             a("The parser reads a key the fixture does not have."),
             u("We use uv in this repository, never pip."),
             a("Understood: uv, not pip. Fixing the parser now."),
             u("Also add a line to CHANGELOG.md."), a("Added the CHANGELOG.md line.")],
            [u("Also add a line to CHANGELOG.md."), a("Added the CHANGELOG.md line.")],
            never=["TASK RESUMPTION", "task_progress", "[ERROR]", "Files attached",
                   "] Result:", "KeyError", "environment_details", "New instructions"],
        ),
        Expected(
            HERE / "extra/cline-task-lines.jsonl",
            {"cline": 4},
            [u("The tests live under tests/unit; make test_parse pass without touching the "
               "fixtures."),
             a("I will run the failing test to see the error."),
             a("The parser reads a key the fixture does not have.")],
            [u("The tests live under tests/unit; make test_parse pass without touching the "
               "fixtures."),
             a("I will run the failing test to see the error."),
             a("The parser reads a key the fixture does not have.")],
            never=["<task>", "] Result:", "<execute_command>", "<thinking>", "KeyError"],
        ),
        Expected(
            HERE / "extra/cline-mcp-result-first.json",
            {"cline": 1},
            [u("Only triage issues labelled bug."), a("Triaging only the issues labelled bug.")],
            [u("Only triage issues labelled bug."), a("Triaging only the issues labelled bug.")],
            never=["TASK RESUMPTION", "open_issues", "use_mcp_tool"],
        ),
        Expected(
            HERE / "extra/pi-session-v1.jsonl",
            {"pi": 8},
            [u("The site is built with Hugo 0.128; bump the theme and check the build."),
             a("I will look at the theme module."),
             a("The theme is at v1.4.0; v1.5.2 is the newest and the build passes with it."),
             u("Good, commit it."), a("Committed the theme bump.")],
            [u("Good, commit it."), a("Committed the theme bump.")],
            never=["Check the theme module first.", "github.com/acme/theme@v1.4.0"],
        ),
        Expected(
            HERE / "extra/droid-session-no-ids.jsonl",
            {"pi": 5},
            [u("Our CI runs on Python 3.12 only. Why is test_retry flaky?"),
             a("It sleeps on the real clock; I will make it use the fake clock."),
             a("test_retry now uses the fake clock and passes 50 runs in a row.")],
            [u("Our CI runs on Python 3.12 only. Why is test_retry flaky?"),
             a("It sleeps on the real clock; I will make it use the fake clock."),
             a("test_retry now uses the fake clock and passes 50 runs in a row.")],
            never=["def test_retry"],
        ),
        Expected(
            HERE / "extra/pi-session-branched.jsonl",
            {"pi": 8},
            [u("Add a --json flag to the list command."), a("Added --json to list."),
             u("Keep JSON, and document the flag in the README."),
             a("Documented --json in the README.")],
            [u("Keep JSON, and document the flag in the README."),
             a("Documented --json in the README.")],
            never=["YAML"],
        ),
        Expected(
            HERE / "extra/kimi-wire-1.4-replies.jsonl",
            {"kimi-wire": 18},
            [u("Which Node version does this repo pin?"),
             a("The repo pins Node 22.11.0 in .nvmrc."),
             u("Use that version in the Dockerfile too."),
             a("The Dockerfile now starts FROM node:22.11.0.")],
            [u("Use that version in the Dockerfile too."),
             a("The Dockerfile now starts FROM node:22.11.0.")],
            never=["Look at .nvmrc.", "SYSTEM_PROMPT_TEXT"],
        ),
        Expected(
            HERE / "extra/kimi-wire-subagent.jsonl",
            {"kimi-wire": 5},
            [a("docker-compose.yml defines api, worker and postgres.")],
            [a("docker-compose.yml defines api, worker and postgres.")],
            never=["List the services"],
        ),
        Expected(
            HERE / "extra/specstory-history.md",
            {"specstory": 8},
            [u("Migrations must stay reversible here: every upgrade() needs a downgrade(). "
               "Add the orders.status column."),
             a("I added migration 0008 with an upgrade() that adds orders.status and a "
               "downgrade() that drops it."),
             u("Name it after the column, not a number."),
             a("Renamed it to add_orders_status.py.")],
            [u("Name it after the column, not a number."),
             a("Renamed it to add_orders_status.py.")],
            never=["Look at the latest migration first.", "Tool use", "Renaming files",
                   "Generated by SpecStory", "---"],
        ),
        Expected(
            HERE / "extra/specstory-history-cursor.md",
            {"specstory": 5},
            [u("The import job must finish under a minute for 1M rows; we stream the file, "
               "never load it whole."),
             a("I'll switch the reader to csv.reader over the open file and batch the inserts "
               "by 5,000 rows."),
             u("Good. Batch size 10,000 instead."), a("Batches are 10,000 rows now.")],
            [u("Good. Batch size 10,000 instead."), a("Batches are 10,000 rows now.")],
            never=["Searched codebase", "app/importer.py"],
        ),
        Expected(
            HERE / "extra/qwenpaw-session.json",
            {"qwenpaw": 1},
            [u("Our API runs on Litestar, not FastAPI. Add a health endpoint."),
             a("Added GET /health returning {\"status\": \"ok\"} to the Litestar app."),
             u("Good. Put it under /internal/health instead."),
             a("Moved it to /internal/health.")],
            [u("Good. Put it under /internal/health instead."),
             a("Moved it to /internal/health.")],
            never=["Find the app factory first.", "from litestar import Litestar"],
        ),
        Expected(
            HERE / "extra/qwenpaw-session-state.json",
            {"qwenpaw": 1},
            [u("Releases are tagged vX.Y.Z on main only; bump the version for the fix."),
             a("Bumped the version to 1.4.3; tag v1.4.3 once it is merged to main.")],
            [u("Releases are tagged vX.Y.Z on main only; bump the version for the fix."),
             a("Bumped the version to 1.4.3; tag v1.4.3 once it is merged to main.")],
            never=["You are Friday, a helpful assistant.", "v1.4.2"],
        ),
        Expected(
            HERE / "extra/iflow-session.jsonl",
            {"claude-code": 8},
            [u("Prices are stored in cents; the API returns them as strings. Add a discount "
               "field to the cart."),
             a("I will look at the cart model first."),
             a("Cart has no discount yet; adding discount_cents with a default of 0."),
             a("Added discount_cents to Cart and to the API as a string."),
             u("Also cover it in test_cart.py."), a("I will open the cart tests."),
             a("test_cart.py now checks the discount.")],
            [u("Also cover it in test_cart.py."), a("I will open the cart tests."),
             a("test_cart.py now checks the discount.")],
            never=["class Cart"],
        ),
    ]
}


def matches(expected: str, actual: str) -> bool:
    if expected.endswith("…"):
        return actual.startswith(expected[:-1])
    return actual == expected
