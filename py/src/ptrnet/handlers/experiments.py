"""The companion page's experiment runner: check a run's settings, measure a chunk of sets, sum up the sums. The main
article's figures that run it with fixed settings (experiments.sweeps) send the same requests."""

from collections.abc import Callable

from ptrnet import formats, manifest
from ptrnet.experiments import runner, sweeps
from ptrnet.handlers.base import INSTANCES, InputError, handler, int_param
from ptrnet.limits import HELD_KARP_MAX, MAX_POINTS_PER_SIZE, MAX_RUNNER_CHUNK, MAX_SEED, MAX_SETS, MAX_SIZES
from ptrnet.views import experiments as view

RUNNER_DEMOS = manifest.families()["experiments"]  # the runner and the article's figures that run it


def _fixed_run(f: Callable[[dict], dict], run: dict) -> Callable[[dict], dict]:
    """f with a figure's run (experiments.sweeps) over whatever settings the page sent."""

    def fixed(params: dict) -> dict:
        return f(params | run)

    return fixed


def _runner_request(fn: str, **declared):
    """Register the decorated function as the request fn of every demo that runs the runner; an article figure's
    requests run its fixed settings."""

    def register(f):
        for demo in RUNNER_DEMOS:
            handler(demo, fn, **declared)(_fixed_run(f, sweeps.settings(demo)) if demo in sweeps.SWEEPS else f)
        return f

    return register


def _model(params: dict) -> str:
    """params["model"] as one of the runner's models."""
    model = params.get("model")
    if model not in runner.MODELS:
        raise InputError(f"알 수 없는 모델입니다. 다음 가운데 하나를 고르세요: {', '.join(runner.MODELS)}")
    return model


def _decoding(params: dict, model: str) -> str:
    """params["decoding"]: greedy, or beam where the model offers it (and for the TSP, the paper's pick of the
    beam's tours)."""
    decoding = params.get("decoding", "greedy")
    if decoding not in runner.DECODINGS:
        names = ", ".join(f"{d}({label})" for d, (_, _, label) in runner.DECODINGS.items())
        raise InputError(f"디코딩은 다음 가운데 하나여야 합니다: {names}.")
    if decoding != "greedy" and not runner.MODELS[model].beam:
        raise InputError("이 모델은 탐욕 디코딩으로만 잽니다(빔 서치는 Ptr-Net에만 있습니다).")
    if decoding == "beam_probable" and runner.MODELS[model].task != "tsp":
        raise InputError(
            "확률이 가장 높은 순회를 고르는 빔 서치는 TSP 모델에만 있습니다. 다른 모델의 빔 서치는 원래 그렇게 고릅니다."
        )
    return decoding


def _sizes(params: dict, model: str) -> list[int]:
    """params["sizes"]: 1..MAX_SIZES distinct sizes the model is offered at."""
    sizes = params.get("sizes")
    if not isinstance(sizes, list) or not sizes or any(isinstance(n, bool) or not isinstance(n, int) for n in sizes):
        raise InputError("크기(n)는 쉼표로 나눈 정수 목록이어야 합니다. 예: 5,10,50")
    if len(sizes) > MAX_SIZES:
        raise InputError(f"크기는 한 번에 {MAX_SIZES}개까지 고를 수 있습니다.")
    offered = runner.offered_sizes(model)
    outside = [n for n in sizes if n not in offered]
    if outside:
        raise InputError(f"이 모델에 쓸 수 없는 크기입니다: {', '.join(map(str, outside))}. {_offer_text(offered)}")
    return sorted(set(sizes))


def _offer_text(offered: list[int]) -> str:
    """The sizes a model takes, in words."""
    run = [n for n in offered if n <= HELD_KARP_MAX or n > max(runner.REFERENCE_SIZES)]
    extra = [n for n in offered if n not in run]
    text = f"{run[0]}–{run[-1]}" if len(run) > 1 else str(run[0])
    return f"쓸 수 있는 크기: {text}" + (f", {', '.join(map(str, extra))}" if extra else "") + "."


