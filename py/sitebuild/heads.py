"""The part of every page's <head> that all pages share (charset, viewport, the Content-Security-Policy, the icon),
written from one template in place of each page's placeholder."""

import re
from pathlib import Path

from sitebuild.shell import BuildError

# Same-origin everything; WebAssembly needs 'wasm-unsafe-eval'; the worker is a blob when embedded. A page that
# shows live embeds (the embed guide) also allows same-origin frames.
CSP = [
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "worker-src 'self' blob:",
    "connect-src 'self'",
    "img-src 'self' data: blob:",
    "style-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
]
FRAMES = "frame-src 'self'"
PLACEHOLDER = re.compile(r"<!-- ptrnet:head( frames)? -->")
TEMPLATE = """<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="{csp}">
<link rel="icon" href="favicon.svg" type="image/svg+xml">"""


def shared_head(frames: bool = False) -> str:
    """The shared head lines, with frames allowed where a page embeds demos."""
    rules = CSP[:7] + ([FRAMES] if frames else []) + CSP[7:]
    return TEMPLATE.format(csp="; ".join(rules))


def write_heads(dist: Path) -> None:
    """Fill every page's head placeholder; a page without exactly one stops the build."""
    for page in sorted(dist.glob("*.html")):
        html = page.read_text(encoding="utf-8")
        if len(PLACEHOLDER.findall(html)) != 1:
            raise BuildError(f"{page.name}: needs exactly one <!-- ptrnet:head --> in its <head>.")
        page.write_text(PLACEHOLDER.sub(lambda m: shared_head(bool(m.group(1))), html), encoding="utf-8")
