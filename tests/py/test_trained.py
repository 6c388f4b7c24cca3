"""The shipped trained models: golden outputs, int8 weights and their cards, the handlers of demos 1 and 4."""

from __future__ import annotations

import io
import json
import math
from importlib import resources

import numpy as np
import pytest
from checks import HANGUL, SHIPPED_TASKS, record_json

import ptrnet
from ptrnet import api
from ptrnet.geometry.notation import canonical_hull, hull_sequence, tsp_sequence
from ptrnet.pointer import decoding, tasks, trained, weights
from ptrnet.pointer import lstm_ptr as L
from ptrnet.views import companion, models
from training.paths import REPO

GOLDEN = [  # (task, model kind) of every shipped Ptr-Net with golden outputs, as the model cards list them
    (t, kind) for t in SHIPPED_TASKS for kind, m in trained.card(t)["models"].items() if m.get("golden")
]


def _data(name: str) -> bytes:
    """A packaged data file."""
    return resources.files("ptrnet").joinpath(f"data/{name}").read_bytes()


@pytest.mark.parametrize(("task", "kind"), GOLDEN)
def test_numpy_decoding_reproduces_the_golden_outputs_of_pytorch(task: str, kind: str) -> None:
    card = trained.card(task)["models"][kind]
    golden = json.loads((REPO / card["golden"]).read_bytes())
    params = weights.shipped(f"{task}_{kind}")
    spec = tasks.SPECS[task]
    trained_sizes = card["hyper_parameters"]["max_n"] - card["hyper_parameters"]["min_n"] + 1
    assert len({len(c["points"]) for c in golden["cases"]}) >= min(3, trained_sizes)  # several sizes, if it knows them
    for case in golden["cases"]:
        x = np.array(case["points"])[None]
        steps = len(case["probs"])
        choices, probs = decoding.greedy(params, x, rule="tour" if spec.constrained else "free", max_steps=steps)
        assert choices[0, :steps].tolist() == case["choices"]
        assert np.abs(probs[0, :steps] - np.array(case["probs"])).max() < 1e-4


@pytest.mark.parametrize("task", SHIPPED_TASKS)
def test_shipped_weights_are_int8_rows_and_described_by_their_card(task: str) -> None:
    card = trained.card(task)
    for model, entry in card["models"].items():
        data = _data(f"{task}_{model}.npz")
        with np.load(io.BytesIO(data)) as f:
            matrices = [k for k in f.files if f[k].ndim == 2 and not k.endswith(weights.SCALE)]
            assert matrices and all(
                f[k].dtype == np.int8 and f[k + weights.SCALE].shape == (f[k].shape[0], 1) for k in matrices
            )
            assert all(f[k].dtype == np.float32 for k in f.files if f[k].ndim < 2 or k.endswith(weights.SCALE))
        assert entry["bytes"] == len(data)
        assert entry["parameters"] == sum(v.size for v in weights.shipped(f"{task}_{model}").values())
        for key in ("trainer", "hardware", "hyper_parameters", "steps", "wall_seconds", "history", "metrics"):
            assert entry[key] not in (None, "", [], {}), key


def test_the_attention_baseline_exposes_the_attention_weights_pytorch_computed() -> None:
    golden = record_json(trained.card("hull")["models"]["attention"]["golden"].rsplit("/", 1)[1])
    params = weights.shipped("hull_attention")
    for case in golden["cases"]:
        x = np.array(case["points"])[None]
        keys, h, c = L.encode(params, x, np.ones(x.shape[:2], dtype=bool))
        inputs, prev = L.decoder_inputs(params, x), None
        for token, attention in zip(case["choices"], case["attention"], strict=True):
            h, c = L.decoder_state(params, inputs, prev, h, c)
            a = L.attention_weights(params, keys, h)[0]
            assert np.abs(a - np.array(attention)).max() < 1e-4 and a.sum() == pytest.approx(1.0, abs=1e-12)
            prev = np.array([token])


# ---------------------------------------------------------------- handlers of demos 1 and 4


