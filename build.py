#!/usr/bin/env python3
"""Build, serve, test and benchmark the site: `python3 build.py [build|serve|test|bench|constants|lint]`.

The steps live in py/sitebuild/; this file names them and runs them in order.
"""

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "py"))

from sitebuild import bytecode, chrome, environment, heads, pages, predictions, pyodide_files, scripts, wheel  # noqa: E402
from sitebuild.config import CORE_FILES, DIST, NPM_PYODIDE, PYODIDE_VERSION, ROOT, SITE, TESTS  # noqa: E402
from sitebuild.server import make_server  # noqa: E402
from sitebuild.shell import run  # noqa: E402


def build(packages_dir: Path | None = None) -> None:
    """Produce dist/: pages, bundled scripts, the Pyodide core, verified wheels, our wheel, the lock."""
    environment.ensure_node_modules()
    pages.check_constants()
    lock = pyodide_files.official_lock()
    package_files = pyodide_files.verify_package_files(lock, pyodide_files.fetch_package_files(lock, packages_dir))
    shutil.rmtree(DIST, ignore_errors=True)
    shutil.copytree(SITE, DIST)
    chrome.write_pages(DIST)  # each page's frame, header and nav from one template, its demos' frames (ptrnet.manifest)
    heads.write_heads(DIST)
    pages.bundle_stylesheets(DIST / "css")
    our_wheel = wheel.split_off_models(wheel.build_wheel(), DIST / "models")
    pyodide_dir = DIST / "pyodide"
    pyodide_dir.mkdir()
    for name in CORE_FILES:
        shutil.copyfile(NPM_PYODIDE / name, pyodide_dir / name)
    shipped_wheels = [pyodide_dir / path.name for path in [*package_files, our_wheel]]
    for path in [*package_files, our_wheel]:
        shutil.copyfile(path, pyodide_dir / path.name)
    pyodide_files.write_lock(lock, our_wheel, pyodide_dir / "pyodide-lock.json")
    bytecode.precompile(pyodide_dir, shipped_wheels)  # after the official wheels were verified
    pyodide_files.refresh_hashes(pyodide_dir / "pyodide-lock.json")
    bytecode.check_imports(pyodide_dir)
    pages.copy_katex(DIST / "vendor" / "katex")
    scripts.bundle_scripts(DIST)  # after Pyodide's loader and KaTeX, which the bundles import, are in place
    pages.write_results_tables(DIST / "three-problems.html")
    pages.write_facts(DIST)  # every number about our models, from the results JSONs and model cards
    predictions.write_predictions(DIST)  # the article's guess-first questions, their answers computed now
    (DIST / ".nojekyll").write_text("")  # GitHub Pages: serve files as they are
    pages.write_service_worker()
    total = sum(p.stat().st_size for p in DIST.rglob("*") if p.is_file())
    shipped = ", ".join(p.name for p in package_files)
    print(
        f"Built {DIST.relative_to(ROOT)}/ ({total / 1e6:.1f} MB) with Pyodide {PYODIDE_VERSION}, {shipped} and {our_wheel.name}."
    )


def constants() -> None:
    """Regenerate the JS modules that Python writes: the page constants and the demo registries."""
    for path in pages.write_constants():
        print(f"Wrote {path.relative_to(ROOT)}")


def serve(port: int, prefix: str) -> None:
    """Serve dist/ locally until Ctrl+C."""
    server = make_server(DIST, port, prefix)
    print(
        f"Serving {DIST.relative_to(ROOT)}/ at http://127.0.0.1:{server.server_port}{prefix}  (Ctrl+C to stop)",
        flush=True,
    )
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


def lint() -> None:
    """Formatting and lint: ruff for Python, Biome for JavaScript."""
    fix = "\n  To fix what can be fixed: {}"
    run(sys.executable, "-m", "ruff", "format", "--check", ".", hint=fix.format("python -m ruff format ."))
    run(sys.executable, "-m", "ruff", "check", ".", hint=fix.format("python -m ruff check --fix ."))
    run(ROOT / "node_modules" / ".bin" / "biome", "ci", ".", hint=fix.format("npx biome check --write ."))


def test(pytest_args: list[str], fast: bool = False) -> None:
    """Lint, build, then run every test (CPython, inside Pyodide on node, in Chromium), or only those marked fast."""
    started = time.monotonic()
    chromium = environment.find_chromium()
    environment.ensure_node_modules()
    lint()
    build()
    env = {**os.environ, "CHROMIUM_PATH": chromium}
    command = [
        sys.executable,
        "-m",
        "pytest",
        str(TESTS),
        "--runtime",
        "node",
        "--dist-dir",
        str(DIST / "pyodide"),
        *(["-m", "fast"] if fast else []),
        *pytest_args,
    ]
    print("+", " ".join(command), flush=True)
    returncode = subprocess.run(command, cwd=ROOT, env=env).returncode
    minutes, seconds = divmod(round(time.monotonic() - started), 60)
    print(f"{'Fast subset' if fast else 'All tests'}, lint and build included: {minutes} min {seconds} s")
    sys.exit(returncode)


def bench() -> None:
    """Run every benchmark script; each prints its figures and ratios."""
    env = {**os.environ, "CHROMIUM_PATH": environment.find_chromium()}
    build()
    for script in sorted((TESTS / "bench").glob("bench_*.py")):
        run(sys.executable, script, env=env)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    commands = ["build", "serve", "test", "bench", "constants", "lint"]
    parser.add_argument("command", nargs="?", default="build", choices=commands)
    parser.add_argument("--packages-dir", type=Path, help="a folder with the official Pyodide 0.27.7 package wheels")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--prefix", default="/", help="serve the site under this sub-path, e.g. /pointer-networks/")
    parser.add_argument("--fast", action="store_true", help="test: only the tests marked fast (about 3 minutes)")
    args, rest = parser.parse_known_args()
    environment.ensure_venv(Path(__file__))
    if args.command == "build":
        build(args.packages_dir)
    elif args.command == "serve":
        build(args.packages_dir)
        serve(args.port, args.prefix)
    elif args.command == "test":
        test(rest, args.fast)
    elif args.command == "bench":
        bench()
    elif args.command == "constants":
        constants()
    else:
        environment.ensure_node_modules()
        lint()


if __name__ == "__main__":
    main()
