"""`python -m ptrnet.train evaluate`: measure the shipped models on fixed test sets and write, from those
measurements only, the results JSON, the model card and the README table of each task (CPython only)."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

from ptrnet import datasets, evaluation, symmetry, tasks, weights
from ptrnet.datasets import REPO, Example

CACHE = REPO / ".cache" / "test-sets"  # generated test sets, made once from their seeds
README = REPO / "README.md"

# (n, source): the paper's released file or one of our LKH-3 files (tests/data), or (count, seed) of a generated set
TEST_SETS: dict[str, dict[int, str | tuple[int, int]]] = {
    "hull": {
        5: "convex_hull_5_test.txt",
        10: (1000, 1010),
        20: (1000, 1020),
        50: (1000, 1050),
        100: (1000, 1100),
        200: (1000, 1200),
        500: (200, 1500),
    },
    "tsp": {
        5: (10000, 2005),
        10: "tsp_10_test_exact.txt",
        **{int(name.split("_")[1]): name for name in datasets.LKH_SETS},  # n = 20, 25, 30, 40, 50
    },
    "delaunay": {5: (1000, 3005), 10: (1000, 3010)},
}
TEACHERS = {"ptrnet_a1": "A1"}  # model kinds taught by an approximate algorithm's tours instead of the optimum
TEACHER_SIZES = (20, 50)  # the test sizes of those models (trained at n = 20; the paper's A1 row is at n = 50)
VOTE = (
    "symmetry vote: the majority answer of 8 greedy decodings of the points mirrored and quarter-turned in the "
    "unit square (ptrnet.symmetry; test-time augmentation, not the paper's decoding)"
)
DEMO_SIZES = range(3, 13)  # demo 4 and the companion page take 3-12 points: the hull model's accuracy at each
DEMO_SIZE_SETS = (1000, 4000)  # (count, seed base) of those generated sets: seed = base + n
PAPER = {  # SPEC section 7: the rows of the paper's tables that ours stand beside
    "hull": {
        "ptrnet_5": {"accuracy": 0.920, "area_coverage": 0.996},
        "ptrnet_10": {"accuracy": 0.870, "area_coverage": 0.998},
        "ptrnet_50": {"accuracy": 0.696, "area_coverage": 0.999},
        "ptrnet_100": {"accuracy": 0.503, "area_coverage": 0.999},
        "ptrnet_200": {"accuracy": 0.221, "area_coverage": 0.999},
        "ptrnet_500": {"accuracy": 0.013, "area_coverage": 0.992},
        "seq2seq_5": {"accuracy": 0.877, "area_coverage": 0.996},
    },
    "tsp": {
        "ptrnet_5": {"optimal": 2.12, "A1": 2.18, "A2": 2.12, "A3": 2.12, "ptrnet": 2.12},
        "ptrnet_10": {"optimal": 2.87, "A1": 3.07, "A2": 2.87, "A3": 2.87, "ptrnet": 2.88},
        "ptrnet_20": {"optimal": 3.83, "A1": 4.24, "A2": 3.86, "A3": 3.85, "ptrnet": 3.88, "train_n": "5-20"},
        "ptrnet_25": {"A1": 4.71, "A2": 4.27, "A3": 4.24, "ptrnet": 4.30, "train_n": "5-20"},
        "ptrnet_30": {"A1": 5.11, "A2": 4.63, "A3": 4.60, "ptrnet": 4.72, "train_n": "5-20"},
        "ptrnet_40": {"A1": 5.82, "A2": 5.27, "A3": 5.23, "ptrnet": 5.91, "train_n": "5-20"},
        "ptrnet_50": {"A1": 6.46, "A2": 5.84, "A3": 5.79, "ptrnet": 7.66, "train_n": "5-20"},
        "ptrnet_a1_50": {"A1": 6.46, "A2": 5.84, "A3": 5.79, "ptrnet": 6.42, "train_n": "50"},
    },
    "delaunay": {
        "ptrnet_5": {"accuracy": 0.807, "triangle_coverage": 0.930},
        "ptrnet_10": {"accuracy": 0.226, "triangle_coverage": 0.813},
    },
}
ARCHITECTURE = {
    "ptrnet": "LSTM encoder over (x, y); LSTM decoder from the encoder's final state, fed a learned start vector "
    "then the chosen point's (x, y); additive attention u_j = v.tanh(W1 e_j + W2 d_i) over the n points "
    "plus a learned end state e_0 (slot ⇐) is the output distribution",
    "seq2seq": "LSTM encoder over the 5 points; LSTM decoder fed the one-hot of the previous token (⇒ first); "
    "fixed softmax over {1..5, ⇒, ⇐}",
}
NOTATION = {
    "hull": "hull vertices, smallest index first, counter-clockwise, start repeated, then ⇐",
    "tsp": "optimal tour from P1 back to P1 (second city smaller than the second-to-last), then ⇐",
    "delaunay": "Delaunay triangles sorted by incenter (x, then y), each named counter-clockwise from its leftmost "
    "corner, flattened, then ⇐ (the notation's triangles in its order; read back as ascending triples)",
}
TAUGHT = NOTATION | {  # what each Ptr-Net is trained to emit (ptrnet.tasks.SPECS[task].taught), where not the label
    "hull": "hull vertices counter-clockwise from the leftmost (then lowest) one, start repeated, then ⇐; the answer "
    "is read from its smallest index (the notation) before it is scored or shown",
}
METRICS = {
    "hull": "accuracy: exact match with the true sequence; area_coverage: mean output area / true hull area over "
    "simple outputs; area_fail: more than 1 % of outputs are not simple polygons",
    "tsp": "mean tour length (every output must be a valid tour); reference tour: Held-Karp (n = 5), the "
    "released file's exact tours (n = 10) or LKH-3 (n = 20 and above; reference_kind says which); ratio: mean of "
    "each tour's length over its reference's; A1 nearest neighbour, A2 farthest insertion, A3 Christofides",
    "delaunay": "accuracy: output triangle set equals the true one; triangle_coverage: mean share of the true "
    "triangles present in the output",
}


def test_set(task: str, n: int) -> tuple[list[Example], str]:
    """The examples of one test set and a line saying where they come from."""
    source = TEST_SETS[task][n]
    if source in datasets.LKH_SETS:
        return datasets.official(source), f"{source}: our set, tours by LKH-3 (tests/data/{source}.gz)"
    if isinstance(source, str):
        return datasets.official(source), f"{source}: the paper's released test set (tests/data/{source}.gz)"
    count, seed = source
    return (
        datasets.generated(task, n, count, seed, CACHE),
        f"generated: tasks.generate({task!r}, {n}, {count}, seed={seed}), labelled by our exact solver",
    )


def models_of(task: str, weights_dir: Path) -> list[str]:
    """Shipped model kinds of a task: the Ptr-Net, for the hull the n = 5 seq2seq baseline, for TSP the Ptr-Net
    taught by A1."""
    kinds = {"hull": ["ptrnet", "seq2seq"], "tsp": ["ptrnet", *TEACHERS]}.get(task, ["ptrnet"])
    return [k for k in kinds if (weights_dir / f"{task}_{k}.npz").exists()]


def _reference_kind(task: str, n: int) -> str:
    """What the reference tour of a TSP test set is."""
    source = TEST_SETS[task][n]
    return "LKH-3" if source in datasets.LKH_SETS else "공개 파일" if isinstance(source, str) else "Held-Karp"


def _test_sizes(model: str, task: str) -> list[int]:
    """The test sizes a model kind is measured at."""
    return [5] if model == "seq2seq" else list(TEACHER_SIZES) if model in TEACHERS else list(TEST_SETS[task])


def evaluate(task: str, weights_dir: Path, out_dir: Path) -> dict:
    """Measure every shipped model of a task with greedy and beam decoding; write results, card, README table."""
    spec = tasks.SPECS[task]
    rows: dict[str, dict] = {}
    sources = {}
    for model in models_of(task, weights_dir):
        params = weights.load(weights_dir / f"{task}_{model}.npz")
        record = _record(weights_dir, task, model)
        cfg = record["config"]
        span = f"{cfg['min_n']}-{cfg['max_n']}" if cfg["min_n"] != cfg["max_n"] else str(cfg["min_n"])
        train_n = "5" if model == "seq2seq" else span
        for n in _test_sizes(model, task):
            examples, sources[str(n)] = test_set(task, n)
            t = time.perf_counter()
            row = {
                "method": "Ptr-Net" if model.startswith("ptrnet") else "LSTM seq2seq",
                "train_n": train_n,
                "test_n": n,
                "lines": len(examples),
                "greedy": evaluation.measure(params, task, examples, 1),
            }
            if model.startswith("ptrnet"):
                row |= {
                    "beam_width": spec.beam_width,
                    "beam": evaluation.measure(params, task, examples, spec.beam_width),
                }
                if task in symmetry.TASKS:
                    row["vote"] = evaluation.measure(params, task, examples, 1, vote=True)
            if task == "tsp":
                row |= {"baselines": evaluation.baseline_lengths(examples), "reference_kind": _reference_kind(task, n)}
            if model in TEACHERS:
                row["taught_by"] = TEACHERS[model]
            rows[f"{model}_{n}"] = row | {"seconds": round(time.perf_counter() - t, 1)}
    results = {
        "task": task,
        "notation": NOTATION[task],
        "ours": rows,
        "paper": PAPER[task],
        "test_sets": sources,
        "metric_notes": METRICS[task],
    }
    if task == "hull" and "ptrnet_5" in rows:
        results["demo_sizes"] = demo_size_accuracy(weights.load(weights_dir / "hull_ptrnet.npz"))
    (out_dir / f"{task}_results.json").write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n")
    card = model_card(task, weights_dir, rows)
    if "demo_sizes" in results:
        card["models"]["ptrnet"]["demo_sizes"] = {
            "accuracy_greedy": results["demo_sizes"],
            "sets": f"generated: {DEMO_SIZE_SETS[0]} per n, seed {DEMO_SIZE_SETS[1]} + n",
        }
    (out_dir / f"{task}_model_card.json").write_text(json.dumps(card, indent=1, ensure_ascii=False) + "\n")
    write_readme_table(results)
    return results


def demo_size_accuracy(params: dict) -> dict[str, float]:
    """Greedy exact-match accuracy of the hull Ptr-Net at every size the demos take (generated sets)."""
    count, base = DEMO_SIZE_SETS
    out = {}
    for n in DEMO_SIZES:
        examples = datasets.generated("hull", n, count, base + n, CACHE)
        out[str(n)] = evaluation.accuracy(examples, evaluation.decode_all(params, "hull", [p for p, _ in examples]))
    return out


def _record(weights_dir: Path, task: str, model: str) -> dict:
    """The training record exported next to the weights (settings, steps, wall time, hardware, history)."""
    return dict(json.loads((weights_dir / f"{task}_{model}_training.json").read_text()))


def model_card(task: str, weights_dir: Path, rows: dict) -> dict:
    """Data, seeds, hyper-parameters, wall time, hardware and the measured metrics of each shipped model."""
    card: dict = {
        "task": task,
        "notation": NOTATION[task],
        "weights_dtype": "int8 matrices with a float32 scale per row; float32 vectors",
        "decoding": f"greedy and beam search (width {tasks.SPECS[task].beam_width}), "
        + ("constrained to valid tours" if tasks.SPECS[task].constrained else "unconstrained")
        + (f"; and, apart, {VOTE}" if task in symmetry.TASKS else ""),
        "models": {},
    }
    for model in models_of(task, weights_dir):
        npz = weights_dir / f"{task}_{model}.npz"
        rec = _record(weights_dir, task, model)
        cfg = rec["config"]
        card["models"][model] = {
            "file": f"data/{npz.name}",
            "bytes": npz.stat().st_size,
            "parameters": int(sum(v.size for v in weights.load(npz).values())),
            "architecture": ARCHITECTURE[model.split("_")[0]],
            "trainer": rec["trainer"],
            "hardware": rec["device"],
            "start_from": rec["start_from"],
            "earlier_runs": _earlier_runs(rec),
            "hyper_parameters": cfg,
            "steps": rec["step"],
            "wall_seconds": rec["wall"],
            "data": {
                "train": _train_data(model, cfg, rec),
                "points": "uniform in [0, 1]^2, rounded to 8 decimals (ptrnet.tasks.random_points)",
                "labels": _labels(task, model),
            },
            "golden": f"data/{golden_name(task, model)}" if model.startswith("ptrnet") else None,
            "history": rec["history"],
            "metrics": {k: v for k, v in rows.items() if _key_model(k) == model},
        }
    return card


def _earlier_runs(rec: dict) -> list[dict]:
    """The runs whose weights a model's training started from, newest first (training records keep them)."""
    runs = []
    while rec.get("earlier"):
        rec = rec["earlier"]
        runs.append(
            {
                "steps": rec["step"],
                "wall_seconds": rec["wall"],
                "hardware": rec["device"],
                "start_from": rec["start_from"],
                "hyper_parameters": rec["config"],
            }
        )
    return runs


