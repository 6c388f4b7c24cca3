"""The build's parts (py/sitebuild) for tests and benchmarks, which run from the repository root."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "py"))

from sitebuild import bytecode, config, environment, pages, pyodide_files, scripts, server, wheel  # noqa: E402

__all__ = ["bytecode", "config", "environment", "pages", "pyodide_files", "scripts", "server", "wheel"]
