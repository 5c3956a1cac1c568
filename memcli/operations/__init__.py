"""The operation model, its checks, and the operations in a model's reply."""
