"""The worker's entry point: spec answers through dispatch, Korean input errors, plain JSON-ready results."""

import json
import subprocess
import sys

import numpy as np
import pytest
from checks import HANGUL, assert_plain, written_percent

import ptrnet
from ptrnet import api, handlers
from ptrnet.api import InputError, dispatch, handler
from ptrnet.handlers import base
from ptrnet.sorter import model as sorter


def test_sequences_solve_gives_the_reference_answers(reference):
    out = dispatch("sequences", "solve", {"points": reference["points"]})
    assert set(out) == {"hull", "tsp", "tsp_length", "notes", "text"}
    assert out["notes"] == []  # seven points in general position
    assert out["text"] == {
        "hull": "⇒ 3 → 6 → 4 → 5 → 3 ⇐",
        "tsp": "⇒ 1 → 2 → 6 → 4 → 7 → 5 → 3 → 1 ⇐",
        "tsp_length": "2.6175",  # the spec's example, to four decimals
    }
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
    handlers.load("runtime")  # imported before the registry is swapped, so that it stays registered after
    monkeypatch.setattr(base, "HANDLERS", dict(base.HANDLERS))

    @handler("echo", "count")
    def count(params: dict) -> dict:
        return {"n": len(api.parse_points(params))}

    assert dispatch("echo", "count", {"points": [[0.1, 0.2], [0.3, 0.4]]}) == {"n": 2}
    assert dispatch("runtime", "ping", {})["ptrnet"] == ptrnet.__version__


def test_each_handler_family_registers_exactly_the_demos_it_is_loaded_for():
    for demos in handlers.FAMILIES.values():
        for demo in demos:
            handlers.load(demo)
    for family, demos in handlers.FAMILIES.items():
        registered = {demo for (demo, _), f in base.HANDLERS.items() if f.__module__ == f"ptrnet.handlers.{family}"}
        assert registered == set(demos), family


def test_python_starts_without_the_handler_families_and_loads_one_on_its_first_request():
    script = """
import json, sys
import ptrnet.api
before = sorted(m for m in sys.modules if m.startswith("ptrnet.handlers."))
reply = ptrnet.api.call("sequences", "solve", {"points": [[0.1, 0.2], [0.8, 0.3], [0.5, 0.9]]})
after = sorted(m for m in sys.modules if m.startswith("ptrnet.handlers."))
print(json.dumps([before, after, reply["ok"], "ptrnet.experiments.runner" in sys.modules]))
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    before, after, ok, runner = json.loads(out)
    assert before == ["ptrnet.handlers.base"]
    assert after == ["ptrnet.handlers.base", "ptrnet.handlers.geometry"] and ok and not runner


def test_an_unknown_demo_loads_nothing_and_is_rejected_in_korean():
    reply = api.call("no-such-demo", "solve", {})
    assert reply["ok"] is False and reply["error"]["kind"] == "input" and HANGUL.search(reply["error"]["message"])


# --- demos 5 and 6: the shared trainer behind the worker


def test_sorter_handlers_train_view_and_evaluate_one_shared_model():
    from ptrnet.sorter import evaluation as sorter_eval
    from ptrnet.sorter import trainer as sorter_trainer

    reset = dispatch("sort-trainer", "reset", {"seed": 5, "mask": True, "instance": "api-test"})
    assert reset["iteration"] == 0 and reset["loss"] is None and reset["seed"] == 5
    chunk = dispatch("sort-trainer", "train", {"iterations": 30, "instance": "api-test"})
    assert chunk["iteration"] == 30 and chunk["start"] == 0 and len(chunk["losses"]) == 30
    reference = sorter_trainer.Trainer(sorter.SorterConfig(seed=5, mask=True))
    assert chunk["losses"] == reference.train(30)["losses"]  # the handler trains exactly the spec's model
    view = dispatch("sort-trainer", "view", {"length": 9, "sample_seed": 1, "instance": "api-test"})
    assert len(view["heatmap"]["x"]) == 9 and len(view["heatmap"]["probs"]) == 9
    assert "accuracy10" not in chunk and 0 <= view["accuracy10"] <= 1  # the view carries the accuracy
    curves = dispatch("length-eval", "evaluate", {"lengths": [5, 12], "instance": "api-test"})
    expected = sorter_eval.evaluate(reference.params, [5, 12], count=150, mask=True)
    assert curves["seq_acc"] == pytest.approx(list(expected["seq_acc"]), abs=1e-12)
    assert curves["iteration"] == 30
    json.dumps([reset, chunk, view, curves])


def test_sorter_replies_carry_their_numbers_written_for_the_page():
    reset = dispatch("sort-trainer", "reset", {"seed": 3, "mask": True, "instance": "text-test"})
    assert reset["text"] == {"loss": "–", "accuracy10": written_percent(reset["accuracy10"])}
    chunk = dispatch("sort-trainer", "train", {"iterations": 20, "instance": "text-test"})
    assert chunk["text"] == {"loss": f"{chunk['loss']:.4f}"}  # no accuracy10 in a training chunk
    view = dispatch("sort-trainer", "view", {"length": 12, "sample_seed": 4, "instance": "text-test"})
    heatmap = view["heatmap"]
    assert heatmap["text"]["x"] == [f"{v:.2f}" for v in heatmap["x"]]
    assert [float(label) for label in heatmap["text"]["x"]] == heatmap["x"]  # the labels are the values themselves
    curves = dispatch("length-eval", "evaluate", {"lengths": [5, 6, 30], "instance": "text-test"})
    for key in ("seq_acc", "pos_acc", "invalid"):
        assert curves["text"][key] == [written_percent(v) for v in curves[key]]


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


@pytest.mark.parametrize("demo", ["sort-trainer", "nplm"])
def test_restore_rejects_a_broken_snapshot_in_korean(demo):
    for snapshot in ({"theta": [1, 2]}, "not a snapshot"):
        with pytest.raises(InputError, match="저장해 둔 학습 상태"):
            dispatch(demo, "restore", {"instance": "broken", "snapshot": snapshot})


def test_an_injected_fault_fails_the_next_request_once():
    points = [[0.1, 0.1], [0.9, 0.2], [0.5, 0.9]]
    assert dispatch("runtime", "inject_fault", {"demo": "sequences", "fn": "solve"}) == {
        "armed": ["sequences", "solve"]
    }
    with pytest.raises(RuntimeError, match="일부러"):
        dispatch("sequences", "solve", {"points": points})
    assert dispatch("sequences", "solve", {"points": points})["hull"] == [1, 2, 3, 1]
    with pytest.raises(InputError):
        dispatch("runtime", "inject_fault", {"demo": "nope", "fn": "solve"})
