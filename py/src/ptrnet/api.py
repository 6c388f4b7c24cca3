"""What the browser worker calls: dispatch(demo, fn, params) -> plain, JSON-ready Python values."""

import importlib
import math
import re
from collections.abc import Callable, Sequence

import numpy as np

import ptrnet
from ptrnet import explain, sorter, weights
from ptrnet.notation import delaunay_sequence, hull_sequence, tsp_sequence
from ptrnet.tsp import tour_length

MAX_TSP_POINTS = 12  # Held-Karp runs live on every drag
MIN_MODEL_POINTS = 3  # demos 1 and 4 and the companion page: fewer points have no hull, triangle or tour
MAX_CHUNK = 500  # training iterations per request, so pause and reset are honoured quickly
TEST_LENGTHS = (2, 50)  # demo 5's test-length slider and demo 6's lengths
MAX_SEED = 2**31 - 1
MAX_INSTANCE_ID = 64  # characters of a demo element's id

Handler = Callable[[dict], dict]
HANDLERS: dict[tuple[str, str], Handler] = {}


class InputError(ValueError):
    """A request the page should not have sent; the message is Korean and shown to the reader."""


def handler(demo: str, fn: str) -> Callable[[Handler], Handler]:
    """Register the decorated function as the handler of (demo, fn)."""

    def register(f: Handler) -> Handler:
        HANDLERS[(demo, fn)] = f
        return f

    return register


_FAULTS: set[tuple[str, str]] = set()  # requests that fail once, on purpose (fault-injection tests)


def call(demo: str, fn: str, params: dict, unavailable: Sequence[str] = ()) -> dict:
    """What the worker calls: {"ok": True, "result": ...} or {"ok": False, "error": {kind, message, missing?}}.

    Errors cross to JS as these objects, never as traceback text. kind: "input" (a bad request, or weights
    the page could not fetch; the Korean message is for the reader), "missing" (a file the site ships
    separately: its path is `missing`, the worker fetches it and calls again, naming in `unavailable` what
    it could not fetch), "module" (a stdlib module outside the site's zip: its name is `missing`),
    "python" (an unexpected exception).
    """
    try:
        with weights.unavailable(unavailable):
            return {"ok": True, "result": dispatch(demo, fn, params)}
    except InputError as err:
        return {"ok": False, "error": {"kind": "input", "message": str(err)}}
    except ptrnet.Unavailable:
        return {"ok": False, "error": {"kind": "input", "message": "학습한 모델의 가중치를 내려받지 못했습니다. "
                                                                  "네트워크 연결을 확인한 뒤 다시 시도해 주세요."}}
    except ptrnet.MissingData as err:
        return {"ok": False, "error": {"kind": "missing", "message": "학습한 가중치를 아직 받지 않았습니다.",
                                       "missing": str(err)}}
    except ModuleNotFoundError as err:
        return {"ok": False, "error": {"kind": "module", "message": f"{err.name} 모듈이 없습니다.", "missing": err.name}}
    except Exception as err:  # noqa: BLE001 — every other failure is reported to the page, never raised into JS
        return {"ok": False, "error": {"kind": "python",
                                       "message": f"파이썬 계산 중 예상하지 못한 오류({type(err).__name__})가 났습니다: {err}"}}


def dispatch(demo: str, fn: str, params: dict) -> dict:
    """Run the handler registered for (demo, fn) on params."""
    if (demo, fn) not in HANDLERS:
        raise InputError(f"알 수 없는 요청입니다: {demo}/{fn}")
    if not isinstance(params, dict):
        raise InputError("요청 인자는 이름-값 객체여야 합니다.")
    if (demo, fn) in _FAULTS:
        _FAULTS.discard((demo, fn))
        raise RuntimeError(f"일부러 넣은 오류입니다 ({demo}/{fn}).")
    return HANDLERS[(demo, fn)](params)