def _settings(params: dict) -> dict:
    """A run's settings checked together: model, sizes, sets per size, decoding and seed."""
    model = _model(params)
    decoding = _decoding(params, model)
    sizes = _sizes(params, model)
    sets = int_param(params, "sets", runner.MODELS[model].sets, 1, MAX_SETS)
    seed = int_param(params, "seed", 1, 0, MAX_SEED)
    too_many = [n for n in sizes if sets * n > MAX_POINTS_PER_SIZE]
    if too_many:
        most = MAX_POINTS_PER_SIZE // max(too_many)
        limit = formats.count(MAX_POINTS_PER_SIZE)
        raise InputError(f"n = {max(too_many)}에서는 세트를 {most}개까지만 잴 수 있습니다(세트 수 × n ≤ {limit}).")
    references = [n for n in sizes if n > HELD_KARP_MAX]
    if runner.MODELS[model].task == "tsp" and references:
        if seed not in runner.REFERENCE_SEEDS:
            seeds = ", ".join(map(str, runner.REFERENCE_SEEDS))
            raise InputError(
                f"n > {HELD_KARP_MAX}의 기준 순회는 미리 LKH-3로 구해 둔 시드({seeds})에만 있습니다. 시드를 바꾸세요."
            )
        if sets > runner.REFERENCE_SETS:
            raise InputError(f"n > {HELD_KARP_MAX}의 기준 순회는 세트 {runner.REFERENCE_SETS}개까지만 있습니다.")
    return {"model": model, "sizes": sizes, "sets": sets, "decoding": decoding, "seed": seed}


def _weights(params: dict) -> tuple[str, ...]:
    """The files a measure request reads: the model's weights, and the LKH-3 tours above Held-Karp's sizes."""
    model = runner.MODELS.get(params.get("model"))
    if model is None or not model.weights:
        return ()
    n = params.get("n")
    tours = model.task == "tsp" and isinstance(n, int) and n > HELD_KARP_MAX
    return (model.weights, runner.REFERENCE_FILE) if tours else (model.weights,)


@_runner_request("plan")
def _plan(params: dict) -> dict:
    """The checked settings, each size's cost per set, an estimate of the whole run's seconds, and the paper's
    values with the table's heading (text.table)."""
    s = _settings(params)
    cost = {str(n): runner.cost(s["model"], n, s["decoding"]) for n in s["sizes"]}
    paper = runner.paper_rows(s["model"])
    return s | {
        "cost": cost,
        "estimate_seconds": runner.UNIT_SECONDS * s["sets"] * sum(cost.values()),
        "paper": paper,
        "text": {"table": view.table(s["model"], [], paper)},
    }


def _mine(params: dict, model: str) -> dict | None:
    """The reader's weights (the trainer demo instance params["mine"] names) where the run measures them."""
    if model != runner.MINE:
        return None
    reader = INSTANCES["ptrnet-trainer"].get(params.get("mine"))
    if reader is None:
        raise InputError(
            "이 페이지의 학습 데모에 아직 모델이 없습니다. 위의 ‘내 브라우저에서 Ptr-Net 학습시키기’부터 열어 주세요."
        )
    return reader.trainer.params


@_runner_request("measure", weights=_weights)
def _measure(params: dict) -> dict:
    """One chunk: the sums of sets start..start+count-1 of one size of the run, and its failures."""
    s = _settings(params)
    n = int_param(params, "n", s["sizes"][0], 1, 10_000)
    if n not in s["sizes"]:
        raise InputError(f"{formats.josa(f'n = {n}', '은')} 이 실험의 크기가 아닙니다.")
    start = int_param(params, "start", 0, 0, s["sets"] - 1)
    count = int_param(params, "count", 1, 1, MAX_RUNNER_CHUNK)
    count = min(count, s["sets"] - start)
    chunk = runner.measure(s["model"], n, s["seed"], start, count, s["decoding"], _mine(params, s["model"]))
    return chunk | {"failures": view.failures(s["model"], chunk["failures"])}


@_runner_request("summarize")
def _summarize(params: dict) -> dict:
    """The table rows (and the hull's collinearity chart) with their words, from each size's parts: the total the
    last summary gave back and the chunks' sums since, merged into the new totals the reply gives back (sums)."""
    model = _model(params)
    parts = params.get("sums")
    if not isinstance(parts, dict) or not all(
        isinstance(v, list) and v and all(isinstance(p, dict) for p in v) for v in parts.values()
    ):
        raise InputError("sums는 크기별 합계의 목록이어야 합니다.")
    try:
        totals = {int(n): runner.merged(v) for n, v in parts.items()}
        summed = view.summary(model, runner.summary(model, totals))
    except (KeyError, TypeError, ValueError, ZeroDivisionError) as err:
        raise InputError("측정 결과를 읽을 수 없습니다.") from err
    return summed | {"sums": {str(n): total for n, total in totals.items()}}
