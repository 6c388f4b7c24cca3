"""What the experiment runner [experiments] shows in words: the results table beside the paper's values, the
collinearity chart's labels and the failures in the notation, every number written by ptrnet.formats."""

from __future__ import annotations

from collections.abc import Callable

from ptrnet import formats
from ptrnet.experiments import runner
from ptrnet.formats import MEAN_LENGTH_DIGITS, RATIO_DIGITS, TABLE_DIGITS

Column = tuple[str, Callable[[dict], str]]  # heading, row -> cell


def _ours_area(row: dict) -> str:
    """Our area coverage, and beside FAIL the coverage of the simple outputs all the same."""
    fail = f" ({formats.percent(row['area_coverage'])})" if row["area_fail"] else ""
    return formats.area(row) + fail


def _reference(row: dict) -> str:
    """The mean reference tour length and what the reference is (Held-Karp or LKH-3)."""
    return f"{formats.fixed(row['reference'], MEAN_LENGTH_DIGITS)} ({row['reference_kind']})"


COLUMNS: dict[str, list[Column]] = {  # task -> our columns
    "hull": [
        ("정확도", lambda r: formats.percent(r["accuracy"])),
        ("넓이", _ours_area),
        ("단순하지 않은 출력", lambda r: formats.percent(r["not_simple"])),
    ],
    "tsp": [
        ("Ptr-Net 평균 길이", lambda r: formats.fixed(r["mean_length"], MEAN_LENGTH_DIGITS)),
        ("A1", lambda r: formats.fixed(r["a1"], MEAN_LENGTH_DIGITS)),
        ("A2", lambda r: formats.fixed(r["a2"], MEAN_LENGTH_DIGITS)),
        ("기준 해", _reference),
        ("Ptr-Net ÷ 기준", lambda r: formats.fixed(r["ratio"], RATIO_DIGITS)),
    ],
    "delaunay": [
        ("정확도", lambda r: formats.percent(r["accuracy"])),
        ("삼각형 포함률", lambda r: formats.percent(r["triangle_coverage"])),
    ],
}
PAPER_COLUMNS: dict[str, list[Column]] = {  # task -> the paper's columns, from its row at the same n
    "hull": [("논문 정확도", lambda p: formats.percent(p.get("accuracy"))), ("논문 넓이", formats.area)],
    "tsp": [
        ("논문 Ptr-Net", lambda p: formats.fixed(p.get("ptrnet"), TABLE_DIGITS)),
        ("논문 A1", lambda p: formats.fixed(p.get("A1"), TABLE_DIGITS)),
    ],
    "delaunay": [
        ("논문 정확도", lambda p: formats.percent(p.get("accuracy"))),
        ("논문 포함률", lambda p: formats.percent(p.get("triangle_coverage"))),
    ],
}


def table(model: str, rows: list[dict], paper: list[dict]) -> dict:
    """The results table as the page shows it: its heading row and, per size, n, the sets, our cells and the
    paper's (– where the paper has no row at that n)."""
    task = runner.MODELS[model].task
    ours, theirs = COLUMNS[task], PAPER_COLUMNS[task]
    by_n = {p["n"]: p for p in paper}
    body = []
    for row in rows:
        p = by_n.get(row["n"])
        cells = [cell(row) for _, cell in ours] + [cell(p) if p else formats.MISSING for _, cell in theirs]
        body.append([str(row["n"]), formats.count(row["sets"]), *cells])
    return {"head": ["n", "세트", *(title for title, _ in ours + theirs)], "rows": body}


def _distances(lo: float, hi: float | None) -> str:
    """A collinearity bin's range of distances."""
    return f"{lo:g} 이상" if hi is None else f"{lo:g}–{hi:g}"


def collinearity(chart: dict) -> dict:
    """The collinearity chart's words: each bin's label with its sets, its error rate, and the sets in all."""
    bins = zip(chart["bins"], chart["sets"], strict=True)
    return {
        "bins": [f"거리 {_distances(*b)} ({formats.count(s)}세트)" for b, s in bins],
        "error_rate": [formats.percent(r) for r in chart["error_rate"]],
        "total": f"세트 {formats.count(sum(chart['sets']))}개",
    }


def summary(model: str, summed: dict) -> dict:
    """runner.summary with the words the page shows: text.table and (hull models) text.collinearity."""
    text = {"table": table(model, summed["rows"], summed["paper"])}
    if "collinearity" in summed:
        text["collinearity"] = collinearity(summed["collinearity"])
    return summed | {"text": text}


def failures(model: str, found: list[dict]) -> list[dict]:
    """A chunk's failed sets with their true and model answers in the notation (text.truth, text.model)."""
    write = formats.triangles if runner.MODELS[model].task == "delaunay" else formats.sequence
    return [f | {"text": {"truth": write(f["truth"]), "model": write(f["model"])}} for f in found]
