"""Demo 3 [mix-vs-point] against independent oracles: the softmax written out, scipy's polygon and entropy."""

import math

import numpy as np
import pytest
from checks import assert_korean_error, written_percent
from scipy.spatial import ConvexHull
from scipy.stats import entropy

from ptrnet import explain
from ptrnet.api import dispatch

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


@pytest.mark.parametrize("d", [[1.2, 1.0], [0, 0], [-1.5, 0.5], [30, 40]])
def test_the_reply_writes_its_numbers_for_the_page(d):
    out = dispatch("mix-vs-point", "solve", {"d": d})
    text = out["text"]
    assert text["weights"] == [f"{a:.3f}" for a in out["weights"]]
    assert text["shares"] == [written_percent(a) for a in out["weights"]]
    assert text["d"] == f"({out['d'][0]:.2f}, {out['d'][1]:.2f})"
    assert text["d_length"] == f"{np.linalg.norm(out['d']):.2f}"
    assert text["mixed"] == f"({out['mixed'][0]:.2f}, {out['mixed'][1]:.2f})"
    assert text["max_weight"] == f"{max(out['weights']):.3f}" and text["entropy"] == f"{out['entropy']:.2f}"
