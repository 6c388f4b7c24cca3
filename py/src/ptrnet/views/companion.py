"""What the companion page's [three-problems] demo shows of our trained Ptr-Nets (ptrnet.pointer.trained): each
one's answer over the exact one, its mistakes and a verdict (correct by ptrnet.pointer.metrics), the A1 / A2 tours,
the tour of the Ptr-Net taught by A1 and the hull of the reader's own Ptr-Net ([ptrnet-trainer]); every number and
sentence written by ptrnet.formats."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ptrnet import Unavailable, formats
from ptrnet.formats import LENGTH_DIGITS, RATIO_DIGITS
from ptrnet.geometry import baselines
from ptrnet.geometry.notation import canonical_tour, in_triangle_order
from ptrnet.geometry.tsp import tour_length
from ptrnet.pointer import metrics, symmetry, tasks, trained

if TYPE_CHECKING:  # the trainer's module is only loaded where the reader trains
    from ptrnet.learn.hull_trainer import Trainer

Points = Sequence[Sequence[float]]
UNSHIPPED = "이 문제의 학습된 모델이 아직 없습니다."
UNFETCHED = "학습한 가중치를 내려받지 못해 모델의 답을 보여 줄 수 없습니다(오프라인일 수 있습니다)."
NO_MINE = (
    "아직 학습시킨 모델이 없습니다. 아래 ‘내 브라우저에서 Ptr-Net 학습시키기’에서 학습을 시작하거나 가중치를 "
    "가져오면, 그 모델의 답이 여기에 나옵니다."
)


def _length(points: Points, tour: Sequence[int]) -> float:
    """The length of a closed 1-based tour (start repeated)."""
    return tour_length(points, [j - 1 for j in tour[:-1]])


def _ratio(length: float, optimal: float) -> float:
    """A tour's length over the optimal one's (1 where every point is one)."""
    return length / optimal if optimal > 0 else 1.0


def _hull_check(seq: list[int], points: Points, exact: dict) -> tuple[bool, list]:
    """Whether a hull answer is the true hull, and the edges the true hull lacks."""
    return metrics.hull_outcome(points, exact["hull"], seq)["correct"], metrics.wrong_edges(exact["hull"], seq)


def _hull(seq: list[int], points: Points, exact: dict) -> dict:
    """The hull Ptr-Net's answer, the edges the true hull lacks, and whether it is the true hull."""
    correct, wrong = _hull_check(seq, points, exact)
    return {
        "model_hull": seq,
        "hull_wrong_edges": wrong,
        "correct": correct,
        "text": {"model_hull": formats.sequence(seq), "verdict": formats.hull_verdict(correct, len(wrong))},
    }


def _tsp(seq: list[int], points: Points, exact: dict) -> dict:
    """The TSP Ptr-Net's tour, its length and ratio to the optimum, and whether it is an optimal tour."""
    outcome = metrics.tour_outcome(points, exact["tsp_length"], seq)
    ratio = _ratio(outcome["length"], exact["tsp_length"])
    verdict = "최적 순회입니다" if outcome["correct"] else f"최적보다 {formats.percent(ratio - 1)} 깁니다"
    return {
        "model_tsp": seq,
        "model_tsp_length": outcome["length"],
        "tsp_ratio": ratio,
        "correct": outcome["correct"],
        "text": {
            "model_tsp": formats.sequence(seq),
            "model_tsp_length": formats.fixed(outcome["length"], LENGTH_DIGITS),
            "tsp_ratio": formats.fixed(ratio, RATIO_DIGITS),
            "verdict": verdict,
        },
    }


def _delaunay(seq: list[int], points: Points, exact: dict) -> dict:
    """The Delaunay Ptr-Net's triangles, those the true triangulation lacks and those it missed, and whether they
    are exactly the true triangles."""
    tris = in_triangle_order(points, tasks.as_triangles(seq))
    truth = [list(t) for t in exact["delaunay"]]
    wrong, missed = metrics.wrong_triangles(truth, tris), metrics.wrong_triangles(tris, truth)
    correct = metrics.triangle_outcome([j for t in truth for j in t], seq)["correct"]
    verdict = "정답과 같은 삼각형들입니다" if correct else f"틀린 삼각형 {len(wrong)}개, 빠뜨린 삼각형 {len(missed)}개"
    return {
        "model_delaunay": tris,
        "delaunay_wrong": wrong,
        "delaunay_missed": missed,
        "correct": correct,
        "text": {"model_delaunay": formats.triangles(tris), "verdict": verdict},
    }


COMPARED = {"hull": _hull, "tsp": _tsp, "delaunay": _delaunay}