def parse_points(params: dict) -> list[list[float]]:
    """params["points"] checked as a list of [x, y] finite numbers in [0, 1]."""
    points = params.get("points")
    if not isinstance(points, (list, tuple)):
        raise InputError("점 목록(points)이 필요합니다: [[x, y], ...] 형태의 목록을 보내 주세요.")
    parsed = []
    for p in points:
        if not isinstance(p, (list, tuple)) or len(p) != 2:
            raise InputError("각 점은 [x, y] 두 수로 이루어져야 합니다.")
        if not all(_is_unit_number(v) for v in p):
            raise InputError("점 좌표는 0과 1 사이의 유한한 수여야 합니다.")
        parsed.append([float(p[0]), float(p[1])])
    return parsed


def _is_unit_number(v: object) -> bool:
    """Whether v is a real number (not a bool) that is finite and within [0, 1]."""
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and 0.0 <= v <= 1.0


def _tsp_points(params: dict) -> list[list[float]]:
    """The checked points of a request that runs Held-Karp, so at most MAX_TSP_POINTS of them."""
    points = parse_points(params)
    if len(points) > MAX_TSP_POINTS:
        raise InputError(f"외판원 문제는 점 {MAX_TSP_POINTS}개까지만 실시간으로 풉니다.")
    return points


def _hull_and_tour(points: list[list[float]]) -> dict:
    """Hull and optimal tour in the canonical notation, plus the tour's length."""
    tsp = tsp_sequence(points)
    return {"hull": hull_sequence(points), "tsp": tsp, "tsp_length": tour_length(points, [i - 1 for i in tsp[:-1]])}


@handler("sequences", "solve")
def _sequences(params: dict) -> dict:
    """Convex hull and optimal tour of up to 12 points."""
    return _hull_and_tour(_tsp_points(params))


@handler("three-problems", "solve")
def _three_problems(params: dict) -> dict:
    """The paper's three problems on up to 12 points: exact answers and our trained Ptr-Nets' answers."""
    from ptrnet import trained

    points = _tsp_points(params)
    exact = {**_hull_and_tour(points), "delaunay": delaunay_sequence(points)}
    return {"points": points, **exact} | trained.three_models(points, exact)


@handler("runtime", "inject_fault")
def _inject_fault(params: dict) -> dict:
    """Make the next request to (demo, fn) raise an unexpected Python error, to test recovery."""
    target = (params.get("demo"), params.get("fn"))
    if not all(isinstance(v, str) for v in target) or target not in HANDLERS:
        raise InputError(f"알 수 없는 요청입니다: {target[0]}/{target[1]}")
    _FAULTS.add(target)
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


# --- demos 5 and 6: one sorter per demo instance (demo 6 names the demo 5 whose model it evaluates)

_TRAINERS: dict[str, sorter.Trainer] = {}


def _int(params: dict, name: str, default: int, low: int, high: int) -> int:
    """params[name] as an int within [low, high], or a Korean InputError."""
    v = params.get(name, default)
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v != int(v):
        raise InputError(f"{name} 값은 정수여야 합니다.")
    if not low <= v <= high:
        raise InputError(f"{name} 값은 {low}부터 {high} 사이여야 합니다.")
    return int(v)


def _bool(params: dict, name: str, default: bool) -> bool:
    """params[name] as a bool; anything else (the string "false", 0, 1) is a Korean InputError, not coerced."""
    v = params.get(name, default)
    if not isinstance(v, bool):
        raise InputError(f"{name} 값은 참(true) 또는 거짓(false)이어야 합니다.")
    return v


def _instance(params: dict) -> str:
    """The demo element a stateful request belongs to: each element keeps its own model in the worker."""
    v = params.get("instance", "main")
    if not isinstance(v, str) or not 0 < len(v) <= MAX_INSTANCE_ID:
        raise InputError(f"instance 값은 1–{MAX_INSTANCE_ID}자의 문자열이어야 합니다.")
    return v


