"""The worker's entry point: spec answers through dispatch, Korean input errors, plain JSON-ready results."""

import json
import re

import numpy as np
import pytest

import ptrnet
from ptrnet import api, sorter
from ptrnet.api import InputError, dispatch, handler

HANGUL = re.compile("[가-힣]")


def assert_plain(value) -> None:
    """Only built-in JSON types all the way down (no numpy scalars or arrays)."""
    if isinstance(value, dict):
        assert all(type(k) is str for k in value)
        for v in value.values():
            assert_plain(v)
    elif isinstance(value, list):
        for v in value:
            assert_plain(v)
    else:
        assert type(value) in (int, float, str, bool), type(value)


def test_sequences_solve_gives_the_reference_answers(reference):
    out = dispatch("sequences", "solve", {"points": reference["points"]})
    assert set(out) == {"hull", "tsp", "tsp_length"}
    assert out["hull"] == reference["hull"] and out["tsp"] == reference["tsp"]
    assert out["tsp_length"] == pytest.approx(reference["tsp_length"], abs=5e-5)
    assert_plain(out)
    assert json.loads(json.dumps(out)) == out


def test_three_problems_solve_gives_the_reference_answers(reference):
    out = dispatch("three-problems", "solve", {"points": reference["points"]})
    assert {"points", "hull", "tsp", "tsp_length", "delaunay", "model_hull", "baselines"} <= set(out)
    assert out["hull"] == reference["hull"] and out["tsp"] == reference["tsp"]
    assert out["delaunay"] == reference["delaunay"]
    assert out["tsp_length"] == pytest.approx(reference["tsp_length"], abs=5e-5)
    assert_plain(out)
    assert json.loads(json.dumps(out)) == out


def test_runtime_ping_reports_versions():
    out = dispatch("runtime", "ping", {})
    assert out == {"numpy": "2.0.2", "ptrnet": ptrnet.__version__}
    assert np.__version__ == "2.0.2"


@pytest.mark.parametrize("points", [[], [[0.5, 0.5]], [[0, 0], [1, 1]], [[0.2, 0.2]] * 4, [[0, 0], [0.5, 0.5], [1, 1]]])
def test_degenerate_points_are_answered_not_rejected(points):
    out = dispatch("three-problems", "solve", {"points": points})
    assert_plain(out)
    assert out["delaunay"] == []


def test_twelve_random_points_are_answered():
    points = np.random.default_rng(12).random((12, 2)).tolist()
    out = dispatch("three-problems", "solve", {"points": points})
    assert len(out["tsp"]) == 13 and out["tsp_length"] > 0
    assert_plain(out)


def assert_korean_error(demo, fn, params, fragment) -> None:
    """dispatch raises InputError whose message is Korean and contains fragment."""
    with pytest.raises(InputError) as err:
        dispatch(demo, fn, params)
    assert HANGUL.search(str(err.value)) and fragment in str(err.value)


@pytest.mark.parametrize("demo, fn", [("sequences", "train"), ("nope", "solve"), ("runtime", "")])
def test_unknown_requests_are_rejected(demo, fn):
    assert_korean_error(demo, fn, {}, "알 수 없는 요청입니다")


@pytest.mark.parametrize(
    "points",
    [
        [[0.5, float("nan")]],
        [[float("inf"), 0.5]],
        [[-0.01, 0.5]],
        [[0.5, 1.0001]],
        [["0.5", 0.5]],
        [[True, 0.5]],
        [[None, 0.5]],
    ],
)
def test_bad_coordinates_are_rejected_in_korean(points):
    assert_korean_error("sequences", "solve", {"points": points}, "0과 1 사이의 유한한 수")


@pytest.mark.parametrize("points", [[[0.5]], [[0.1, 0.2, 0.3]], [0.5, 0.5], ["ab"]])
def test_malformed_points_are_rejected_in_korean(points):
    assert_korean_error("three-problems", "solve", {"points": points}, "[x, y]")


@pytest.mark.parametrize("params", [{}, {"points": None}, {"points": "[[0.1, 0.2]]"}])
def test_missing_points_are_rejected_in_korean(params):
    assert_korean_error("sequences", "solve", params, "points")


def test_params_must_be_a_dict():
    assert_korean_error("runtime", "ping", [], "객체")


@pytest.mark.parametrize("demo", ["sequences", "three-problems"])
def test_more_than_12_points_are_rejected_for_live_tsp(demo):
    points = np.random.default_rng(13).random((13, 2)).tolist()
    assert_korean_error(demo, "solve", {"points": points}, "12개까지만")


