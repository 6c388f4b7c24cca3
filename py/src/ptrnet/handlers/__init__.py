"""What the browser worker calls, one module per demo family; a family is imported on its first request, so a
page (or an embed) starts Python without the code of demos it does not show."""

import importlib

from ptrnet import manifest

FAMILIES = manifest.families()  # handler module -> the demos whose requests it registers


def load(demo: str) -> None:
    """Import the handler modules that register demo's requests (a no-op once they are, or for an unknown demo)."""
    for module, demos in FAMILIES.items():
        if demo in demos:
            importlib.import_module(f"ptrnet.handlers.{module}")
