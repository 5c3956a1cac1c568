"""The write path: planning changes, locks, the crash-safe transaction and its history."""