def test_boundary_values_are_accepted():
    out = dispatch("sequences", "solve", {"points": [[0, 0], [1, 0], [1, 1], [0.0, 1.0]]})
    assert out["hull"] == [1, 2, 3, 4, 1] and out["tsp_length"] == pytest.approx(4.0, abs=1e-12)


def test_input_error_is_a_value_error():
    assert issubclass(InputError, ValueError)


def test_new_handlers_register_with_the_decorator(monkeypatch):
    monkeypatch.setattr(api, "HANDLERS", dict(api.HANDLERS))

    @handler("echo", "count")
    def count(params: dict) -> dict:
        return {"n": len(api.parse_points(params))}

    assert dispatch("echo", "count", {"points": [[0.1, 0.2], [0.3, 0.4]]}) == {"n": 2}
    assert dispatch("runtime", "ping", {})["ptrnet"] == ptrnet.__version__


# --- demos 5 and 6: the shared trainer behind the worker


def test_sorter_handlers_train_view_and_evaluate_one_shared_model():
    from ptrnet import sorter

    reset = dispatch("sort-trainer", "reset", {"seed": 5, "mask": True, "instance": "api-test"})
    assert reset["iteration"] == 0 and reset["loss"] is None and reset["seed"] == 5
    chunk = dispatch("sort-trainer", "train", {"iterations": 30, "instance": "api-test"})
    assert chunk["iteration"] == 30 and chunk["start"] == 0 and len(chunk["losses"]) == 30
    reference = sorter.Trainer(sorter.SorterConfig(seed=5, mask=True))
    assert chunk["losses"] == reference.train(30)["losses"]  # the handler trains exactly the spec's model
    view = dispatch("sort-trainer", "view", {"length": 9, "sample_seed": 1, "instance": "api-test"})
    assert len(view["heatmap"]["x"]) == 9 and len(view["heatmap"]["probs"]) == 9
    curves = dispatch("length-eval", "evaluate", {"lengths": [5, 12], "instance": "api-test"})
    expected = sorter.evaluate(reference.params, [5, 12], count=150, mask=True)
    assert curves["seq_acc"] == pytest.approx(list(expected["seq_acc"]), abs=1e-12)
    assert curves["iteration"] == 30
    json.dumps([reset, chunk, view, curves])


def test_set_mask_keeps_the_weights():
    dispatch("sort-trainer", "reset", {"seed": 2, "mask": True, "instance": "mask-test"})
    dispatch("sort-trainer", "train", {"iterations": 10, "instance": "mask-test"})
    before = dispatch("sort-trainer", "snapshot", {"instance": "mask-test"})["theta"]
    switched = dispatch("sort-trainer", "set_mask", {"mask": False, "instance": "mask-test"})
    assert switched["iteration"] == 10 and switched["mask"] is False
    assert dispatch("sort-trainer", "snapshot", {"instance": "mask-test"})["theta"] == before
    assert before != sorter.flatten(sorter.init_params(2)).tolist()  # ten iterations really moved them


@pytest.mark.parametrize(
    ("fn", "params"),
    [
        ("train", {"iterations": 0}),
        ("train", {"iterations": 10_000}),
        ("train", {"iterations": 2.5}),
        ("view", {"length": 51}),
        ("view", {"length": "8"}),
        ("reset", {"seed": -1}),
    ],
)
def test_sorter_handlers_reject_bad_numbers_in_korean(fn, params):
    with pytest.raises(InputError, match="[가-힣]"):
        dispatch("sort-trainer", fn, params)


def test_length_eval_rejects_a_missing_or_bad_length_list():
    for params in ({}, {"lengths": []}, {"lengths": [5, 99]}):
        with pytest.raises(InputError, match="[가-힣]"):
            dispatch("length-eval", "evaluate", params)


def test_restore_rejects_a_broken_snapshot_in_korean():
    with pytest.raises(InputError, match="[가-힣]"):
        dispatch("sort-trainer", "restore", {"snapshot": {"theta": [1, 2]}})


def test_an_injected_fault_fails_the_next_request_once():
    points = [[0.1, 0.1], [0.9, 0.2], [0.5, 0.9]]
    assert dispatch("runtime", "inject_fault", {"demo": "sequences", "fn": "solve"}) == {"armed": ["sequences", "solve"]}
    with pytest.raises(RuntimeError, match="일부러"):
        dispatch("sequences", "solve", {"points": points})
    assert dispatch("sequences", "solve", {"points": points})["hull"] == [1, 2, 3, 1]
    with pytest.raises(InputError):
        dispatch("runtime", "inject_fault", {"demo": "nope", "fn": "solve"})


