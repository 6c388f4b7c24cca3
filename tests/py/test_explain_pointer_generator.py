"""Demo 7 [pointer-generator] against the copy-or-generate formula written out per word."""

from itertools import pairwise

import numpy as np
import pytest
from checks import assert_korean_error, raw_json, written_percent
from hypothesis import given, settings
from hypothesis import strategies as st

from ptrnet import explain
from ptrnet.api import dispatch

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


@pytest.mark.parametrize("p_gen", [0.3, 0, 1, 0.85, 0.07])
def test_the_reply_writes_p_gen_its_complement_and_the_three_likeliest_words(p_gen):
    out = dispatch("pointer-generator", "solve", {"p_gen": p_gen})
    expected = formula(p_gen, EXAMPLE["vocab"], EXAMPLE["attention"], EXAMPLE["source"])
    words = list(dict.fromkeys(EXAMPLE["source"] + list(EXAMPLE["vocab"])))  # equals keep this order (source first)
    top = sorted(words, key=lambda w: -expected[w])[:3]
    assert out["text"]["top"] == " · ".join(f"{w} {written_percent(expected[w])}" for w in top)
    assert out["text"]["p_gen"] == f"{p_gen:.2f}" and out["text"]["copy_share"] == f"{1 - p_gen:.2f}"
    assert out["text"]["attention"] == [written_percent(a) for a in EXAMPLE["attention"]]
    assert out["text"]["vocab"] == {w: written_percent(p) for w, p in EXAMPLE["vocab"].items()}
    assert out["text"]["final"] == {w: written_percent(expected[w]) for w in out["final"]}
