"""memcli: long-term memory for AI agents as plain, reviewable Markdown."""

__version__ = "0.1.0"
