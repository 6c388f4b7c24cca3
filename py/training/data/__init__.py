"""Data sets: the paper's test sets and our own, and LKH-3 TSP labels."""
