"""Demos 1, 3, 4 and 7 against independent oracles: scipy hulls, hand renormalisation, the copy-or-generate formula."""

import json
import math
import re
from importlib import resources
from itertools import pairwise

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.spatial import ConvexHull
from scipy.stats import entropy

from ptrnet import explain
from ptrnet.api import InputError, dispatch
from ptrnet.notation import hull_sequence

HANGUL = re.compile("[가-힣]")
HULL_DECODING = [3, 6, 4, 5, 3, 0]  # P3 P6 P4 P5 P3 ⇐; 0 stands for ⇐
INTERIOR = [1, 2, 7]  # P1, P2, P7 lie inside the example's hull
END = 7  # the slot of ⇐ in [P1..P7, ⇐]


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
        assert value is None or type(value) in (int, float, str, bool), type(value)  # None is JSON null


def assert_korean_error(demo: str, params: dict) -> None:
    """dispatch(demo, "solve", params) raises an InputError with a Korean message."""
    with pytest.raises(InputError) as err:
        dispatch(demo, "solve", params)
    assert HANGUL.search(str(err.value)), str(err.value)


def raw_json(name: str) -> dict:
    """A data file of the installed package, read directly (not through ptrnet.explain)."""
    return json.loads((resources.files("ptrnet") / "data" / name).read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("demo", "params"),
    [
        ("slots", {"n": 7, "seed": 1}),
        ("mix-vs-point", {"d": [1, 0.5]}),
        ("hull-steps", {"step": 5, "mask": True}),
        ("pointer-generator", {"p_gen": 0.3}),
    ],
)
def test_handlers_return_plain_json_values(demo, params):
    out = dispatch(demo, "solve", params)
    assert_plain(out)
    assert json.loads(json.dumps(out)) == out


# --- demo 1 [slots]


def scipy_hull_1based(points: list[list[float]]) -> list[int]:
    """Hull vertices by Qhull, 1-based, counter-clockwise (scipy's order in 2-D)."""
    return [int(v) + 1 for v in ConvexHull(np.array(points)).vertices]


@pytest.mark.parametrize("n", range(3, 13))
def test_slot_counts_match_an_independent_count_on_random_sets(n):
    for seed in range(40):
        out = dispatch("slots", "solve", {"n": n, "seed": seed})
        expected_points = np.round(np.random.default_rng(seed).random((n, 2)), 3)
        assert np.array_equal(np.array(out["points"]), expected_points)
        ring = scipy_hull_1based(out["points"])
        start = ring.index(min(ring))
        assert out["hull"] == ring[start:] + ring[:start] + [min(ring)]
        too_big = sum(i > 5 for i in ring) + (min(ring) > 5)  # the repeated start counts again
        assert out["seq2seq_missing"] == too_big
        assert out["ptr_slots"] == n + 1 == len(out["ptr_labels"])
        assert out["ptr_labels"] == [f"P{i}" for i in range(1, n + 1)] + ["⇐"]
        assert out["answer"] == ["⇒", *map(str, out["hull"]), "⇐"]
        assert out["emittable"] == [t in {"1", "2", "3", "4", "5", "⇒", "⇐"} for t in out["answer"]]
        assert out["seq2seq_vocab"] == ["1", "2", "3", "4", "5", "⇒", "⇐"]
        if n <= 5:
            assert out["seq2seq_missing"] == 0


def test_slot_counts_count_repeated_tokens_each_time():
    assert explain.slot_counts([6, 7, 8, 6], n=8)["seq2seq_missing"] == 4  # 6, 7, 8 and the closing 6
    assert explain.slot_counts([3, 6, 4, 7, 3], n=7)["seq2seq_missing"] == 2
    assert explain.slot_counts([1, 2, 5, 1], n=5)["seq2seq_missing"] == 0
    assert explain.slot_counts([1, 2, 3, 1], n=4, trained_n=2)["emittable"] == [True, True, True, False, True, True]


def test_slots_points_are_rounded_to_three_decimals_and_reproducible():
    a, b = dispatch("slots", "solve", {"n": 12, "seed": 9}), dispatch("slots", "solve", {"n": 12, "seed": 9})
    assert a == b
    assert all(0 <= v <= 1 and round(v, 3) == v for p in a["points"] for v in p)
    assert dispatch("slots", "solve", {"n": 12, "seed": 10})["points"] != a["points"]


@pytest.mark.parametrize("params", [{"n": 2}, {"n": 13}, {"n": 7.5}, {"n": "7"}, {"n": True}, {"seed": -1}])
def test_slots_rejects_bad_params_in_korean(params):
    assert_korean_error("slots", params)


# --- demo 3 [mix-vs-point]

