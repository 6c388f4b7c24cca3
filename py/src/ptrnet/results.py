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

# (n, source): the paper's released file, or (count, seed) of a generated set
TEST_SETS: dict[str, dict[int, str | tuple[int, int]]] = {
    "hull": {5: "convex_hull_5_test.txt", 10: (1000, 1010), 20: (1000, 1020), 50: (1000, 1050), 100: (1000, 1100)},
    "tsp": {5: (10000, 2005), 10: "tsp_10_test_exact.txt", 20: (200, 2020)},
    "delaunay": {5: (1000, 3005), 10: (1000, 3010)},
}
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
        "seq2seq_5": {"accuracy": 0.877, "area_coverage": 0.996},
    },
    "tsp": {
        "ptrnet_5": {"optimal": 2.12, "A1": 2.18, "A2": 2.12, "A3": 2.12, "ptrnet": 2.12},
        "ptrnet_10": {"optimal": 2.87, "A1": 3.07, "A2": 2.87, "A3": 2.87, "ptrnet": 2.88},
        "ptrnet_20": {"optimal": 3.83, "A1": 4.24, "A2": 3.86, "A3": 3.85, "ptrnet": 3.88, "train_n": "5-20"},
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
    "tsp": "mean tour length (every output must be a valid tour); optimal: Held-Karp (n = 5, 20) or the "
    "released file's exact tours (n = 10); A1 nearest neighbour, A2 farthest insertion, A3 Christofides",
    "delaunay": "accuracy: output triangle set equals the true one; triangle_coverage: mean share of the true "
    "triangles present in the output",
}


def test_set(task: str, n: int) -> tuple[list[Example], str]:
    """The examples of one test set and a line saying where they come from."""
    source = TEST_SETS[task][n]
    if isinstance(source, str):
        return datasets.official(source), f"{source}: the paper's released test set (tests/data/{source}.gz)"
    count, seed = source
    return (
        datasets.generated(task, n, count, seed, CACHE),
        f"generated: tasks.generate({task!r}, {n}, {count}, seed={seed}), labelled by our exact solver",
    )


def models_of(task: str, weights_dir: Path) -> list[str]:
    """Shipped model kinds of a task: the Ptr-Net, and for the hull the n = 5 seq2seq baseline."""
    kinds = ["ptrnet", "seq2seq"] if task == "hull" else ["ptrnet"]
    return [k for k in kinds if (weights_dir / f"{task}_{k}.npz").exists()]


def evaluate(task: str, weights_dir: Path, out_dir: Path) -> dict:
    """Measure every shipped model of a task with greedy and beam decoding; write results, card, README table."""
    spec = tasks.SPECS[task]
    rows: dict[str, dict] = {}
    sources = {}
    for model in models_of(task, weights_dir):
        params = weights.load(weights_dir / f"{task}_{model}.npz")
        record = _record(weights_dir, task, model)
        cfg = record["config"]
        train_n = "5" if model == "seq2seq" else f"{cfg['min_n']}-{cfg['max_n']}"
        for n in [5] if model == "seq2seq" else TEST_SETS[task]:
            examples, sources[str(n)] = test_set(task, n)
            t = time.perf_counter()
            row = {
                "method": "Ptr-Net" if model == "ptrnet" else "LSTM seq2seq",
                "train_n": train_n,
                "test_n": n,
                "lines": len(examples),
                "greedy": evaluation.measure(params, task, examples, 1),
            }
            if model == "ptrnet":
                row |= {
                    "beam_width": spec.beam_width,
                    "beam": evaluation.measure(params, task, examples, spec.beam_width),
                }
                if task in symmetry.TASKS:
                    row["vote"] = evaluation.measure(params, task, examples, 1, vote=True)
            if task == "tsp":
                row["baselines"] = evaluation.baseline_lengths(examples)
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
            "architecture": ARCHITECTURE[model],
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
                "labels": f"ptrnet.tasks.SPECS[{task!r}].taught: {TAUGHT[task]}"
                if model == "ptrnet"
                else f"ptrnet.tasks.SPECS[{task!r}].label: {NOTATION[task]}",
            },
            "golden": f"data/{task}_golden.json" if model == "ptrnet" else None,
            "history": rec["history"],
            "metrics": {k: v for k, v in rows.items() if k.startswith(model)},
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
        start = f", 앞서 {steps:,}걸음({hours:.1f}시간) 학습한 {weights_then} 이어서"
    elif m["start_from"] != "uniform init":
        start = ", 앞서 학습한 가중치에서 이어서"
    return (
        f"{TASK_NAMES[task]}: 은닉 {cfg['hidden']}, 점 {cfg['min_n']}–{cfg['max_n']}개, 배치 {cfg['batch']}, "
        f"{m['steps']:,}걸음, {_hardware_in_korean(m['hardware'])}에서 {m['wall_seconds'] / 3600:.1f}시간{start} "
        f"({m['trainer'].split(':')[0]}), 가중치 {m['bytes'] / 1024:.0f} KB"
    )


