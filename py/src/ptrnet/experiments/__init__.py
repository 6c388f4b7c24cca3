"""The paper's experiments, run on fresh seeded point sets: the companion page's experiment runner."""