E = np.array(dispatch("mix-vs-point", "solve", {"d": [0, 0]})["encoders"])  # (5, 2)
POLYGON = ConvexHull(E)


def test_encoders_are_the_five_vertices_of_a_convex_polygon_within_bounds():
    assert E.shape == (5, 2)
    assert sorted(POLYGON.vertices.tolist()) == [0, 1, 2, 3, 4]
    assert np.abs(E).max() <= 1.2
    assert np.array_equal(E, explain.ENCODERS)


def random_ds(count: int, seed: int) -> list[list[float]]:
    """Decoder vectors at random angles with lengths up to 8, plus the axes at full length."""
    rng = np.random.default_rng(seed)
    angle, length = rng.uniform(0, 2 * np.pi, count), rng.uniform(0, 8, count)
    ds = np.stack([length * np.cos(angle), length * np.sin(angle)], axis=1)
    return ds.tolist() + [[8, 0], [0, 8], [-8, 0], [0, -8]]


def test_mixed_is_the_weighted_sum_and_lies_inside_the_encoder_polygon():
    for d in random_ds(300, seed=3):
        out = dispatch("mix-vs-point", "solve", {"d": d})
        a = np.array(out["weights"])
        assert np.all(a >= 0) and abs(a.sum() - 1) < 1e-12
        assert np.allclose(out["scores"], E @ np.array(d), rtol=0, atol=1e-12)
        expected = np.exp(E @ np.array(d)) / np.exp(E @ np.array(d)).sum()
        assert np.allclose(a, expected, rtol=0, atol=1e-12)
        assert np.allclose(out["mixed"], a @ E, rtol=0, atol=1e-12)
        inside = POLYGON.equations[:, :2] @ np.array(out["mixed"]) + POLYGON.equations[:, 2]  # <= 0 inside
        assert inside.max() <= 1e-12
        assert out["pointer"] == int(np.argmax(expected)) + 1
        assert out["max_weight"] == pytest.approx(expected.max(), abs=1e-12)
        assert out["entropy"] == pytest.approx(entropy(expected), abs=1e-12)


def test_weights_sharpen_monotonically_as_d_grows_along_fixed_directions():
    for angle in np.linspace(0, 2 * np.pi, 72, endpoint=False):
        direction = np.array([np.cos(angle), np.sin(angle)])
        outs = [dispatch("mix-vs-point", "solve", {"d": (r * direction).tolist()}) for r in np.linspace(0, 8, 81)]
        max_weight = np.array([o["max_weight"] for o in outs])
        ent = np.array([o["entropy"] for o in outs])
        assert np.all(np.diff(max_weight) >= -1e-12)
        assert np.all(np.diff(ent) <= 1e-12)
        assert ent[-1] < ent[0] - 0.1  # visibly sharper at full length


def test_zero_d_gives_uniform_weights_and_the_centroid():
    out = dispatch("mix-vs-point", "solve", {"d": [0, 0]})
    assert np.allclose(out["weights"], 0.2, rtol=0, atol=1e-15)
    assert np.allclose(out["mixed"], E.mean(axis=0), rtol=0, atol=1e-15)
    assert out["entropy"] == pytest.approx(math.log(5), abs=1e-12)


@pytest.mark.parametrize(
    ("d", "expected"),
    [([3, 4], [3, 4]), ([30, 40], [4.8, 6.4]), ([0, -9], [0, -8]), ([1e308, -1e308], [8 / 2**0.5, -8 / 2**0.5])],
)
def test_long_d_is_clamped_to_length_8_keeping_its_direction(d, expected):
    out = dispatch("mix-vs-point", "solve", {"d": d})
    assert np.allclose(out["d"], expected, rtol=0, atol=1e-12)
    assert out["entropy"] >= 0 and abs(sum(out["weights"]) - 1) < 1e-12


def test_default_d_points_at_e1_and_mixes_between_inputs():
    out = dispatch("mix-vs-point", "solve", {})
    assert out["d"] == [1.0, 0.5] and out["pointer"] == 1
    assert 0.3 < out["max_weight"] < 0.6  # a soft mix, not yet a pointer
    assert np.linalg.norm(np.array(out["mixed"]) - E[0]) > 0.3  # the mix lands away from every input


@pytest.mark.parametrize(
    "d",
    [[float("nan"), 0], [0, float("inf")], [1], [1, 2, 3], ["1", 0], [True, 0], [None, 1], "1,0", None, {"x": 1}],
)
def test_mix_vs_point_rejects_bad_d_in_korean(d):
    assert_korean_error("mix-vs-point", {"d": d})


# --- demo 4 [hull-steps]


