"""What the [ptrnet-trainer] demo shows of the reader's Ptr-Net (ptrnet.learn.hull_trainer): the training numbers,
the last measured exact-match shares, and the model's answer on the reader's points over the exact hull, step by
step; every number and sentence written by ptrnet.formats."""

from __future__ import annotations

from collections.abc import Sequence

from ptrnet import formats
from ptrnet.geometry.notation import hull_sequence
from ptrnet.learn.hull_trainer import Trainer
from ptrnet.pointer import metrics
from ptrnet.views.models import hull_steps

LOSS_DIGITS = 3  # the training loss as the demo writes it
LR_DIGITS = 2  # significant digits of the learning rate the schedule is at


def summary(t: Trainer, points: Sequence[Sequence[float]], accuracy: dict | None) -> dict:
    """The model's state, the shares last measured (n -> share, with the update they were measured at) and its
    answer on the points."""
    shares = None if accuracy is None else {str(n): s for n, s in accuracy["shares"].items()}
    return {
        "iteration": t.iteration,
        "loss": t.last_loss,
        "lr": t.lr(),
        "seed": t.recipe.seed,
        "hidden": t.recipe.hidden,
        "imported": t.imported,
        "accuracy": shares,
        "accuracy_at": None if accuracy is None else accuracy["iteration"],
        "answer": answer(t, points),
        "text": {
            "iteration": formats.count(t.iteration),
            "loss": formats.fixed(t.last_loss, LOSS_DIGITS),
            "lr": formats.significant(t.lr(), LR_DIGITS),
            "accuracy": {n: formats.percent(s) for n, s in (shares or {}).items()},
        },
    }


def answer(t: Trainer, points: Sequence[Sequence[float]]) -> dict:
    """The model's greedy decoding of the points, step by step, with the exact hull, the edges it lacks and a
    verdict."""
    exact = hull_sequence(points)
    decoded = hull_steps(points, False, t.params)
    output = decoded["output"]
    correct = metrics.hull_outcome(points, exact, output)["correct"]
    wrong = metrics.wrong_edges(exact, output)
    return decoded | {
        "points": [list(p) for p in points],
        "exact": exact,
        "wrong_edges": wrong,
        "correct": correct,
        "text": {
            "exact": formats.sequence(exact),
            "output": formats.sequence(output),
            "verdict": formats.hull_verdict(correct, len(wrong)),
        },
    }
