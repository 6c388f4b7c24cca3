"""The results tables (README and pages) made from a results JSON, their numbers written by ptrnet.formats."""

from __future__ import annotations

import re
from pathlib import Path

from ptrnet import formats
from ptrnet.formats import RATIO_DIGITS, TABLE_DIGITS, span
from training.paths import README

PERCENT_SPACE = " "  # between a number and its % sign in the tables; the pages' prose uses formats.NBSP


def percent(v: float | None) -> str:
    """A share as the tables write it (formats.percent with a plain space)."""
    return formats.percent(v, PERCENT_SPACE)


def area(metrics: dict) -> str:
    """Area coverage as the tables write it, or FAIL (formats.area with a plain space)."""
    return formats.area(metrics, PERCENT_SPACE)


def length(v: float) -> str:
    """A tour length as the paper's tables give it."""
    return formats.fixed(v, TABLE_DIGITS)


def _model_name(row: dict, brief: bool = False) -> str:
    """A results row's model: its method, and who taught it where not the exact labels ('taught_by': 'A1');
    in the page's visible table the seq2seq baseline is 'LSTM', as the paper's table names it."""
    brief_names = {"LSTM seq2seq": "LSTM", "LSTM seq2seq + attention": "LSTM+어텐션"}
    method = brief_names.get(row["method"], row["method"]) if brief else row["method"]
    return method + (f", {row['taught_by']}로 학습" if row.get("taught_by") else "")


def reference_kind(results: dict, row: dict) -> str:
    """What a TSP row's reference tour is: the row's own 'reference_kind' (e.g. 'Held-Karp', 'LKH-3') where the
    evaluation wrote one, else the exact tours of the paper's released file or our Held-Karp."""
    if row.get("reference_kind"):
        return str(row["reference_kind"])
    source = results.get("test_sets", {}).get(str(row["test_n"]), "")
    return "공개 파일" if "released test set" in source else "Held-Karp"


def row_model(key: str) -> str:
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


MASKED = ["탐욕+마스크", "빔+마스크"]  # our hull decodings that never name a point twice before the polygon closes


def _hull_rows(ours: dict, paper: dict, brief: bool) -> list[list[str]]:
    kinds = ["논문", "탐욕", "빔"] + ([] if brief else ["대칭 투표", *MASKED])
    head = ["모델", "학습 n", "시험 n", *(f"정확도 ({k})" for k in kinds), *(f"넓이 ({k})" for k in kinds)]
    rows = [head + ([] if brief else ["세트 수"])]
    for key, r in ours.items():
        p, beam, vote = paper.get(key, {}), r.get("beam"), r.get("vote")
        ours_kinds = [r["greedy"], beam] + ([] if brief else [vote, r.get("greedy_mask"), r.get("beam_mask")])
        row = [_model_name(r, brief), span(r["train_n"]), str(r["test_n"]), percent(p.get("accuracy"))]
        row += [percent(m["accuracy"]) if m else formats.MISSING for m in ours_kinds]
        row += [area(p), *(area(m) if m else formats.MISSING for m in ours_kinds)]
        rows.append(row + ([] if brief else [formats.count(r["lines"])]))
    return rows


PAPERS_PICK = "Ptr-Net 빔·확률 최대"  # the paper's pick of the beam's tours: comparable with its column
OUR_PICK = "Ptr-Net 빔·최단 후보"  # our addition: the shortest of the beam's tours, which the paper did not pick
EXACT = ("Held-Karp", "공개 파일")  # reference tours that are optimal; LKH-3's are the best known


def _tsp_rows(results: dict, brief: bool) -> list[list[str]]:
    ours, paper = results["ours"], results["paper"]
    several = len({_model_name(r) for r in ours.values()}) > 1
    kinds = [reference_kind(results, r) for r in ours.values()]
    say_which = not brief or any(k not in EXACT for k in kinds)  # the visible table names it where not optimal
    head = (["모델"] if several else []) + ["학습 n", "시험 n"]
    head += ["기준 해 (방법)", "기준 해 (길이)"] if say_which else ["최적"]
    head += ["A1", "A2", "A3"] + ([] if brief else ["Ptr-Net (탐욕)"])
    head += [f"{PAPERS_PICK} (길이)", f"{PAPERS_PICK} (÷ 기준)", "논문 (길이)", "논문 (÷ 최적)", "논문 (학습 n)"]
    head += [f"{OUR_PICK} (길이)", f"{OUR_PICK} (÷ 기준)"] + ([] if brief else ["Ptr-Net (올바른 순회)", "세트 수"])
    rows = [head]
    for (key, r), kind in zip(ours.items(), kinds, strict=True):
        p, b = paper.get(key, {}), r["baselines"]
        row = ([_model_name(r)] if several else []) + [span(r["train_n"]), str(r["test_n"])]
        row += ([kind] if say_which else []) + [length(r["greedy"]["optimal"])]
        row += [length(b[a]) for a in ("A1", "A2", "A3")]
        row += [] if brief else [length(r["greedy"]["mean_length"])]
        probable, shortest = r["beam_probable"], r["beam"]
        row += [length(probable["mean_length"]), formats.fixed(probable["ratio"], RATIO_DIGITS)]
        row += [
            length(p["ptrnet"]) if p else formats.MISSING,
            formats.fixed(paper_ratio(p), RATIO_DIGITS),
            span(p.get("train_n", r["test_n"])) if p else formats.MISSING,
        ]
        row += [length(shortest["mean_length"]), formats.fixed(shortest["ratio"], RATIO_DIGITS)]
        rows.append(row + ([] if brief else [percent(shortest["valid"]), formats.count(r["lines"])]))
    return rows


def paper_ratio(paper_row: dict, method: str = "ptrnet") -> float | None:
    """A paper TSP row's tour length over its optimum, where the paper gives one (n <= 20)."""
    return paper_row[method] / paper_row["optimal"] if "optimal" in paper_row and method in paper_row else None


def _delaunay_rows(ours: dict, paper: dict, brief: bool) -> list[list[str]]:
    kinds = ["논문", "탐욕", "빔"] + ([] if brief else ["대칭 투표"])
    head = ["학습 n", "시험 n", *(f"정확도 ({k})" for k in kinds), *(f"삼각형 포함률 ({k})" for k in kinds)]
    rows = [head + ([] if brief else ["세트 수"])]
    for key, r in ours.items():
        p = paper.get(key, {})
        ours_kinds = [r["greedy"], r["beam"]] + ([] if brief else [r.get("vote", {})])
        row = [span(r["train_n"]), str(r["test_n"]), percent(p.get("accuracy"))]
        row += [percent(m.get("accuracy")) for m in ours_kinds]
        row += [percent(p.get("triangle_coverage")), *(percent(m.get("triangle_coverage")) for m in ours_kinds)]
        rows.append(row + ([] if brief else [formats.count(r["lines"])]))
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
