"""The runtime's own requests: versions, freeing a demo instance, fault injection, importing a module."""

import importlib
import re

import numpy as np

import ptrnet
from ptrnet import handlers
from ptrnet.handlers.base import FAULTS, HANDLERS, INSTANCES, InputError, handler, instance_param


@handler("runtime", "inject_fault")
def _inject_fault(params: dict) -> dict:
    """Make the next request to (demo, fn) raise an unexpected Python error, to test recovery."""
    target = (params.get("demo"), params.get("fn"))
    if isinstance(target[0], str):
        handlers.load(target[0])
    if not all(isinstance(v, str) for v in target) or target not in HANDLERS:
        raise InputError(f"알 수 없는 요청입니다: {target[0]}/{target[1]}")
    FAULTS.add(target)
    return {"armed": list(target)}


@handler("runtime", "import_module")
def _import_module(params: dict) -> dict:
    """Import a module by name and say where it came from: checks that the site can still load
    stdlib modules left out of its precompiled subset (the worker then fetches the rest)."""
    name = params.get("name")
    if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z_][\w.]*", name):
        raise InputError("모듈 이름(name)은 파이썬 모듈 이름이어야 합니다.")
    module = importlib.import_module(name)
    return {"name": name, "file": str(getattr(module, "__file__", ""))}


@handler("runtime", "ping")
def _ping(params: dict) -> dict:
    """Versions of the numpy and ptrnet the runtime has loaded."""
    return {"numpy": np.__version__, "ptrnet": ptrnet.__version__}


@handler("runtime", "free")
def _free(params: dict) -> dict:
    """Forget the models of a demo element that left the page."""
    name = instance_param(params)
    return {"freed": [kind for kind, table in INSTANCES.items() if table.pop(name, None)]}