TASK_NAMES = {"hull": "볼록 껍질", "tsp": "외판원 문제", "delaunay": "들로네 삼각분할"}


def training_line(task: str, card: dict) -> str:
    """One Korean sentence of facts about a task's shipped Ptr-Net, from its model card."""
    m = card["models"]["ptrnet"]
    cfg = m["hyper_parameters"]
    start, earlier = "", m.get("earlier_runs", [])
    if earlier:
        steps, hours = sum(r["steps"] for r in earlier), sum(r["wall_seconds"] for r in earlier) / 3600
        before = earlier[0]["hyper_parameters"]["hidden"]
        weights_then = f"은닉 {before} 가중치를 넓혀" if before < cfg["hidden"] else "가중치에서"
        start = f", 앞서 {steps:,}번 반복({hours:.1f}시간) 학습한 {weights_then} 이어서"
    elif m["start_from"] != "uniform init":
        start = ", 앞서 학습한 가중치에서 이어서"
    return (
        f"{TASK_NAMES[task]}: 은닉 {cfg['hidden']}, 점 {cfg['min_n']}–{cfg['max_n']}개, 배치 {cfg['batch']}, "
        f"{m['steps']:,}번 반복, {_hardware_in_korean(m['hardware'])}에서 {m['wall_seconds'] / 3600:.1f}시간{start} "
        f"({m['trainer'].split(':')[0]}), 가중치 {m['bytes'] / 1024:.0f} KB"
    )


