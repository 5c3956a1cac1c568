"""Other agents' own memory files, in and out: Codex's memories folder, Gemini CLI's GEMINI.md.

Claude Code's auto-memory folder has its own module (``memcli.claude_code``); these share its
result types. Both directions go through memcli's validation (import: one transaction of
create operations) and never follow a symbolic link.
"""
