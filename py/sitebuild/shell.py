"""Running commands, hashing files and failing with a message."""

import hashlib
import subprocess
from pathlib import Path

from sitebuild.config import ROOT


class BuildError(SystemExit):
    """A build failure with a message for the maintainer."""

    def __init__(self, message: str):
        super().__init__(f"\nbuild.py: error: {message}\n")


def run(*command: str | Path, hint: str = "", **kwargs) -> None:
    """Echo a command, run it from the repository root (or cwd=), and stop the build if it fails."""
    print("+", " ".join(str(c) for c in command), flush=True)
    returncode = subprocess.run([str(c) for c in command], cwd=kwargs.pop("cwd", ROOT), **kwargs).returncode
    if returncode:
        raise BuildError(f"`{' '.join(str(c) for c in command)}` failed (exit status {returncode}).{hint}")


def sha256(path: Path) -> str:
    """The hex sha256 of a file."""
    return hashlib.sha256(path.read_bytes()).hexdigest()