def cpu_device(threads: int) -> str:
    """Both trainers' device line for a CPU run ('CPU, 1 thread', 'CPU, 2 threads'), read back by _hardware_in_korean."""
    return f"CPU, {threads} thread{'s' if threads > 1 else ''}"


def _hardware_in_korean(device: str) -> str:
    """The trainer's device line for a Korean sentence: 'CPU, 2 threads' -> 'CPU 2스레드'; GPU names unchanged."""
    return re.sub(r"CPU, (\d+) threads?", r"CPU \1스레드", device)


def _labels(task: str, model: str) -> str:
    """What a model was taught."""
    if model in TEACHERS:
        return (
            f"only {TEACHERS[model]}'s tours (ptrnet.baselines.ALGORITHMS[{TEACHERS[model]!r}], our nearest neighbour "
            "from P1) in the order it visits the cities, back to P1, then ⇐"
        )
    labels = "ptrnet.tasks.SPECS[{task!r}].{kind}: {text}"
    if model == "ptrnet":
        text = labels.format(task=task, kind="taught", text=TAUGHT[task])
        return text + (
            "; optimal tours by Held-Karp up to 12 cities, LKH-3 above (py/training/lkh.py)" if task == "tsp" else ""
        )
    return labels.format(task=task, kind="label", text=NOTATION[task])


