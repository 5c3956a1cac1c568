"""Stores in git: the MEMORY.md merge driver, its wiring, and syncing a user store.

git is the distributed engine: a team shares the project store through the repository, a
person's machines share the user store through a remote. memcli only makes the one file
that always conflicts (the index, which every branch that adds a note rewrites) merge
without conflicts, and keeps both versions of a note changed on two machines.
"""
