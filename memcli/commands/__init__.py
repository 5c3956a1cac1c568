"""What the store commands do (`apply`, `add`, `rm`, `show`, `context`, `index`), one module
each concept; every function returns a value and never prints.

- `stores`: which stores a --level means, opening them (locked, read), committing with history.
- `apply`: an operations document validated, planned and committed; `ApplyReport`.
- `lookup`: the notes a name means (`show`, `rm`), and the listing of `show`.
- `edit`: notes added and removed by hand (`add`, `rm`).
- `context`: the memory block for an agent's prompt.
- `reindex`: MEMORY.md rebuilt or checked (`index`).
"""