def test_hull_steps_real_is_a_valid_greedy_decoding(reference: dict) -> None:
    for mask in (False, True):
        res = api.dispatch("hull-steps", "real", {"points": reference["points"], "mask": mask})
        n = len(reference["points"])
        assert res["hull"] == reference["hull"]
        assert 1 <= len(res["steps"]) <= 2 * n + 2
        prev, chosen = 0, []
        for step in res["steps"]:
            p = np.array(step["probs"])
            assert len(p) == n + 1 and abs(p.sum() - 1.0) < 1e-6 and (p >= 0).all()  # float32 on the pages
            assert step["input"] == prev
            choice = step["choice"]
            assert (choice if choice > 0 else n + 1) - 1 == int(p.argmax())
            if mask and chosen:
                assert all(p[j - 1] == 0.0 for j in set(chosen) - {chosen[0], 0})
            chosen.append(choice)
            prev = choice
        ended = res["steps"][-1]["choice"] == 0
        assert res["ended"] == ended
        assert res["output"] == canonical_hull(chosen[:-1] if ended else chosen)  # steps: as emitted


def test_hull_steps_real_solves_the_reference_example(reference: dict) -> None:
    res = api.dispatch("hull-steps", "real", {"points": reference["points"]})
    assert res["output"] == reference["hull"] and res["ended"]


def test_the_model_summary_comes_from_the_card() -> None:
    summary = models.card_summary("hull")
    card = trained.card("hull")["models"]["ptrnet"]
    assert summary["hidden"] == card["hyper_parameters"]["hidden"] and summary["steps"] == card["steps"]
    assert summary["greedy"]["5"] == card["metrics"]["ptrnet_5"]["greedy"]["accuracy"]


def test_slots_real_answers_with_both_models_at_five_points() -> None:
    points = [[0.1, 0.1], [0.9, 0.2], [0.5, 0.5], [0.8, 0.9], [0.2, 0.8]]
    res = api.dispatch("slots", "real", {"points": points})
    assert res["hull"] == [1, 2, 4, 5, 1]
    assert res["ptrnet"] == res["hull"]
    assert all(t in L.VOCAB for t in res["seq2seq"]) and res["seq2seq_reason"] is None
    seven = api.dispatch("slots", "real", {"points": [*points, [0.3, 0.3], [0.6, 0.1]]})
    assert seven["seq2seq"] is None and HANGUL.search(seven["seq2seq_reason"])
    assert all(1 <= j <= 7 for j in seven["ptrnet"])


@pytest.mark.parametrize("n", [3, 4])
def test_slots_real_runs_the_seq2seq_on_fewer_points_than_it_learned_on_and_says_so(n: int) -> None:
    rng = np.random.default_rng(n)
    for _ in range(20):
        points = rng.random((n, 2)).round(3).tolist()
        res = api.dispatch("slots", "real", {"points": points})
        assert res["seq2seq"] == trained.seq2seq_tokens(points) and res["seq2seq_reason"] is None
        assert f"점 {n}개는 처음 보는 입력" in res["text"]["seq2seq_note"]
        absent = [t for t in res["seq2seq"] if t.isdigit() and int(t) > n]
        assert all(f"{t}" in res["text"]["seq2seq_note"] for t in absent)
        if absent:  # an answer naming a point that is not there is never right
            assert res["correct"]["seq2seq"] is False


@pytest.mark.parametrize(
    ("demo", "params"),
    [
        ("hull-steps", {}),
        ("hull-steps", {"points": []}),
        ("hull-steps", {"points": [[0.5, 0.5]] * 13}),
        ("hull-steps", {"points": [[0.5, 0.5]], "mask": "yes"}),
        ("hull-steps", {"points": [[0.5, 1.5]]}),
        ("slots", {"points": [[0.1, 0.1], [0.2, 0.2]]}),
        ("slots", {"points": [[0.1, 0.1], [0.2, 0.2], [0.3, float("nan")]]}),
    ],
)
def test_real_handlers_reject_bad_input_in_korean(demo: str, params: dict) -> None:
    with pytest.raises(api.InputError) as err:
        api.dispatch(demo, "real", params)
    assert HANGUL.search(str(err.value))


# ---------------------------------------------------------------- the companion page's three models


