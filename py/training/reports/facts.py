"""The numbers and sentences the pages state about our models, made from the results JSONs and model cards."""

from __future__ import annotations

import json
from pathlib import Path

from ptrnet.formats import RATIO_DIGITS, TABLE_DIGITS, area, count, fixed, josa, percent, span
from ptrnet.learn.hull_trainer import Recipe
from training.paths import PACKAGE_DATA, RECORDS
from training.reports.cards import hardware_in_korean
from training.reports.tables import paper_ratio, reference_kind, row_model

FACT_TASKS = ("hull", "tsp", "delaunay")
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
        return area(metrics)
    value = metrics[_METRICS[task][metric]]
    if metric == "length":
        return fixed(value, TABLE_DIGITS)
    if metric == "ratio":
        return fixed(value, RATIO_DIGITS)
    return percent(value)


_RECIPE_WORDS = {  # a Recipe field as the implementation note names it
    "batch": "배치",
    "lr": "처음 학습률",
    "seed": "시드",
    "warmup": "처음에 n = 5만 쓰는 갱신",
    "forget_bias": "망각 게이트 편향",
}


def _recipe_change(name: str, value: str) -> str:
    """One changed Recipe field in Korean: 'batch=32' -> '배치 32'."""
    if name == "leftmost":
        return "가장 왼쪽 꼭짓점부터" if float(value) else "가장 작은 번호부터 (표기 순서)"
    return f"{_RECIPE_WORDS[name]} {value}"


def _recipe_facts(path: Path) -> dict[str, str]:
    """The trainer recipe runs, in the order they were recorded."""
    if not path.exists():
        raise FactsError(f"{path} is missing: run `python -m training.trainers.hull_recipe --record`.")
    facts = {}
    for k, run in enumerate(json.loads(path.read_text()).values(), start=1):
        changes = " · ".join(_recipe_change(*item.split("=")) for item in run["recipe"].split(","))
        reached = count(run["reached_at"]) if run["reached_at"] else f"{count(run['updates'])}회 안에 못 닿음"
        facts |= {f"trainer.recipe.r{k}.setting": changes, f"trainer.recipe.r{k}.reached": reached}
        facts[f"trainer.recipe.r{k}.cpu"] = f"{run['cpu_s']:.1f}"
    default = Recipe()
    facts |= {f"trainer.default.{name}": f"{getattr(default, name):g}" for name in ("batch", "lr", "lr_final")}
    return facts


