"""The site's JavaScript modules (site/js/, embed.js) joined by esbuild into a few files.

Start-up is CPU-bound on a small machine, and each module costs a request (through the service worker on a
repeat visit) and a module record of its own: the article asked for 66 scripts, and now asks for 23.
The sources stay one small module per concern; the output is not minified, so what ships reads like them.
"""

import json
import re
import shutil
import tempfile
from pathlib import Path

from sitebuild.config import ROOT, SITE
from sitebuild.shell import BuildError, run

ESBUILD = ROOT / "node_modules" / ".bin" / "esbuild"
# Entry points besides each page's module script: the script other sites embed, the two workers (made with
# `new URL(…, import.meta.url)`, which esbuild leaves alone), the worker's fast start (imported when the worker
# runs, so that it finds its helper worker from its own folder) and the page's runtime, which scripts on our pages
# (and the tests) reach as the same one module.
OTHER_ENTRIES = [
    "embed.js",
    "js/runtime/worker.js",
    "js/runtime/fast-start/index.js",
    "js/runtime/fast-start/wheel-worker.js",
    "js/runtime/client.js",
]
# Code shared by several entries goes beside the runtime's modules: client.js, shared by every page, finds the
# worker from its own address. _check_own_addresses stops the build where such a module would land elsewhere.
CHUNK_NAMES = "js/runtime/[name]-[hash]"
EXTERNAL = ["*/pyodide/pyodide.mjs", "*/vendor/katex/katex.min.mjs"]  # shipped as they are, files of their own
PAGE_MODULE = re.compile(r'<script\b[^>]*\btype="module"[^>]*>')
SOURCE = re.compile(r'\bsrc="([^"]+)"')
# Addresses a module resolves against its own: imports, dynamic imports, and new URL(…, import.meta.url).
ADDRESS = re.compile(
    r"""(?:\bfrom\s*|\bimport\s*\(?\s*)["'](\.{1,2}/[^"']*)["']|new URL\(\s*["'](\.{0,2}/?[^"']*)["'],\s*import\.meta\.url"""
)


def bundle_scripts(dist: Path) -> list[Path]:
    """Replace dist/'s modules (js/ and embed.js; sw.js and embed-host.js are classic scripts) by esbuild's
    bundles of site/'s: one file per entry, plus chunks of the code that several share."""
    entries = sorted({*page_entries(dist), *OTHER_ENTRIES})
    shutil.rmtree(dist / "js")
    (dist / "embed.js").unlink()
    with tempfile.TemporaryDirectory() as scratch:
        metafile = Path(scratch) / "meta.json"
        run(
            ESBUILD,
            *(SITE / entry for entry in entries),
            "--bundle",
            "--splitting",
            "--format=esm",
            "--charset=utf8",  # Korean text as it is written, not as \u escapes
            f"--outdir={dist}",
            f"--outbase={SITE}",
            f"--chunk-names={CHUNK_NAMES}",
            *(f"--external:{pattern}" for pattern in EXTERNAL),
            f"--metafile={metafile}",
            "--log-level=warning",
        )
        meta = json.loads(metafile.read_text())
    outputs = [(ROOT / name).resolve() for name in meta["outputs"]]
    _check_own_addresses(meta, dist)
    _check_addresses(dist, outputs)
    return outputs


def page_entries(dist: Path) -> list[str]:
    """The module script of every page, relative to the site."""
    tags = [
        tag for page in sorted(dist.glob("*.html")) for tag in PAGE_MODULE.findall(page.read_text(encoding="utf-8"))
    ]
    return [src for tag in tags for src in SOURCE.findall(tag)]


def _check_own_addresses(meta: dict, dist: Path) -> None:
    """A module that resolves addresses against its own must land in its own folder."""
    for output, info in meta["outputs"].items():
        folder = (ROOT / output).resolve().parent.relative_to(dist.resolve())
        for source, part in info["inputs"].items():
            path = (ROOT / source).resolve()
            moved = part["bytesInOutput"] and path.is_relative_to(SITE) and path.parent.relative_to(SITE) != folder
            if moved and "import.meta.url" in path.read_text(encoding="utf-8"):
                raise BuildError(f"{source} finds files from its own address, but esbuild put it in {output}.")


def _check_addresses(dist: Path, outputs: list[Path]) -> None:
    """Every address a bundle resolves against its own is a file (or folder) of dist/."""
    for output in outputs:
        for found in ADDRESS.findall(output.read_text(encoding="utf-8")):
            target = (output.parent / next(filter(None, found))).resolve()
            if not (target.is_relative_to(dist.resolve()) and target.exists()):
                raise BuildError(f"{output.relative_to(dist.resolve())} asks for {target}, which the built site lacks.")
