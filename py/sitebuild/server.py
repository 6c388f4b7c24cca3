"""A local static server for dist/, as GitHub Pages serves it."""

import functools
import http.server
import os
from pathlib import Path


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Static files with the MIME types Pyodide needs, optionally under a sub-path."""

    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".mjs": "text/javascript",
        ".js": "text/javascript",
        ".wasm": "application/wasm",
        ".json": "application/json",
    }
    prefix = "/"

    def translate_path(self, path: str) -> str:
        if not path.startswith(self.prefix):
            return str(Path(self.directory) / "__not_found__")
        return super().translate_path("/" + path[len(self.prefix) :])

    def end_headers(self) -> None:
        # As GitHub Pages does: other sites may embed our demos (module scripts, the worker).
        self.send_header("Access-Control-Allow-Origin", "*")
        super().end_headers()

    def log_message(self, format: str, *args) -> None:
        if os.environ.get("SITE_LOG"):
            super().log_message(format, *args)


def make_server(
    directory: Path, port: int = 0, prefix: str = "/", handler: type[SiteHandler] = SiteHandler
) -> http.server.ThreadingHTTPServer:
    """A local server for `directory` (port 0 picks a free one); the site lives under `prefix`. Tests pass a
    subclass of SiteHandler as `handler`."""
    served = type("Handler", (handler,), {"prefix": prefix})
    return http.server.ThreadingHTTPServer(("127.0.0.1", port), functools.partial(served, directory=str(directory)))