def golden_name(task: str, model: str) -> str:
    """The golden outputs' file of a Ptr-Net kind (py/training/ptr_export writes it there)."""
    return f"{task}_golden.json" if model == "ptrnet" else f"{task}_{model}_golden.json"


def _train_data(model: str, cfg: dict, rec: dict) -> str:
    """Where a model's training batches came from."""
    if model == "seq2seq":
        return "fresh batches per update: n = 5"
    batches = f"batches of {cfg['batch']}, one n per batch, n uniform in {cfg['min_n']}..{cfg['max_n']}"
    if cfg.get("data"):
        return (
            f"{batches}, drawn at random from a fixed pool of {rec['pool_per_n']:,} labelled examples per n "
            f"(py/training/ptr_torch.py make-data)"
        )
    return f"{batches}, every batch freshly generated"


PERCENT_SPACE = " "  # between a number and its % sign in the tables; the pages' prose uses a no-break space


def percent(v: float | None, space: str = PERCENT_SPACE) -> str:
    """A share as a percentage with one decimal, or two where one would round to 100 % (SPEC section 4):
    0.961 -> '96.1 %', 0.9996 -> '99.96 %', 1.0 -> '100.00 %'; '–' if missing."""
    if v is None:
        return "–"
    one = f"{100 * v:.1f}"
    return f"{one if one != '100.0' else f'{100 * v:.2f}'}{space}%"


