"""Transcript in, proposed operations out: the offline rules, the budget, the prompt, near-
duplicates."""
