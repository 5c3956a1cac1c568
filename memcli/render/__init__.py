"""All output: one module per command group, each with a typed function per result type.

`output` holds where a command prints (`Output`) and what the groups share; the JSON of
every `--json` is built here from the result objects and encoded by `memcli.json_values`.
"""