def _area(metrics: dict, space: str = PERCENT_SPACE) -> str:
    """Area coverage as a percentage, or FAIL when over 1 % of the outputs are not simple polygons."""
    return "FAIL" if metrics["area_fail"] else percent(metrics["area_coverage"], space)


def _span(train_n: str) -> str:
    """A training range as the pages write it: '5-50' -> '5–50'."""
    return str(train_n).replace("-", "–")


def _model_name(row: dict, brief: bool = False) -> str:
    """A results row's model: its method, and who taught it where not the exact labels ('taught_by': 'A1');
    in the page's visible table the seq2seq baseline is 'LSTM', as the paper's table names it."""
    method = "LSTM" if brief and row["method"] == "LSTM seq2seq" else row["method"]
    return method + (f", {row['taught_by']}로 학습" if row.get("taught_by") else "")


def reference_kind(results: dict, row: dict) -> str:
    """What a TSP row's reference tour is: the row's own 'reference_kind' (e.g. 'Held-Karp', 'LKH-3') where the
    evaluation wrote one, else the exact tours of the paper's released file or our Held-Karp."""
    if row.get("reference_kind"):
        return str(row["reference_kind"])
    source = results.get("test_sets", {}).get(str(row["test_n"]), "")
    return "공개 파일" if "released test set" in source else "Held-Karp"


def _key_model(key: str) -> str:
    """The model part of a results row key: 'ptrnet_50' -> 'ptrnet', 'ptrnet_a1_50' -> 'ptrnet_a1'."""
    return key.rsplit("_", 1)[0]


def markdown_rows(results: dict, brief: bool = False) -> list[list[str]]:
    """A task's results table, header row first: the README's and the implementation notes' full table, or
    (brief) the page's visible one: the paper's columns with ours beside them, greedy and beam.

    Made from the rows the results JSON holds, in its order: a new test size, a new model (a row key
    '<model>_<n>', with 'taught_by' where the labels were not exact) or a TSP 'reference_kind' needs no change here.
    """
    task, ours, paper = results["task"], results["ours"], results["paper"]
    if task == "hull":
        return _hull_rows(ours, paper, brief)
    if task == "tsp":
        return _tsp_rows(results, brief)
    return _delaunay_rows(ours, paper, brief)


def _hull_rows(ours: dict, paper: dict, brief: bool) -> list[list[str]]:
    kinds = ["논문", "탐욕", "빔"] + ([] if brief else ["대칭 투표"])
    head = ["모델", "학습 n", "시험 n", *(f"정확도 ({k})" for k in kinds), *(f"면적 ({k})" for k in kinds)]
    rows = [head + ([] if brief else ["세트 수"])]
    for key, r in ours.items():
        p, beam, vote = paper.get(key, {}), r.get("beam"), r.get("vote")
        ours_kinds = [r["greedy"], beam] + ([] if brief else [vote])
        row = [_model_name(r, brief), _span(r["train_n"]), str(r["test_n"]), percent(p.get("accuracy"))]
        row += [percent(m["accuracy"]) if m else "–" for m in ours_kinds]
        row += [percent(p.get("area_coverage")), *(_area(m) if m else "–" for m in ours_kinds)]
        rows.append(row + ([] if brief else [f"{r['lines']:,}"]))
    return rows


EXACT = ("Held-Karp", "공개 파일")  # reference tours that are optimal; LKH-3's are the best known


def _tsp_rows(results: dict, brief: bool) -> list[list[str]]:
    ours, paper = results["ours"], results["paper"]
    several = len({_model_name(r) for r in ours.values()}) > 1
    kinds = [reference_kind(results, r) for r in ours.values()]
    say_which = not brief or any(k not in EXACT for k in kinds)  # the visible table names it where not optimal
    head = (["모델"] if several else []) + ["학습 n", "시험 n"]
    head += ["기준 해 (방법)", "기준 해 (길이)"] if say_which else ["최적"]
    head += ["A1", "A2", "A3", "Ptr-Net (탐욕)", "Ptr-Net (빔)"]
    head += [] if brief else ["Ptr-Net (빔 ÷ 기준)", "Ptr-Net (올바른 순회)"]
    head += ["논문 (길이)", "논문 (학습 n)"] + ([] if brief else ["세트 수"])
    rows = [head]
    for (key, r), kind in zip(ours.items(), kinds, strict=True):
        p, b = paper.get(key, {}), r["baselines"]
        row = ([_model_name(r)] if several else []) + [_span(r["train_n"]), str(r["test_n"])]
        row += ([kind] if say_which else []) + [f"{r['greedy']['optimal']:.2f}"]
        row += [f"{b[a]:.2f}" for a in ("A1", "A2", "A3")]
        row += [f"{r['greedy']['mean_length']:.2f}", f"{r['beam']['mean_length']:.2f}"]
        if not brief:
            row += [f"{r['beam']['ratio']:.3f}", percent(r["beam"]["valid"])]
        row += [f"{p['ptrnet']:.2f}" if p else "–", _span(p.get("train_n", r["test_n"])) if p else "–"]
        rows.append(row + ([] if brief else [f"{r['lines']:,}"]))
    return rows


