"""Other agents' own memory files, in and out: Claude Code's auto-memory folder
(``claude_format``, ``claude_import``, ``claude_export``), Codex's memories folder, Gemini
CLI's GEMINI.md.

They share their result types (``results``) and their file access (``_files``: no symbolic
link followed, writes through a fresh temporary file). Imports go through memcli's
validation (one transaction of create operations).
"""
