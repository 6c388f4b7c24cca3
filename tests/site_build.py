"""build.py imported under another name (`build` is the wheel builder's module name)."""

import importlib.util
from pathlib import Path

_PATH = Path(__file__).resolve().parents[1] / "build.py"
_spec = importlib.util.spec_from_file_location("site_build_script", _PATH)
site_build = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(site_build)
