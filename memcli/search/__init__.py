"""Full-text search and recall over the stores (see docs/recall.md)."""