def page_facts(records: Path = RECORDS, package_data: Path = PACKAGE_DATA) -> dict[str, str]:
    """Every number the pages may state about our trained models, {key: text}, made from the results JSONs and
    model cards that `python -m training evaluate` writes. A page asks for one with
    <span class="fact" data-fact="KEY"></span>; the build fills it in (sitebuild.pages.write_facts).

    Key scheme (task: hull, tsp, delaunay; model: a results row key without its '_<n>', e.g. ptrnet, seq2seq;
    N: a test size the results JSON holds):
      <task>.<model>.<decoding>.<metric>.n<N>  decoding greedy, beam, vote (the symmetry vote),
          beam_probable (TSP: the beam's most probable tour, the paper's pick, beside ours: the shortest) or
          greedy_mask, beam_mask (hull: no point named twice before the polygon closes);
          metric hull: accuracy, area (FAIL where over 1 % of the outputs are not simple), not_simple;
          tsp: length (mean tour), ratio (to the reference tour), valid; delaunay: accuracy, coverage
          (삼각형 포함률). Percentages with one decimal, two where that would round to 100 %;
          lengths with two decimals, ratios with three.    e.g. hull.ptrnet.greedy.accuracy.n50 -> '67.9 %'
      <task>.<model>.train_n.n<N>, <task>.<model>.sets.n<N>  the row's training sizes ('5–50') and set count
      tsp.<model>.optimal.length.n<N>, tsp.<model>.A1.length.n<N> (A2, A3)  the reference tour and our
          baselines on that row's sets; tsp.optimal.length.n<N>, tsp.A1.length.n<N>… where every model's
          row at N agrees                                                   e.g. tsp.optimal.length.n10 -> '2.87'
      tsp.<model>.A1.ratio.n<N> (A2, A3)  our baseline over the reference tour on that row's sets
      paper.tsp.<method>.ratio.n<N>  the paper's tour length over its optimum (method ptrnet, A1, A2, A3; n <= 20)
      tsp.<model>.reference.n<N>  what the reference tour is (Held-Karp, LKH-3, 공개 파일: the paper's file)
      <task>.<model>.beam_width  the beam width of the evaluation
      hull.attention.peak.n<N>, .mass.n<N>, .chance.n<N>  over the attention seq2seq's greedy steps that output
          a point: the share whose attention peaks on that point, the mean attention on it, and the mean that
          uniform attention would put there (ptrnet.pointer.attention)
      hull.attention.short_run.<measure>.n<N> (measure accuracy, peak, mass, chance), .short_run.steps  the
          same at the last weights a separate short run kept (attention_over_training), and that step;
          .short_run.every (the steps measured), .short_run.same_log_until (its log equals the shipped one up to here)
      <task>.<model>.hidden, .steps (training iterations, '115,624'), .hours (this run's wall time, '1.5'),
          .kb (the shipped weights), .parameters, .train_n  from the model card
      hull.ptrnet.demo.accuracy.n<N>  greedy accuracy at the demos' sizes 3–12 (generated sets)
      paper.<task>.ptrnet.<metric>.n<N>  the paper's number beside that row (section 7), same formats;
          paper.tsp.ptrnet.train_n.n<N>; paper.hull.<model>.accuracy.n<N>  the paper's baselines
          (seq2seq_5, seq2seq_10, seq2seq_50, attention), also where we have no row    e.g. …attention.accuracy.n50
      trainer.recipe.r<K>.setting, .reached, .cpu  the K-th short run of the page's trainer recipe search
          (training.trainers.hull_recipe): its changes to the defaults, the updates to 50 % exact at n = 5
          ('3,000회 안에 못 닿음' where it did not) and the CPU seconds it took; trainer.default.batch, .lr,
          .lr_final  the trainer's Recipe defaults
    A missing results JSON or model card raises FactsError.
    """
    facts: dict[str, str] = _recipe_facts(records / "trainer_recipes.json")
    for task in FACT_TASKS:
        res_path, card_path = records / f"{task}_results.json", package_data / f"{task}_model_card.json"
        for path in (res_path, card_path):
            if not path.exists():
                raise FactsError(f"{path} is missing: run `python -m training evaluate`.")
        res, card = json.loads(res_path.read_text()), json.loads(card_path.read_text())
        shared: dict[str, set[str]] = {}
        for key, row in res["ours"].items():
            model, n = row_model(key), row["test_n"]
            for decoding in ("greedy", "beam", "vote", "beam_probable", "greedy_mask", "beam_mask"):
                for metric in _METRICS[task]:
                    if decoding in row:
                        facts[f"{task}.{model}.{decoding}.{metric}.n{n}"] = _fact_value(task, metric, row[decoding])
            facts[f"{task}.{model}.train_n.n{n}"] = span(row["train_n"])
            facts[f"{task}.{model}.sets.n{n}"] = count(row["lines"])
            for measure in ("peak", "mass", "chance"):
                if f"attention_{measure}" in row:
                    facts[f"{task}.{model}.{measure}.n{n}"] = percent(row[f"attention_{measure}"])
            if "beam_width" in row:
                facts[f"{task}.{model}.beam_width"] = str(row["beam_width"])
            if task == "tsp":
                lengths = {"optimal": row["greedy"]["optimal"], **row["baselines"]}
                for name, value in lengths.items():
                    facts[f"tsp.{model}.{name}.length.n{n}"] = fixed(value, TABLE_DIGITS)
                    shared.setdefault(f"tsp.{name}.length.n{n}", set()).add(fixed(value, TABLE_DIGITS))
                for name, value in row["baselines"].items():
                    facts[f"tsp.{model}.{name}.ratio.n{n}"] = fixed(value / row["greedy"]["optimal"], RATIO_DIGITS)
                facts[f"tsp.{model}.reference.n{n}"] = reference_kind(res, row)
            paper = res["paper"].get(key)
            if paper and model == "ptrnet":
                for metric, field in _METRICS[task].items():
                    if task == "tsp" and metric == "length":
                        facts[f"paper.tsp.ptrnet.length.n{n}"] = fixed(paper["ptrnet"], TABLE_DIGITS)
                    elif task == "hull" and metric == "area":
                        facts[f"paper.hull.ptrnet.area.n{n}"] = percent(paper["area_coverage"])
                    elif field in paper:
                        facts[f"paper.{task}.ptrnet.{metric}.n{n}"] = percent(paper[field])
                if task == "tsp":
                    facts[f"paper.tsp.ptrnet.train_n.n{n}"] = span(paper.get("train_n", n))
                    for method in ("ptrnet", "A1", "A2", "A3"):
                        if (ratio := paper_ratio(paper, method)) is not None:
                            facts[f"paper.tsp.{method}.ratio.n{n}"] = fixed(ratio, RATIO_DIGITS)
        facts |= {k: next(iter(v)) for k, v in shared.items() if len(v) == 1}
        facts |= _paper_baselines(task, res["paper"]) | _short_run(res.get("attention_over_training"))
        for model, m in card["models"].items():
            cfg = m["hyper_parameters"]
            facts |= {
                f"{task}.{model}.hidden": str(cfg["hidden"]),
                f"{task}.{model}.steps": count(m["steps"]),
                f"{task}.{model}.hours": f"{m['wall_seconds'] / 3600:.1f}",
                f"{task}.{model}.kb": f"{m['bytes'] / 1024:.0f}",
                f"{task}.{model}.parameters": count(m["parameters"]),
            }
            if model != "seq2seq":  # the seq2seq baseline's card keeps the trainer's range; it saw n = 5 only
                facts[f"{task}.{model}.train_n"] = span(m["train_sizes"])
        for n, value in res.get("demo_sizes", {}).items():
            facts[f"{task}.ptrnet.demo.accuracy.n{n}"] = percent(value)
    return facts


