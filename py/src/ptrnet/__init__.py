"""Pointer Networks, live: exact geometry answers and small pointer models in numpy."""

__version__ = "0.1.0"


class MissingData(FileNotFoundError):
    """A data file the site ships separately and fetches on first use; the message is its path."""


class Unavailable(RuntimeError):
    """A data file the site ships separately that the page could not fetch this time (e.g. offline)."""