def three_models(points: Points, exact: dict, vote: bool = False, student: bool = False) -> dict:
    """The three Ptr-Nets' answers (model_hull, model_tsp, model_delaunay; absent, with a Korean note in
    model_notes, where no model ships or its weights could not be fetched) with their mistakes against the
    exact answers, whether each is right (model_correct; model_unavailable where weights could not be fetched),
    the tour length ratio and the A1 / A2 tours (with student, the A1-taught model's tour too: tours_beside);
    with vote, the hull and Delaunay answers are symmetry votes and model_votes says how many of the 8 images
    gave each. text holds all of it as the page writes it, with a verdict per model (text.verdicts) and the
    votes' share (text.votes)."""
    if not points:  # nothing to answer; the page keeps at least 3 points
        return _nothing()
    out: dict = {"model_notes": {}, "model_votes": {}, "model_correct": {}}
    text: dict = {"verdicts": {}, "votes": {}}
    for task in tasks.SPECS:
        if not trained.available(task):
            out["model_notes"][task] = UNSHIPPED
            continue
        try:
            seq, votes = trained.answer(task, points, vote)
        except Unavailable:
            out["model_unavailable"] = True  # the page offers to fetch again
            out["model_notes"][task] = UNFETCHED
            continue
        if votes is not None:
            out["model_votes"][task] = votes
            text["votes"][task] = f"대칭 그림 {len(symmetry.IMAGES)}개 중 {votes}개가 낸 답"
        compared = COMPARED[task](seq, points, exact)
        said = compared.pop("text")
        text["verdicts"][task] = said.pop("verdict")
        text |= said
        out["model_correct"][task] = compared.pop("correct")
        out |= compared
    tours = tours_beside(points, exact["tsp_length"], student)
    text |= tours.pop("text")
    return out | tours | {"text": text}


def mine_hull(points: Points, exact: dict, trainer: Trainer | None) -> dict:
    """The reader's hull Ptr-Net (the [ptrnet-trainer] instance's trainer; None where the page has none) decoded
    greedily like the shipped one: model_mine, the edges the true hull lacks, whether it is the true hull and a
    정답 / 오답 verdict; model_mine None with a Korean note where there is no trained or imported model yet."""
    if trainer is None or (trainer.iteration == 0 and not trainer.imported):
        return {"model_mine": None, "text": {"mine_note": NO_MINE}}
    seq = trained.hull_steps(trainer.params, points, False)["output"] if points else []
    correct, wrong = _hull_check(seq, points, exact)
    return {
        "model_mine": seq,
        "mine_wrong_edges": wrong,
        "mine_correct": correct,
        "text": {
            "model_mine": formats.sequence(seq),
            "mine_verdict": formats.hull_verdict(correct, len(wrong), formats.HULL_VERDICT_MINE),
        },
    }


def tours_beside(points: Points, optimal: float, student: bool = True) -> dict:
    """The A1 / A2 tours and their lengths, A1's tour in the notation and, with student, the tour of the Ptr-Net
    taught only by A1 with its length (None where not asked for or its weights could not be fetched)."""
    out: dict = {"baselines": {}, "model_tsp_a1": None, "model_tsp_a1_length": None}
    text = {}
    for name in ("A1", "A2"):
        tour = baselines.ALGORITHMS[name](points).tolist()
        closed = [j + 1 for j in [*tour, tour[0]]]
        out["baselines"][name] = {"tour": closed, "length": _length(points, closed)}
        text[f"{name.lower()}_length"] = formats.fixed(out["baselines"][name]["length"], LENGTH_DIGITS)
    out["a1_tour"] = canonical_tour(out["baselines"]["A1"]["tour"])
    a1 = formats.fixed(out["baselines"]["A1"]["length"], LENGTH_DIGITS)
    text["a1_tour"] = f"{formats.sequence(out['a1_tour'])} (길이 {a1})"
    if not student:
        return out | {"text": text}
    try:
        student = trained.student_tour(points)
    except Unavailable:
        return out | {"model_unavailable": True, "text": text | {"model_tsp_a1_note": UNFETCHED}}
    length = _length(points, student)
    times = formats.fixed(_ratio(length, optimal), RATIO_DIGITS)
    text["model_tsp_a1"] = (
        f"{formats.sequence(student)} (길이 {formats.fixed(length, LENGTH_DIGITS)}, 최적의 {times}배)"
    )
    return out | {"model_tsp_a1": student, "model_tsp_a1_length": length, "text": text}


def _nothing() -> dict:
    """The reply for no points at all: every answer empty."""
    return {
        "model_notes": {},
        "text": {"verdicts": {}, "votes": {}},
        "model_votes": {},
        "model_correct": {},
        "model_hull": [],
        "hull_wrong_edges": [],
        "model_tsp": [],
        "model_tsp_length": 0.0,
        "tsp_ratio": 1.0,
        "model_delaunay": [],
        "delaunay_wrong": [],
        "delaunay_missed": [],
        "baselines": {name: {"tour": [], "length": 0.0} for name in ("A1", "A2")},
        "a1_tour": [],
        "model_tsp_a1": [],
        "model_tsp_a1_length": 0.0,
    }