def _delaunay_rows(ours: dict, paper: dict, brief: bool) -> list[list[str]]:
    kinds = ["논문", "탐욕", "빔"] + ([] if brief else ["대칭 투표"])
    head = ["학습 n", "시험 n", *(f"정확도 ({k})" for k in kinds), *(f"삼각형 포함률 ({k})" for k in kinds)]
    rows = [head + ([] if brief else ["세트 수"])]
    for key, r in ours.items():
        p = paper.get(key, {})
        ours_kinds = [r["greedy"], r["beam"]] + ([] if brief else [r.get("vote", {})])
        row = [_span(r["train_n"]), str(r["test_n"]), percent(p.get("accuracy"))]
        row += [percent(m.get("accuracy")) for m in ours_kinds]
        row += [percent(p.get("triangle_coverage")), *(percent(m.get("triangle_coverage")) for m in ours_kinds)]
        rows.append(row + ([] if brief else [f"{r['lines']:,}"]))
    return rows


DATA = Path(__file__).resolve().parent / "data"  # the results JSONs and model cards the evaluation writes
FACT_TASKS = ("hull", "tsp", "delaunay")
NBSP = "\u00a0"
_METRICS = {  # fact metric -> (the key in a results JSON's metrics, how it is written)
    "hull": {"accuracy": "accuracy", "area": None, "not_simple": "not_simple"},
    "tsp": {"length": "mean_length", "ratio": "ratio", "valid": "valid"},
    "delaunay": {"accuracy": "accuracy", "coverage": "triangle_coverage"},
}


class FactsError(ValueError):
    """A results JSON or model card the facts need is missing or incomplete."""


def _fact_value(task: str, metric: str, metrics: dict) -> str:
    """One measured metric as the pages write it."""
    if metric == "area":
        return _area(metrics, NBSP)
    value = metrics[_METRICS[task][metric]]
    if metric == "length":
        return f"{value:.2f}"
    if metric == "ratio":
        return f"{value:.3f}"
    return percent(value, NBSP)


