"""One module per transcript format (or family of formats written alike)."""
