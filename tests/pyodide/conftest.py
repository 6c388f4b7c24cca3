"""Pyodide tests run on dist/pyodide, whose wheel leaves the trained weights out: the page's worker
fetches them from dist/models/ when Python asks (ptrnet.MissingData). Tests that run the models
put them in place the same way first."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

import pytest

WRITE_MODELS = """
import base64
from importlib import resources
data = resources.files("ptrnet") / "data"
for name, text in {files!r}.items():
    (data / name).write_bytes(base64.b64decode(text))
"""


@pytest.fixture
def selenium_with_models(selenium: Any, request: pytest.FixtureRequest) -> Any:
    models = Path(request.config.getoption("--dist-dir")).parent / "models"
    files = {path.name: base64.b64encode(path.read_bytes()).decode() for path in sorted(models.glob("*.npz"))}
    assert files, f"no trained weights in {models}"
    selenium.load_package("ptrnet")
    selenium.run(WRITE_MODELS.format(files=files))
    return selenium