def test_hull_steps_follow_the_spec_decoding(reference):
    outs = [dispatch("hull-steps", "solve", {"step": s, "mask": False}) for s in range(1, 7)]
    assert [o["choice"] for o in outs] == HULL_DECODING == hull_sequence(reference["points"]) + [0]
    assert [o["input"] for o in outs] == [0, 3, 6, 4, 5, 3]
    assert [o["output"] for o in outs] == [HULL_DECODING[:s] for s in range(1, 7)]
    assert [o["step"] for o in outs] == list(range(1, 7))
    assert all(o["points"] == reference["points"] and o["illustrative"] is True for o in outs)


@pytest.mark.parametrize("mask", [False, True])
@pytest.mark.parametrize("step", range(1, 7))
def test_hull_step_tables_are_distributions_won_clearly_by_the_choice(step, mask):
    out = dispatch("hull-steps", "solve", {"step": step, "mask": mask})
    p = np.array(out["probs"])
    assert p.shape == (8,) and np.all(p >= 0) and abs(p.sum() - 1) < 1e-12
    slot = END if out["choice"] == 0 else out["choice"] - 1
    assert int(np.argmax(p)) == slot
    assert p[slot] - np.sort(p)[-2] >= 0.25  # a clear margin
    assert all(0 < p[i - 1] < p[slot] for i in INTERIOR)  # P1, P2, P7 stay candidates and never win
    assert p[END] > 0 and p[2] > 0  # ⇐ and the first point P3 always stay available
    if step < 6:
        assert p[END] < 0.1  # ⇐ stays small until the polygon is closed


@pytest.mark.parametrize("step", range(1, 7))
def test_masked_probabilities_are_the_hand_renormalised_table(step):
    table = raw_json("hull_steps.json")
    raw = np.array([table["steps"][step - 1]["probs"][c] for c in ["P1", "P2", "P3", "P4", "P5", "P6", "P7", "⇐"]])
    removed = {i for i in HULL_DECODING[: step - 1] if i != 3}  # chosen before, except the first point
    keep = np.array([i + 1 not in removed for i in range(7)] + [True])
    expected = np.where(keep, raw, 0.0) / raw[keep].sum()
    out = dispatch("hull-steps", "solve", {"step": step, "mask": True})
    assert np.allclose(out["probs"], expected, rtol=0, atol=1e-12)
    assert out["masked"] == (~keep).tolist()
    unmasked = dispatch("hull-steps", "solve", {"step": step, "mask": False})
    assert unmasked["probs"] == raw.tolist() and unmasked["masked"] == [False] * 8


def test_the_mask_removes_earlier_points_but_keeps_the_first():
    masks = {s: dispatch("hull-steps", "solve", {"step": s, "mask": True})["masked"] for s in range(1, 7)}
    removed = {s: [i + 1 for i, m in enumerate(masked) if m] for s, masked in masks.items()}
    assert removed == {1: [], 2: [], 3: [6], 4: [4, 6], 5: [4, 5, 6], 6: [4, 5, 6]}
    for s in range(3, 7):  # without the mask the earlier points keep some probability, so the mask visibly matters
        free = dispatch("hull-steps", "solve", {"step": s, "mask": False})["probs"]
        assert all(free[i - 1] > 0 for i in removed[s])


def test_hull_steps_data_is_labelled_illustrative():
    table = raw_json("hull_steps.json")
    assert "illustrative" in table["note"].lower()
    assert len(table["steps"]) == explain.HULL_STEPS == 6


@pytest.mark.parametrize(
    "params",
    [{"step": 0}, {"step": 7}, {"step": 2.5}, {"step": "1"}, {"step": 1, "mask": "yes"}, {"step": 1, "mask": 1}],
)
def test_hull_steps_rejects_bad_params_in_korean(params):
    assert_korean_error("hull-steps", params)


# --- demo 7 [pointer-generator]

EXAMPLE = raw_json("pointer_generator.json")


def formula(p_gen: float, vocab: dict, attention: list, source: list) -> dict:
    """P(w) = p_gen P_vocab(w) + (1 - p_gen) sum_{i: w_i = w} a_i, written out per word."""
    copied = {w: sum(a for s, a in zip(source, attention, strict=True) if s == w) for w in source}
    return {w: p_gen * vocab.get(w, 0.0) + (1 - p_gen) * copied.get(w, 0.0) for w in set(vocab) | set(source)}


def test_example_data_is_two_distributions_with_oov_names_outside_the_vocab():
    assert EXAMPLE["source"] == ["Okonkwo", "won", "the", "Valencia", "marathon", "on", "Sunday"]
    assert abs(sum(EXAMPLE["attention"]) - 1) < 1e-12 and min(EXAMPLE["attention"]) > 0
    assert abs(sum(EXAMPLE["vocab"].values()) - 1) < 1e-12 and min(EXAMPLE["vocab"].values()) > 0
    assert "Okonkwo" not in EXAMPLE["vocab"] and "Valencia" not in EXAMPLE["vocab"]
    assert "illustrative" in EXAMPLE["note"].lower()