@pytest.mark.parametrize("seed", range(6))
def test_three_problems_gives_each_models_answer_and_its_mistakes(seed: int) -> None:
    from scipy.spatial import Delaunay

    rng = np.random.default_rng(seed)
    points = rng.random((int(rng.integers(3, 13)), 2)).round(4).tolist()
    n = len(points)
    res = api.dispatch("three-problems", "solve", {"points": points})
    hull = res["model_hull"]
    assert all(1 <= j <= n for j in hull)
    edges = lambda seq: {frozenset(e) for e in zip(seq, seq[1:], strict=False) if e[0] != e[1]}  # noqa: E731
    assert {frozenset(e) for e in res["hull_wrong_edges"]} == edges(hull) - edges(res["hull"])
    tour = res["model_tsp"]
    assert tour[0] == tour[-1] == 1 and sorted(tour[:-1]) == list(range(1, n + 1)) and tour[1] <= tour[-2]
    length = sum(math.dist(points[a - 1], points[b - 1]) for a, b in zip(tour, tour[1:], strict=False))
    assert res["model_tsp_length"] == pytest.approx(length) and res["tsp_ratio"] == pytest.approx(
        length / res["tsp_length"]
    )
    assert res["tsp_ratio"] >= 1 - 1e-12
    truth = {tuple(sorted(t)) for t in Delaunay(np.array(points)).simplices + 1}  # scipy: general position here
    model = {tuple(t) for t in res["model_delaunay"]}
    assert {tuple(t) for t in res["delaunay_wrong"]} == model - truth
    assert {tuple(t) for t in res["delaunay_missed"]} == truth - model
    for name in ("A1", "A2"):
        base = res["baselines"][name]
        assert sorted(base["tour"][:-1]) == list(range(1, n + 1)) and base["length"] >= res["tsp_length"] - 1e-12


@pytest.mark.parametrize("seed", range(4))
def test_three_problems_says_right_or_wrong_and_writes_its_numbers_for_the_page(seed: int) -> None:
    rng = np.random.default_rng(100 + seed)
    points = rng.random((int(rng.integers(8, 13)), 2)).round(3).tolist()
    res = api.dispatch("three-problems", "solve", {"points": points, "student": True})
    right = {
        "hull": res["model_hull"] == res["hull"],
        "tsp": res["model_tsp_length"] <= res["tsp_length"] * (1 + 1e-9),
        "delaunay": not res["delaunay_wrong"] and not res["delaunay_missed"],
    }
    assert res["model_correct"] == right
    said = res["text"]["verdicts"]
    assert (said["hull"] == "정답과 같습니다") == right["hull"]
    assert (said["delaunay"] == "정답과 같은 삼각형들입니다") == right["delaunay"]
    excess = f"최적보다 {100 * (res['tsp_ratio'] - 1):.1f}\u00a0% 깁니다"
    assert said["tsp"] == ("최적 순회입니다" if right["tsp"] else excess)
    text = res["text"]
    assert text["tsp_length"] == f"{res['tsp_length']:.4f}" and text["tsp_ratio"] == f"{res['tsp_ratio']:.3f}"
    assert text["model_tsp_length"] == f"{res['model_tsp_length']:.4f}"
    a1 = res["baselines"]["A1"]["length"]
    assert text["a1_length"] == f"{a1:.4f}" and text["a2_length"] == f"{res['baselines']['A2']['length']:.4f}"
    assert text["a1_tour"].endswith(f" (길이 {a1:.4f})")
    student = res["model_tsp_a1_length"]
    assert text["model_tsp_a1"].endswith(f" (길이 {student:.4f}, 최적의 {student / res['tsp_length']:.3f}배)")
    alone = api.dispatch("three-problems", "solve", {"points": points})  # the A1-taught model runs only when asked
    assert alone["model_tsp_a1"] is None and "model_tsp_a1" not in alone["text"]
    assert {k: v for k, v in alone.items() if "a1" not in k and k != "text"} == {
        k: v for k, v in res.items() if "a1" not in k and k != "text"
    }
    voted = api.dispatch("three-problems", "solve", {"points": points, "vote": True})
    assert voted["text"]["votes"]["hull"] == f"대칭 그림 8개 중 {voted['model_votes']['hull']}개가 낸 답"


def test_a_tour_longer_than_the_optimum_is_said_to_be_so_by_how_much(monkeypatch) -> None:
    real = trained.answer
    crossed = lambda task, points, vote=False: ([1, 3, 2, 4, 1], None) if task == "tsp" else real(task, points, vote)  # noqa: E731
    monkeypatch.setattr(trained, "answer", crossed)
    res = api.dispatch("three-problems", "solve", {"points": [[0.1, 0.1], [0.9, 0.1], [0.9, 0.9], [0.1, 0.9]]})
    assert res["model_correct"]["tsp"] is False and res["tsp_ratio"] == pytest.approx((2 + 2 * math.sqrt(2)) / 4)
    assert res["text"]["verdicts"]["tsp"] == "최적보다 20.7\u00a0% 깁니다"