def _trainer(params: dict) -> sorter.Trainer:
    """The sorter of the request's instance, created with the default settings on first use."""
    name = _instance(params)
    if name not in _TRAINERS:
        _TRAINERS[name] = sorter.Trainer()
    return _TRAINERS[name]


def _summary(t: sorter.Trainer) -> dict:
    """What demo 5 shows besides the heat map."""
    acc = None if t.diverged else sorter.accuracy(t.params, n=10, mask=t.config.mask)
    return {"iteration": t.iteration, "loss": t.loss_avg, "accuracy10": acc, "mask": t.config.mask,
            "seed": t.config.seed, "diverged": t.diverged}


@handler("sort-trainer", "reset")
def _sort_reset(params: dict) -> dict:
    """Re-initialise the model from a seed, with the mask setting given."""
    t = _trainer(params)
    t.set_mask(_bool(params, "mask", t.config.mask))
    t.reset(_int(params, "seed", t.config.seed, 0, MAX_SEED))
    return _summary(t)


@handler("sort-trainer", "train")
def _sort_train(params: dict) -> dict:
    """Run a chunk of training iterations; returns the chunk's losses and the new summary."""
    t = _trainer(params)
    chunk = t.train(_int(params, "iterations", 25, 1, MAX_CHUNK))
    return {**_summary(t), "losses": [float(v) for v in chunk["losses"]], "start": t.iteration - len(chunk["losses"])}


@handler("sort-trainer", "snapshot")
def _sort_snapshot(params: dict) -> dict:
    """The whole training state, so the page can restore it into a restarted worker."""
    return _trainer(params).snapshot()


@handler("sort-trainer", "restore")
def _sort_restore(params: dict) -> dict:
    """Continue from a snapshot taken earlier (e.g. before the worker was restarted)."""
    t = _trainer(params)
    try:
        t.restore(params["snapshot"])
    except (KeyError, TypeError, ValueError) as err:
        raise InputError("저장해 둔 학습 상태를 읽을 수 없습니다.") from err
    return _summary(t)


@handler("sort-trainer", "set_mask")
def _sort_set_mask(params: dict) -> dict:
    """Switch the mask for decoding and further training, keeping the weights."""
    t = _trainer(params)
    t.set_mask(_bool(params, "mask", True))
    return _summary(t)


@handler("sort-trainer", "view")
def _sort_view(params: dict) -> dict:
    """The heat map of one test sequence (drawn from sample_seed) of the given length."""
    t = _trainer(params)
    n = _int(params, "length", 8, *TEST_LENGTHS)
    rng = np.random.default_rng(_int(params, "sample_seed", 0, 0, MAX_SEED))
    x = [round(float(v), 2) for v in rng.random(n)]
    return {**_summary(t), "heatmap": sorter.heatmap(t.params, x, t.config.mask)}


@handler("length-eval", "evaluate")
def _length_eval(params: dict) -> dict:
    """Sequence accuracy, per-position accuracy and invalid rate of the shared model per length."""
    t = _trainer(params)
    lengths = params.get("lengths")
    if not isinstance(lengths, list) or not lengths:
        raise InputError("평가할 길이 목록(lengths)이 필요합니다.")
    checked = [_int({"length": n}, "length", 0, *TEST_LENGTHS) for n in lengths]
    count = _int(params, "count", 150, 1, 1000)
    seed = _int(params, "seed", sorter.EVAL_SEED, 0, MAX_SEED)
    result = sorter.evaluate(t.params, checked, count=count, mask=t.config.mask, seed=seed)
    return {**{k: [float(v) for v in result[k]] for k in ("seq_acc", "pos_acc", "invalid")},
            "lengths": checked, "mask": t.config.mask, "iteration": t.iteration}


# --- demos 1, 3, 4 and 7: the explanation demos; their maths lives in ptrnet.explain


def _is_finite_number(v: object) -> bool:
    """Whether v is a real number (not a bool) that is finite."""
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


