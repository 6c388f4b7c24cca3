"""What the browser worker calls: call(demo, fn, params) -> {ok, result | error}, plain JSON-ready values."""

from collections.abc import Sequence

import ptrnet
from ptrnet import handlers
from ptrnet.handlers import base
from ptrnet.handlers.base import InputError, handler, parse_points  # noqa: F401 — the API's names
from ptrnet.pointer import weights


def call(demo: str, fn: str, params: dict, unavailable: Sequence[str] = ()) -> dict:
    """What the worker calls: {"ok": True, "result": ...} or {"ok": False, "error": {kind, message, missing?}}.

    Errors cross to JS as these objects, never as traceback text. kind: "input" (a bad request, or weights
    the page could not fetch; the Korean message is for the reader), "missing" (files the site ships
    separately: `missing` lists every path the handler declares and the page lacks, before anything runs,
    so the worker fetches them all at once and calls again, naming in `unavailable` what it could not
    fetch), "module" (a stdlib module outside the site's zip: its name is `missing`), "python" (an
    unexpected exception).
    """
    try:
        if isinstance(demo, str):
            handlers.load(demo)  # registers its handlers and their weights
        with weights.unavailable(unavailable):
            needed = weights.missing(base.declared_weights(demo, fn, params)) if isinstance(params, dict) else []
            if needed:
                return _missing(needed)
            return {"ok": True, "result": dispatch(demo, fn, params)}
    except InputError as err:
        return {"ok": False, "error": {"kind": "input", "message": str(err)}}
    except ptrnet.Unavailable:
        return {
            "ok": False,
            "error": {
                "kind": "input",
                "message": "학습한 모델의 가중치를 내려받지 못했습니다. 네트워크 연결을 확인한 뒤 다시 시도해 주세요.",
            },
        }
    except ptrnet.MissingData as err:  # a file no declaration named: fetched all the same
        return _missing([str(err)])
    except ModuleNotFoundError as err:
        return {
            "ok": False,
            "error": {"kind": "module", "message": f"{err.name} 모듈이 없습니다.", "missing": err.name},
        }
    except Exception as err:  # noqa: BLE001 — every other failure is reported to the page, never raised into JS
        return {
            "ok": False,
            "error": {
                "kind": "python",
                "message": f"파이썬 계산 중 예상하지 못한 오류({type(err).__name__})가 났습니다: {err}",
            },
        }


def _missing(paths: list[str]) -> dict:
    """The reply that asks the worker to fetch these files and call again."""
    return {
        "ok": False,
        "error": {"kind": "missing", "message": "학습한 가중치를 아직 받지 않았습니다.", "missing": paths},
    }


def dispatch(demo: str, fn: str, params: dict) -> dict:
    """Run the handler registered for (demo, fn) on params, its family imported first."""
    if isinstance(demo, str):
        handlers.load(demo)
    if (demo, fn) not in base.HANDLERS:
        raise InputError(f"알 수 없는 요청입니다: {demo}/{fn}")
    if not isinstance(params, dict):
        raise InputError("요청 인자는 이름-값 객체여야 합니다.")
    if (demo, fn) in base.FAULTS:
        base.FAULTS.discard((demo, fn))
        raise RuntimeError(f"일부러 넣은 오류입니다 ({demo}/{fn}).")
    return base.HANDLERS[(demo, fn)](params)