@settings(max_examples=200, deadline=None)
@given(st.floats(0.0, 1.0))
def test_final_distribution_matches_the_formula_and_sums_to_one(p_gen):
    out = dispatch("pointer-generator", "solve", {"p_gen": p_gen})
    expected = formula(p_gen, EXAMPLE["vocab"], EXAMPLE["attention"], EXAMPLE["source"])
    assert set(out["final"]) == set(expected)
    assert all(abs(out["final"][w] - expected[w]) < 1e-12 for w in expected)
    assert abs(sum(out["final"].values()) - 1) < 1e-12
    assert out["chosen"] == max(expected, key=expected.get) and out["p_gen"] == p_gen


@settings(max_examples=200, deadline=None)
@given(
    st.floats(0.0, 1.0),
    st.lists(st.tuples(st.sampled_from("abcdef"), st.floats(0.01, 1.0)), min_size=1, max_size=10),
    st.dictionaries(st.sampled_from("defghi"), st.floats(0.01, 1.0), min_size=1),
)
def test_mixing_matches_the_formula_on_any_source_with_repeats(p_gen, tokens, vocab_weights):
    source = [w for w, _ in tokens]
    attention = np.array([a for _, a in tokens]) / sum(a for _, a in tokens)
    vocab = {w: v / sum(vocab_weights.values()) for w, v in vocab_weights.items()}
    out = explain.mix_pointer_generator(p_gen, vocab, attention.tolist(), source)
    expected = formula(p_gen, vocab, attention.tolist(), source)
    assert set(out["final"]) == set(expected)
    assert all(abs(out["final"][w] - expected[w]) < 1e-12 for w in expected)
    assert abs(sum(out["final"].values()) - 1) < 1e-12
    names = {(True, True): "both", (True, False): "source", (False, True): "vocab"}
    assert out["origin"] == {w: names[(w in source, w in vocab)] for w in expected}


def test_repeated_source_words_add_their_attention():
    out = explain.mix_pointer_generator(
        0.4, {"the": 0.5, "cat": 0.5}, [0.1, 0.2, 0.3, 0.25, 0.15], ["the", "cat", "saw", "the", "dog"]
    )
    assert list(out["final"]) == ["the", "cat", "saw", "dog"]  # one entry per word, source order first
    assert out["final"]["the"] == pytest.approx(0.4 * 0.5 + 0.6 * (0.1 + 0.25), abs=1e-15)
    assert out["final"]["saw"] == pytest.approx(0.6 * 0.3, abs=1e-15)
    assert out["origin"] == {"the": "both", "cat": "both", "saw": "source", "dog": "source"}
    assert out["chosen"] == "the"


def test_oov_words_get_nothing_without_copying_and_vocab_only_words_nothing_without_generating():
    gen = dispatch("pointer-generator", "solve", {"p_gen": 1})
    assert gen["final"]["Okonkwo"] == 0 and gen["final"]["Valencia"] == 0
    copy = dispatch("pointer-generator", "solve", {"p_gen": 0})
    assert all(copy["final"][w] == 0 for w, o in copy["origin"].items() if o == "vocab")


def test_argmax_switches_once_from_a_generated_word_to_the_copied_name():
    outs = [dispatch("pointer-generator", "solve", {"p_gen": float(p)}) for p in np.linspace(1, 0, 101)]
    chosen = [o["chosen"] for o in outs]
    assert outs[0]["origin"][chosen[0]] == "vocab"
    assert chosen[-1] == "Okonkwo" and outs[-1]["oov"][outs[-1]["source"].index("Okonkwo")]
    assert sum(a != b for a, b in pairwise(chosen)) == 1


def test_default_p_gen_copies_the_oov_name():
    out = dispatch("pointer-generator", "solve", {})
    assert out["p_gen"] == 0.3 and out["chosen"] == "Okonkwo" and out["illustrative"] is True
    assert out["oov"] == [True, False, False, True, False, False, False]
    assert out["origin"]["Okonkwo"] == out["origin"]["Valencia"] == "source"
    assert out["origin"]["the"] == "both" and out["origin"]["runner"] == "vocab"
    assert out["attention"] == EXAMPLE["attention"] and out["vocab"] == EXAMPLE["vocab"]


@pytest.mark.parametrize("p_gen", [-0.01, 1.01, float("nan"), float("inf"), "0.3", True, None, [0.3]])
def test_pointer_generator_rejects_bad_p_gen_in_korean(p_gen):
    assert_korean_error("pointer-generator", {"p_gen": p_gen})