@handler("slots", "solve")
def _slots(params: dict) -> dict:
    """n random points, their hull, and the output slots of a seq2seq trained at n = 5 against the Ptr-Net's n + 1."""
    n = _int(params, "n", 7, 3, 12)
    points = explain.random_points(n, _int(params, "seed", 1, 0, MAX_SEED))
    hull = hull_sequence(points)
    return {"points": points, "hull": hull, **explain.slot_counts(hull, n), "real": _real_outputs(points)}


@handler("mix-vs-point", "solve")
def _mix_vs_point(params: dict) -> dict:
    """Dot-product attention of the decoder vector d (clamped to length 8) over the five fixed encoder states."""
    d = params.get("d", [1.0, 0.5])
    if not isinstance(d, (list, tuple)) or len(d) != 2 or not all(_is_finite_number(v) for v in d):
        raise InputError("디코더 벡터 d는 유한한 두 수 [dx, dy]여야 합니다.")
    return explain.attention(explain.ENCODERS, explain.clamp_length(d))


@handler("hull-steps", "solve")
def _hull_steps(params: dict) -> dict:
    """One step of decoding the 7-point example's hull, with or without the mask (illustrative probabilities)."""
    step = _int(params, "step", 1, 1, explain.HULL_STEPS)
    mask = _bool(params, "mask", False)
    return {"points": explain.HULL_EXAMPLE, "step": step, **explain.hull_step(step, mask), "illustrative": True}


@handler("pointer-generator", "solve")
def _pointer_generator(params: dict) -> dict:
    """Generate or copy: the final word distribution of the illustrative example at p_gen."""
    p_gen = params.get("p_gen", 0.3)
    if not _is_unit_number(p_gen):
        raise InputError("p_gen 값은 0과 1 사이의 유한한 수여야 합니다.")
    ex = explain.pointer_generator_example()
    mix = explain.mix_pointer_generator(float(p_gen), ex["vocab"], ex["attention"], ex["source"])
    oov = [w not in ex["vocab"] for w in ex["source"]]
    return {**ex, "oov": oov, **mix, "p_gen": float(p_gen), "illustrative": True}


# --- demos 1 and 4 with the trained LSTM models: ptrnet.trained, weights in data/hull_*.npz

MAX_REAL_POINTS = 12  # the trained models run live on every drag


def _real_points(params: dict, low: int) -> list[list[float]]:
    """The checked points of a request to the trained models: low..MAX_REAL_POINTS of them."""
    points = parse_points(params)
    if not low <= len(points) <= MAX_REAL_POINTS:
        raise InputError(f"학습된 모델에는 점을 {low}개부터 {MAX_REAL_POINTS}개까지 보낼 수 있습니다.")
    return points


@handler("hull-steps", "real")
def _hull_steps_real(params: dict) -> dict:
    """The trained Ptr-Net decoding the points' hull greedily, every step's [P1..Pn, ⇐] probabilities."""
    from ptrnet import trained

    points = _real_points(params, MIN_MODEL_POINTS)
    mask = _bool(params, "mask", False)
    return {"points": points, "mask": mask, **trained.hull_steps(points, mask), "hull": hull_sequence(points),
            "model": trained.summary("hull")}


@handler("slots", "real")
def _slots_real(params: dict) -> dict:
    """Greedy outputs of the trained Ptr-Net and (at n = 5) of the seq2seq baseline, next to the true hull."""
    points = _real_points(params, MIN_MODEL_POINTS)
    return {"points": points, "hull": hull_sequence(points), **_real_outputs(points)}


def _real_outputs(points: list[list[float]]) -> dict:
    """What the trained Ptr-Net and (only at n = 5) the seq2seq baseline answer for the points."""
    from ptrnet import trained
    from ptrnet.lstm_ptr import S2S_N

    n = len(points)
    s2s = trained.seq2seq_tokens(points) if n == S2S_N else None
    reason = None if s2s is not None else f"seq2seq 기준 모델은 점 {S2S_N}개로만 학습되어 n = {n}에서는 답할 수 없습니다."
    return {"ptrnet": trained.hull_steps(points, False)["output"], "seq2seq": s2s, "seq2seq_reason": reason,
            "model": trained.summary("hull")}