def test_the_pages_point_limits_are_the_apis():
    """site/js/config.js repeats two limits for the editors; they must stay Python's."""
    from pathlib import Path

    config = (Path(__file__).parents[2] / "site" / "js" / "config.js").read_text()
    assert re.search(r"\bmaxPoints: (\d+),", config).group(1) == str(api.MAX_TSP_POINTS)
    assert re.search(r"\bminModelPoints: (\d+),", config).group(1) == str(api.MIN_MODEL_POINTS)


# --- issue 13: per-instance models, structured errors, strict parameters


def test_each_instance_has_its_own_sorter_and_free_forgets_it():
    dispatch("sort-trainer", "reset", {"seed": 3, "mask": True, "instance": "a"})
    dispatch("sort-trainer", "reset", {"seed": 4, "mask": False, "instance": "b"})
    dispatch("sort-trainer", "train", {"iterations": 7, "instance": "a"})
    a = dispatch("sort-trainer", "view", {"instance": "a"})
    b = dispatch("sort-trainer", "view", {"instance": "b"})
    assert (a["iteration"], a["seed"], a["mask"]) == (7, 3, True)
    assert (b["iteration"], b["seed"], b["mask"]) == (0, 4, False)
    assert dispatch("runtime", "free", {"instance": "a"}) == {"freed": ["sorter"]}
    assert dispatch("sort-trainer", "view", {"instance": "a"})["iteration"] == 0  # a fresh one
    assert dispatch("runtime", "free", {"instance": "nobody"}) == {"freed": []}


def test_each_instance_has_its_own_nplm_and_a_snapshot_continues_it_bit_for_bit():
    dispatch("nplm", "reset", {"seed": 1, "direct": True, "instance": "n1"})
    dispatch("nplm", "reset", {"seed": 2, "direct": False, "instance": "n2"})
    dispatch("nplm", "train", {"iterations": 30, "instance": "n1"})
    snap = dispatch("nplm", "snapshot", {"instance": "n1"})
    assert dispatch("nplm", "view", {"instance": "n2"})["iteration"] == 0
    after = dispatch("nplm", "train", {"iterations": 20, "instance": "n1"})
    dispatch("nplm", "restore", {"snapshot": json.loads(json.dumps(snap)), "instance": "fresh"})
    again = dispatch("nplm", "train", {"iterations": 20, "instance": "fresh"})
    assert again["iteration"] == after["iteration"] == 50
    assert again["vectors"] == after["vectors"] and again["loss"] == after["loss"]
    assert_korean_error("nplm", "restore", {"snapshot": {"params": {}}, "instance": "x"}, "학습 상태")


@pytest.mark.parametrize("value", ["false", "true", 0, 1, None, [True]])
def test_boolean_parameters_are_not_coerced(value):
    assert_korean_error("sort-trainer", "set_mask", {"mask": value, "instance": "bools"}, "참(true)")
    assert_korean_error("nplm", "reset", {"direct": value, "instance": "bools"}, "참(true)")


@pytest.mark.parametrize("instance", [3, "", "x" * 65, None, ["a"]])
def test_an_instance_id_must_be_a_short_string(instance):
    assert_korean_error("sort-trainer", "view", {"instance": instance}, "instance")


def test_call_answers_with_structured_errors_not_tracebacks(monkeypatch):
    ok = api.call("sequences", "solve", {"points": [[0.1, 0.2], [0.5, 0.9], [0.8, 0.1]]})
    assert ok["ok"] is True and ok["result"]["hull"] == [1, 3, 2, 1]
    bad = api.call("sequences", "solve", {"points": "no"})
    assert bad == {"ok": False, "error": {"kind": "input", "message": bad["error"]["message"]}}
    assert HANGUL.search(bad["error"]["message"])
    api.dispatch("runtime", "inject_fault", {"demo": "sequences", "fn": "solve"})
    crash = api.call("sequences", "solve", {"points": []})
    assert crash["ok"] is False and crash["error"]["kind"] == "python" and "RuntimeError" in crash["error"]["message"]

    def missing(params):
        raise ptrnet.MissingData("/lib/ptrnet/data/x.npz")

    monkeypatch.setitem(api.HANDLERS, ("sequences", "solve"), missing)
    assert api.call("sequences", "solve", {})["error"] == {"kind": "missing", "message": "학습한 가중치를 아직 받지 않았습니다.",
                                                           "missing": "/lib/ptrnet/data/x.npz"}
    assert json.loads(json.dumps(crash)) == crash