def page_facts(data_dir: Path = DATA) -> dict[str, str]:
    """Every number the pages may state about our trained models, {key: text}, made from the results JSONs and
    model cards that `python -m ptrnet.train evaluate` writes. A page asks for one with
    <span class="fact" data-fact="KEY"></span>; the build fills it in (sitebuild.pages.write_facts).

    Key scheme (task: hull, tsp, delaunay; model: a results row key without its '_<n>', e.g. ptrnet, seq2seq;
    N: a test size the results JSON holds):
      <task>.<model>.<decoding>.<metric>.n<N>  decoding greedy, beam or vote (the symmetry vote);
          metric hull: accuracy, area (FAIL where over 1 % of the outputs are not simple), not_simple;
          tsp: length (mean tour), ratio (to the reference tour), valid; delaunay: accuracy, coverage
          (삼각형 포함률). Percentages with one decimal, two where that would round to 100 %;
          lengths with two decimals, ratios with three.    e.g. hull.ptrnet.greedy.accuracy.n50 -> '67.9 %'
      <task>.<model>.train_n.n<N>, <task>.<model>.sets.n<N>  the row's training sizes ('5–50') and set count
      tsp.<model>.optimal.length.n<N>, tsp.<model>.A1.length.n<N> (A2, A3)  the reference tour and our
          baselines on that row's sets; tsp.optimal.length.n<N>, tsp.A1.length.n<N>… where every model's
          row at N agrees                                                   e.g. tsp.optimal.length.n10 -> '2.87'
      tsp.<model>.reference.n<N>  what the reference tour is (Held-Karp, LKH-3, 공개 파일: the paper's file)
      <task>.<model>.beam_width  the beam width of the evaluation
      <task>.<model>.hidden, .steps (training iterations, '115,624'), .hours (this run's wall time, '1.5'),
          .kb (the shipped weights), .parameters, .train_n  from the model card
      hull.ptrnet.demo.accuracy.n<N>  greedy accuracy at the demos' sizes 3–12 (generated sets)
      paper.<task>.ptrnet.<metric>.n<N>  the paper's number beside that row (section 7), same formats;
          paper.tsp.ptrnet.train_n.n<N>
    A missing results JSON or model card raises FactsError.
    """
    facts: dict[str, str] = {}
    for task in FACT_TASKS:
        res_path, card_path = data_dir / f"{task}_results.json", data_dir / f"{task}_model_card.json"
        for path in (res_path, card_path):
            if not path.exists():
                raise FactsError(f"{path} is missing: run `python -m ptrnet.train evaluate`.")
        res, card = json.loads(res_path.read_text()), json.loads(card_path.read_text())
        shared: dict[str, set[str]] = {}
        for key, row in res["ours"].items():
            model, n = _key_model(key), row["test_n"]
            for decoding in ("greedy", "beam", "vote"):
                for metric in _METRICS[task]:
                    if decoding in row:
                        facts[f"{task}.{model}.{decoding}.{metric}.n{n}"] = _fact_value(task, metric, row[decoding])
            facts[f"{task}.{model}.train_n.n{n}"] = _span(row["train_n"])
            facts[f"{task}.{model}.sets.n{n}"] = f"{row['lines']:,}"
            if "beam_width" in row:
                facts[f"{task}.{model}.beam_width"] = str(row["beam_width"])
            if task == "tsp":
                lengths = {"optimal": row["greedy"]["optimal"], **row["baselines"]}
                for name, value in lengths.items():
                    facts[f"tsp.{model}.{name}.length.n{n}"] = f"{value:.2f}"
                    shared.setdefault(f"tsp.{name}.length.n{n}", set()).add(f"{value:.2f}")
                facts[f"tsp.{model}.reference.n{n}"] = reference_kind(res, row)
            paper = res["paper"].get(key)
            if paper and model == "ptrnet":
                for metric, field in _METRICS[task].items():
                    if task == "tsp" and metric == "length":
                        facts[f"paper.tsp.ptrnet.length.n{n}"] = f"{paper['ptrnet']:.2f}"
                    elif task == "hull" and metric == "area":
                        facts[f"paper.hull.ptrnet.area.n{n}"] = percent(paper["area_coverage"], NBSP)
                    elif field in paper:
                        facts[f"paper.{task}.ptrnet.{metric}.n{n}"] = percent(paper[field], NBSP)
                if task == "tsp":
                    facts[f"paper.tsp.ptrnet.train_n.n{n}"] = _span(paper.get("train_n", n))
        facts |= {k: next(iter(v)) for k, v in shared.items() if len(v) == 1}
        for model, m in card["models"].items():
            cfg = m["hyper_parameters"]
            facts |= {
                f"{task}.{model}.hidden": str(cfg["hidden"]),
                f"{task}.{model}.steps": f"{m['steps']:,}",
                f"{task}.{model}.hours": f"{m['wall_seconds'] / 3600:.1f}",
                f"{task}.{model}.kb": f"{m['bytes'] / 1024:.0f}",
                f"{task}.{model}.parameters": f"{m['parameters']:,}",
            }
            if model != "seq2seq":  # the seq2seq baseline's card keeps the trainer's range; it saw n = 5 only
                facts[f"{task}.{model}.train_n"] = f"{cfg['min_n']}–{cfg['max_n']}"
        for n, value in res.get("demo_sizes", {}).items():
            facts[f"{task}.ptrnet.demo.accuracy.n{n}"] = percent(value, NBSP)
    return facts


def write_readme_table(results: dict, readme: Path = README) -> None:
    """Replace the README's table between the task's markers with one made from results."""
    start, end = f"<!-- results:{results['task']} -->", f"<!-- /results:{results['task']} -->"
    rows = markdown_rows(results)
    table = "\n".join("| " + " | ".join(r) + " |" for r in [rows[0], ["---"] * len(rows[0]), *rows[1:]])
    text = readme.read_text()
    if start not in text:
        return
    pattern = re.compile(re.escape(start) + ".*?" + re.escape(end), re.S)
    readme.write_text(pattern.sub(lambda _: f"{start}\n{table}\n{end}", text))