def _paper_baselines(task: str, paper: dict) -> dict[str, str]:
    """The paper's accuracies of the models other than the Ptr-Net, by the results JSON's paper keys."""
    return {
        f"paper.{task}.{row_model(key)}.accuracy.n{key.rsplit('_', 1)[1]}": percent(row["accuracy"])
        for key, row in paper.items()
        if row_model(key) != "ptrnet" and "accuracy" in row
    }


def _short_run(run: dict | None) -> dict[str, str]:
    """The last kept step of the separate short attention seq2seq run, and what was measured there."""
    if not run:
        return {}
    last = run["rows"][-1]
    facts = {
        "hull.attention.short_run.steps": count(last["step"]),
        "hull.attention.short_run.every": count(run["measured_every"]),
        "hull.attention.short_run.same_log_until": count(run["same_log_as_shipped_until"]),
    }
    for size, measured in last.items():
        if size != "step":
            facts |= {f"hull.attention.short_run.{k}.{size}": percent(v) for k, v in measured.items()}
    return facts


TASK_NAMES = {"hull": "볼록 껍질", "tsp": "외판원 문제", "delaunay": "들로네 삼각분할"}


def training_line(task: str, card: dict) -> str:
    """One Korean sentence of facts about a task's shipped Ptr-Net, from its model card."""
    m = card["models"]["ptrnet"]
    cfg = m["hyper_parameters"]
    start, earlier = "", m.get("earlier_runs", [])
    if earlier:
        sizes = sorted({r["hyper_parameters"]["hidden"] for r in earlier})
        runs = [[r for r in earlier if r["hyper_parameters"]["hidden"] == h] for h in sizes]
        parts = [
            f"{josa(f'은닉 {h}', '로')} {sum(r['steps'] for r in rs):,}번"
            f"({sum(r['wall_seconds'] for r in rs) / 3600:.1f}시간)"
            for h, rs in zip(sizes, runs, strict=True)
        ]
        widened = "넓혀 " if sizes[-1] < cfg["hidden"] else ""
        start = f", 앞서 {', '.join(parts)} 반복한 가중치를 {widened}이어서"
    elif m["start_from"] != "uniform init":
        start = ", 앞서 학습한 가중치에서 이어서"
    return (
        f"{TASK_NAMES[task]}: 은닉 {cfg['hidden']}, 점 {cfg['min_n']}–{cfg['max_n']}개, 배치 {cfg['batch']}, "
        f"{m['steps']:,}번 반복, {hardware_in_korean(m['hardware'])}에서 {m['wall_seconds'] / 3600:.1f}시간{start} "
        f"({m['trainer'].split(':')[0]}), 가중치 {m['bytes'] / 1024:.0f} KB"
    )
