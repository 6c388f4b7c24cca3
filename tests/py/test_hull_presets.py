"""Demo 4's presets (hard cases for the shipped hull model), its candidates' labels and its accuracy line."""

import re

import numpy as np
import pytest
from checks import HANGUL, record_json

from ptrnet import formats
from ptrnet.api import dispatch
from ptrnet.geometry.degenerate import notes
from ptrnet.geometry.notation import hull_sequence
from ptrnet.limits import HESITANT, HULL_EXAMPLE, HULL_PRESETS, MAX_MODEL_POINTS, MIN_MODEL_POINTS
from training import hard_cases

HARD = [name for name in HULL_PRESETS if name != "example"]


def least_sure(reply: dict) -> float:
    """The lowest top probability over a decoding's steps."""
    return min(max(step["probs"]) for step in reply["steps"])


def test_the_example_comes_first_and_every_preset_has_a_korean_label():
    assert list(HULL_PRESETS)[0] == "example" and HULL_PRESETS["example"]["points"] == HULL_EXAMPLE
    assert 2 <= len(HARD) <= 4
    assert all(HANGUL.search(preset["label"]) for preset in HULL_PRESETS.values())


@pytest.mark.parametrize("name", HARD)
def test_a_hard_preset_is_a_plain_point_set_the_model_hesitates_at_or_errs_on(name):
    points = HULL_PRESETS[name]["points"]
    assert MIN_MODEL_POINTS <= len(points) <= MAX_MODEL_POINTS and not notes(points)
    assert all(0 <= v <= 1 and round(v, 3) == v for p in points for v in p)  # as a permalink writes them
    reply = dispatch("hull-steps", "real", {"points": points})
    assert least_sure(reply) < HESITANT or reply["output"] != hull_sequence(points)


def test_some_preset_has_a_step_with_no_candidate_above_the_threshold():
    assert any(
        least_sure(dispatch("hull-steps", "real", {"points": HULL_PRESETS[n]["points"]})) < HESITANT for n in HARD
    )


def test_the_search_finds_the_stored_presets():
    assert list(hard_cases.FAMILIES) == HARD
    for name in HARD:
        points, _ = hard_cases.hardest(name, hard_cases.TRIES, hard_cases.SEED)
        assert points == HULL_PRESETS[name]["points"], name


@pytest.mark.parametrize(
    ("p", "label"),
    [(1.0, "100 %"), (0.4321, "43 %"), (0.1, "10 %"), (0.0994, "9.9 %"), (0.0123, "1.2 %"), (0.001, "0.1 %")]
    + [
        (0.00099, "<0.1 %"),
        (2e-5, "<0.1 %"),
        (0.0, "0 %"),
        (0.99996, ">99.9 %"),
        (0.9991, ">99.9 %"),
        (0.999, "99.9 %"),
        (0.996, "99.6 %"),
        (0.994, "99 %"),
    ],
)
def test_a_probability_label(p, label):
    assert formats.probability(p) == label.replace(" ", "\u00a0")


def assert_labels_say_the_probabilities(probs: list[float], masked: list[bool], labels: list[str]) -> None:
    """Each label reads back as its probability (to its rounding), and says 가림 exactly where the mask removed it."""
    assert len(labels) == len(probs)
    for p, off, label in zip(probs, masked, labels, strict=True):
        if off:
            assert label == "가림" and p == 0
            continue
        number = re.fullmatch(r"([<>])?(\d+(?:\.\d)?)\u00a0%", label)
        assert number, label
        if number[1] == "<":
            assert 0 < p < 0.001 and number[2] == "0.1"
        elif number[1] == ">":
            assert 0.999 < p < 1 and number[2] == "99.9"
        else:
            digits = len(number[2].partition(".")[2])
            assert abs(100 * p - float(number[2])) <= 0.5 * 10**-digits + 1e-9, (p, label)
            assert (digits == 0) == (0.1 <= p < 0.995 or p == 1) or p == 0


@pytest.mark.parametrize("mask", [False, True])
def test_the_model_steps_come_with_their_labels(mask):
    reply = dispatch("hull-steps", "real", {"points": HULL_PRESETS["nearly-collinear"]["points"], "mask": mask})
    for step in reply["steps"]:
        assert_labels_say_the_probabilities(step["probs"], step["masked"], step["text"]["probs"])
    assert mask == any("가림" in step["text"]["probs"] for step in reply["steps"])


@pytest.mark.parametrize("step", [1, 5])
def test_the_example_steps_come_with_their_labels(step):
    reply = dispatch("hull-steps", "solve", {"step": step, "mask": True})
    assert_labels_say_the_probabilities(reply["probs"], reply["masked"], reply["text"]["probs"])


def results_accuracy(n: int) -> float:
    """The hull Ptr-Net's greedy accuracy at n in its results JSON: the tables' row, else the demo sizes' sets."""
    res = record_json("hull_results.json")
    rows = {row["test_n"]: row for name, row in res["ours"].items() if name.startswith("ptrnet_")}
    return rows[n]["greedy"]["accuracy"] if n in rows else res["demo_sizes"][str(n)]


@pytest.mark.parametrize("n", range(MIN_MODEL_POINTS, MAX_MODEL_POINTS + 1))
def test_the_accuracy_line_gives_the_results_json_number_and_the_training_range(n):
    points = np.random.default_rng(n).random((n, 2)).round(3).tolist()
    reply = dispatch("hull-steps", "real", {"points": points})
    train_n = record_json("hull_results.json")["ours"]["ptrnet_5"]["train_n"]  # '5-50'
    low, high = map(int, train_n.split("-"))
    assert reply["accuracy"]["share"] == results_accuracy(n) and reply["accuracy"]["n"] == n
    assert reply["accuracy"]["in_training"] == (low <= n <= high) == (n >= 5)
    text = reply["text"]["accuracy"]
    assert f"{100 * results_accuracy(n):.1f}\u00a0%" in text
    assert f"점 {low}–{high}개로 학습" in text and "3개와 4개는 학습 범위 밖" in text
    assert f"점이 {n}개({'학습 범위 안' if n >= 5 else '학습 범위 밖'})" in text


def test_at_five_points_the_line_agrees_with_the_tables():
    reply = dispatch("hull-steps", "real", {"points": HULL_PRESETS["example"]["points"][:5]})
    table = record_json("hull_results.json")["ours"]["ptrnet_5"]["greedy"]["accuracy"]
    assert formats.percent(table) in reply["text"]["accuracy"]