def cpu_device(threads: int) -> str:
    """Both trainers' device line for a CPU run ('CPU, 1 thread', 'CPU, 2 threads'), read back by _hardware_in_korean."""
    return f"CPU, {threads} thread{'s' if threads > 1 else ''}"


def _hardware_in_korean(device: str) -> str:
    """The trainer's device line for a Korean sentence: 'CPU, 2 threads' -> 'CPU 2스레드'; GPU names unchanged."""
    return re.sub(r"CPU, (\d+) threads?", r"CPU \1스레드", device)


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


def _pct(v: float | None) -> str:
    """A share as a percentage with one decimal, '–' if missing."""
    return "–" if v is None else f"{100 * v:.1f} %"


def _area(metrics: dict) -> str:
    """Area coverage as a percentage, or FAIL when over 1 % of the outputs are not simple polygons."""
    return "FAIL" if metrics["area_fail"] else _pct(metrics["area_coverage"])


def markdown_rows(results: dict) -> list[list[str]]:
    """The README/page table of a task's results: header row first."""
    task, ours, paper = results["task"], results["ours"], results["paper"]
    if task == "hull":
        rows = [
            [
                "모델",
                "학습 n",
                "시험 n",
                "정확도 (탐욕)",
                "정확도 (빔)",
                "면적 (탐욕)",
                "면적 (빔)",
                "정확도 (대칭 투표)",
                "면적 (대칭 투표)",
                "정확도 (논문)",
                "면적 (논문)",
            ]
        ]
        for key, r in ours.items():
            area = r["greedy"]
            rows.append(
                [
                    r["method"],
                    r["train_n"],
                    str(r["test_n"]),
                    _pct(area["accuracy"]),
                    _pct(r["beam"]["accuracy"]) if "beam" in r else "–",
                    _area(area),
                    _area(r["beam"]) if "beam" in r else "–",
                    _pct(r.get("vote", {}).get("accuracy")),
                    _area(r["vote"]) if "vote" in r else "–",
                    _pct(paper.get(key, {}).get("accuracy")),
                    _pct(paper.get(key, {}).get("area_coverage")),
                ]
            )
        return rows
    if task == "tsp":
        rows = [["시험 n", "최적", "A1", "A2", "A3", "Ptr-Net (탐욕)", "Ptr-Net (빔)", "논문 Ptr-Net"]]
        for key, r in ours.items():
            b, p = r["baselines"], paper.get(key, {})
            rows.append(
                [
                    str(r["test_n"]),
                    f"{r['greedy']['optimal']:.2f}",
                    *(f"{b[a]:.2f}" for a in ("A1", "A2", "A3")),
                    f"{r['greedy']['mean_length']:.2f}",
                    f"{r['beam']['mean_length']:.2f}",
                    f"{p['ptrnet']:.2f}" if p else "–",
                ]
            )
        return rows
    rows = [
        [
            "시험 n",
            "정확도 (탐욕)",
            "정확도 (빔)",
            "삼각형 포함률 (탐욕)",
            "포함률 (빔)",
            "정확도 (대칭 투표)",
            "포함률 (대칭 투표)",
            "정확도 (논문)",
            "포함률 (논문)",
        ]
    ]
    for key, r in ours.items():
        p = paper.get(key, {})
        rows.append(
            [
                str(r["test_n"]),
                _pct(r["greedy"]["accuracy"]),
                _pct(r["beam"]["accuracy"]),
                _pct(r["greedy"]["triangle_coverage"]),
                _pct(r["beam"]["triangle_coverage"]),
                _pct(r.get("vote", {}).get("accuracy")),
                _pct(r.get("vote", {}).get("triangle_coverage")),
                _pct(p.get("accuracy")),
                _pct(p.get("triangle_coverage")),
            ]
        )
    return rows


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
