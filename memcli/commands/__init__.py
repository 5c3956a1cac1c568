"""What each command does: one module per command (`apply`, `extract`, `status`, `undo`…), or
one package for a command of many parts (`lint/`, `interop/`, `gitstore/`); every function
returns a value and never prints. The stores a command opens and commits to are
`memcli.writes.stores`; its output is drawn by `memcli.render`.
"""