# --- prelude demos (issue 7): ptrnet.lm (one LSTM LM generation step) and ptrnet.nplm (Bengio et al. 2003)


@handler("lm-shapes", "step")
def _lm_step(params: dict) -> dict:
    """One generation step of the small LSTM LM after the given prefix, every tensor with its shape."""
    from ptrnet import lm

    vocab, _ = lm.load()
    tokens = params.get("tokens")
    if not isinstance(tokens, list) or not 1 <= len(tokens) <= lm.MAX_TOKENS:
        raise InputError(f"tokens는 단어 번호 1개부터 {lm.MAX_TOKENS}개까지의 목록이어야 합니다.")
    ids = [_int({"tokens": t}, "tokens", 0, 0, len(vocab) - 1) for t in tokens]
    if vocab[ids[0]] != lm.BOS:
        raise InputError(f"tokens의 첫 단어는 {lm.BOS}(번호 {vocab.index(lm.BOS)})여야 합니다.")
    mode = params.get("mode", "sample")
    if mode not in ("sample", "greedy"):
        raise InputError("mode 값은 \"sample\" 또는 \"greedy\"여야 합니다.")
    temperature = params.get("temperature", 1.0)
    if not _is_finite_number(temperature) or not 0.1 <= temperature <= 3.0:
        raise InputError("temperature 값은 0.1부터 3 사이의 수여야 합니다.")
    seed = _int(params, "seed", 0, 0, MAX_SEED)
    return lm.generation_step(ids, mode == "greedy", float(temperature), seed)


@handler("nplm", "reset")
def _nplm_reset(params: dict) -> dict:
    """Re-initialise the NPLM from a seed, with or without the direct connection W."""
    from ptrnet import nplm

    t = _nplm(params)
    t.reset(_int(params, "seed", t.config.seed, 0, MAX_SEED), _bool(params, "direct", t.config.direct))
    return nplm.summary(t)


@handler("nplm", "train")
def _nplm_train(params: dict) -> dict:
    """Run a chunk of SGD steps and return the new summary."""
    from ptrnet import nplm

    t = _nplm(params)
    t.train(_int(params, "iterations", 200, 1, 2000))
    return nplm.summary(t)


@handler("nplm", "view")
def _nplm_view(params: dict) -> dict:
    """The current summary: perplexities, word vectors and the unseen sentence's probability."""
    from ptrnet import nplm

    return nplm.summary(_nplm(params))


@handler("nplm", "snapshot")
def _nplm_snapshot(params: dict) -> dict:
    """The NPLM's whole training state, so the page can restore it into a restarted worker."""
    return _nplm(params).snapshot()


@handler("nplm", "restore")
def _nplm_restore(params: dict) -> dict:
    """Continue from a snapshot taken earlier."""
    from ptrnet import nplm

    t = _nplm(params)
    try:
        t.restore(params["snapshot"])
    except (KeyError, TypeError, ValueError) as err:
        raise InputError("저장해 둔 학습 상태를 읽을 수 없습니다.") from err
    return nplm.summary(t)


_NPLMS: dict = {}  # instance -> nplm.Trainer


def _nplm(params: dict):  # noqa: ANN202 — nplm is imported lazily (it loads its corpus)
    """The NPLM of the request's instance, created on first use."""
    from ptrnet import nplm

    name = _instance(params)
    if name not in _NPLMS:
        _NPLMS[name] = nplm.Trainer()
    return _NPLMS[name]


@handler("runtime", "free")
def _free(params: dict) -> dict:
    """Forget the models of a demo element that left the page."""
    name = _instance(params)
    return {"freed": [kind for kind, table in (("sorter", _TRAINERS), ("nplm", _NPLMS)) if table.pop(name, None)]}
