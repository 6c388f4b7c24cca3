"""Pointer Networks, live: exact geometry answers and small pointer models in numpy."""

__version__ = "0.1.0"
