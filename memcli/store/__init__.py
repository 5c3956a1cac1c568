"""Reading a store: the folder, one note, MEMORY.md, file names, dates."""
