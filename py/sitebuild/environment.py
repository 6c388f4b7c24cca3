"""The pinned Python environment, the npm packages and a Chromium for the tests."""

import json
import os
import shutil
import sys
import venv
from pathlib import Path

from sitebuild.config import PY_PROJECT, REQUIREMENTS, ROOT, VENV, VENV_PYTHON
from sitebuild.shell import BuildError, run, sha256

CHROMIUM_CANDIDATES = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"]


def ensure_venv(script: Path) -> None:
    """Create the pinned virtual environment once, then re-run `script` inside it."""
    stamp = VENV / "requirements.sha256"
    wanted = sha256(REQUIREMENTS) + sha256(PY_PROJECT / "pyproject.toml")
    if not (VENV_PYTHON.exists() and stamp.exists() and stamp.read_text() == wanted):
        print(f"Setting up the Python environment in {VENV.relative_to(ROOT)} …", flush=True)
        if not VENV_PYTHON.exists():
            venv.create(VENV, with_pip=True)
        pip = [VENV_PYTHON, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
        run(*pip, "-r", REQUIREMENTS)
        run(*pip, "--no-deps", "--no-build-isolation", "-e", PY_PROJECT)
        stamp.write_text(wanted)
    if Path(sys.prefix).resolve() != VENV.resolve():
        os.execv(VENV_PYTHON, [str(VENV_PYTHON), str(script.resolve()), *sys.argv[1:]])


def ensure_node_modules() -> None:
    """Install the exact npm packages of package-lock.json if they are missing or stale."""
    manifest = json.loads((ROOT / "package.json").read_text())
    wanted = {**manifest.get("dependencies", {}), **manifest.get("devDependencies", {})}
    installed = ROOT / "node_modules"
    if all(_installed_version(installed / name) == version for name, version in wanted.items()):
        return
    if not shutil.which("npm"):
        raise BuildError("npm was not found. Install Node.js 18+ with npm (Debian: apt-get install -y nodejs npm).")
    run("npm", "ci", "--no-audit", "--no-fund")


def _installed_version(package: Path) -> str | None:
    """The version of an installed npm package, or None."""
    manifest = package / "package.json"
    return json.loads(manifest.read_text())["version"] if manifest.exists() else None


def find_chromium() -> str:
    """A system Chromium/Chrome: $CHROMIUM_PATH, or the first one on PATH."""
    path = os.environ.get("CHROMIUM_PATH") or next(filter(None, map(shutil.which, CHROMIUM_CANDIDATES)), None)
    if not path or not Path(path).exists():
        raise BuildError(
            "no Chromium or Chrome found for the browser tests.\n"
            "  Debian/Ubuntu: sudo apt-get install -y chromium fonts-noto-cjk\n"
            "  or set CHROMIUM_PATH=/path/to/chrome"
        )
    return path
