"""Templates and slot values for the training corpus (see benchmarks/make_train_corpus.py)."""
