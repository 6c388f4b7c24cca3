"""Offline tools: the PyTorch and numpy trainers, evaluation, results tables, data sets and training records."""