def test_demo_four_needs_three_points() -> None:
    with pytest.raises(api.InputError, match="3개부터"):
        api.dispatch("hull-steps", "real", {"points": [[0.1, 0.2], [0.3, 0.4]]})


def test_weights_the_page_could_not_fetch_leave_the_exact_answers_and_a_korean_note(monkeypatch) -> None:
    path = str(resources.files("ptrnet").joinpath("data/tsp_ptrnet.npz"))

    def missing(name, dtype):
        if name == "tsp_ptrnet":
            raise ptrnet.MissingData(path)
        return real(name, dtype)

    real = weights._load_shipped
    monkeypatch.setattr(weights, "_load_shipped", missing)
    points = [[0.1, 0.2], [0.8, 0.3], [0.5, 0.9], [0.4, 0.4]]
    assert api.call("three-problems", "solve", {"points": points})["error"] == {
        "kind": "missing",
        "message": "학습한 가중치를 아직 받지 않았습니다.",
        "missing": [path],
    }
    res = api.call("three-problems", "solve", {"points": points}, unavailable=[path])["result"]
    assert res["tsp"] == tsp_sequence(points) and res["hull"] == hull_sequence(points)
    assert "model_tsp" not in res and HANGUL.search(res["model_notes"]["tsp"])
    assert "model_hull" in res and "model_delaunay" in res
    assert api.call("hull-steps", "real", {"points": points}, unavailable=[path])["ok"]  # its model is not missing
    monkeypatch.setattr(weights, "_load_shipped", lambda name, dtype: missing("tsp_ptrnet", dtype))
    refused = api.call("hull-steps", "real", {"points": points}, unavailable=[path])["error"]
    assert refused["kind"] == "input" and "내려받지 못했습니다" in refused["message"]


def test_a_first_call_names_every_declared_weight_file_at_once_and_runs_nothing(monkeypatch, tmp_path) -> None:
    """The site's wheel has no weights: one reply lists all the files the handler declares, before it runs, and a
    call that names them unavailable runs once and answers without those models."""
    monkeypatch.setattr(weights, "_path", lambda name: tmp_path / f"{name}.npz")
    monkeypatch.setattr(weights, "_load_shipped", lambda name, dtype: (_ for _ in ()).throw(ptrnet.MissingData(name)))
    ran = []
    monkeypatch.setattr(companion, "three_models", lambda *a, **k: ran.append(1) or {"text": {}})
    points = [[0.1, 0.2], [0.8, 0.3], [0.5, 0.9], [0.4, 0.4]]
    three = [str(tmp_path / f"{task}_ptrnet.npz") for task in tasks.SPECS]
    assert api.call("three-problems", "solve", {"points": points})["error"]["missing"] == three
    asked = {"points": points, "student": True}  # the A1-taught model's tour
    reply = api.call("three-problems", "solve", asked)
    wanted = [*three, str(tmp_path / "tsp_ptrnet_a1.npz")]
    assert reply["error"]["kind"] == "missing" and reply["error"]["missing"] == wanted and ran == []
    assert api.call("three-problems", "solve", asked, unavailable=wanted)["ok"] and ran == [1]
    assert api.call("slots", "solve", {"points": points, "models": False})["ok"]  # declares nothing without models
    wanted = [str(tmp_path / f"{name}.npz") for name in ("hull_ptrnet", "hull_seq2seq")]
    assert api.call("slots", "solve", {"n": 5})["error"]["missing"] == wanted  # the baseline answers at n <= 5 only
    assert api.call("slots", "solve", {"n": 3})["error"]["missing"] == wanted
    assert api.call("slots", "solve", {"n": 8})["error"]["missing"] == wanted[:1]
    assert api.call("slots", "real", {"points": points + [[0.9, 0.9]]})["error"]["missing"] == wanted
    assert api.call("slots", "real", {"points": points})["error"]["missing"] == wanted
    six = [*points, [0.9, 0.9], [0.2, 0.7]]
    assert api.call("slots", "real", {"points": six})["error"]["missing"] == wanted[:1]
    assert api.call("slots", "real", {"points": 7})["error"]["kind"] == "input"
