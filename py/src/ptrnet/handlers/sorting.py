"""Demos 5 and 6: one sorter per demo instance (demo 6 names the demo 5 whose model it evaluates)."""

import numpy as np

from ptrnet import formats
from ptrnet.handlers.base import (
    INSTANCES,
    InputError,
    bool_param,
    handler,
    instance_param,
    int_param,
    snapshot_handlers,
)
from ptrnet.limits import MAX_EVAL_COUNT, MAX_SEED, MAX_SORTER_CHUNK, TEST_LENGTHS
from ptrnet.sorter import evaluation as sorter_eval
from ptrnet.sorter import trainer as sorter_trainer

TRAINERS: dict[str, sorter_trainer.Trainer] = INSTANCES["sorter"]


def _trainer(params: dict) -> sorter_trainer.Trainer:
    """The sorter of the request's instance, created with the default settings on first use."""
    name = instance_param(params)
    if name not in TRAINERS:
        TRAINERS[name] = sorter_trainer.Trainer()
    return TRAINERS[name]


def _summary(t: sorter_trainer.Trainer, accuracy: bool = True) -> dict:
    """What demo 5 shows besides the heat map, with its loss and accuracy written for the page; accuracy=False
    leaves out accuracy10 (a 150-sequence decode) unless diverged."""
    summary = {
        "iteration": t.iteration,
        "loss": t.loss_avg,
        "mask": t.config.mask,
        "seed": t.config.seed,
        "diverged": t.diverged,
        "text": {"loss": formats.fixed(t.loss_avg, formats.LOSS_DIGITS)},
    }
    if accuracy or t.diverged:
        summary["accuracy10"] = None if t.diverged else sorter_eval.accuracy(t.params, n=10, mask=t.config.mask)
        summary["text"]["accuracy10"] = formats.percent(summary["accuracy10"])
    return summary


@handler("sort-trainer", "reset")
def _sort_reset(params: dict) -> dict:
    """Re-initialise the model from a seed, with the mask setting given."""
    t = _trainer(params)
    t.set_mask(bool_param(params, "mask", t.config.mask))
    t.reset(int_param(params, "seed", t.config.seed, 0, MAX_SEED))
    return _summary(t)


@handler("sort-trainer", "train")
def _sort_train(params: dict) -> dict:
    """Run a chunk of training iterations; returns the chunk's losses and the summary without accuracy10.

    The accuracy would cost a chunk about as much as 8 iterations; the demo's view request, sent
    every 150 ms while training and once after it, carries it instead.
    """
    t = _trainer(params)
    chunk = t.train(int_param(params, "iterations", 25, 1, MAX_SORTER_CHUNK))
    losses = [float(v) for v in chunk["losses"]]
    return {**_summary(t, accuracy=False), "losses": losses, "start": t.iteration - len(losses)}


@handler("sort-trainer", "set_mask")
def _sort_set_mask(params: dict) -> dict:
    """Switch the mask for decoding and further training, keeping the weights."""
    t = _trainer(params)
    t.set_mask(bool_param(params, "mask", True))
    return _summary(t)


@handler("sort-trainer", "view")
def _sort_view(params: dict) -> dict:
    """The heat map of one test sequence (drawn from sample_seed) of the given length, its values written as labels."""
    t = _trainer(params)
    n = int_param(params, "length", 8, *TEST_LENGTHS)
    rng = np.random.default_rng(int_param(params, "sample_seed", 0, 0, MAX_SEED))
    x = [round(float(v), formats.SORT_VALUE_DIGITS) for v in rng.random(n)]
    heatmap = sorter_eval.heatmap(t.params, x, t.config.mask)
    heatmap["text"] = {"x": [formats.fixed(v, formats.SORT_VALUE_DIGITS) for v in x]}
    return {**_summary(t), "heatmap": heatmap}


@handler("length-eval", "evaluate")
def _length_eval(params: dict) -> dict:
    """Sequence accuracy, per-position accuracy and invalid rate of the shared model per length, each also written
    as a percentage for the page."""
    t = _trainer(params)
    lengths = params.get("lengths")
    if not isinstance(lengths, list) or not lengths:
        raise InputError("평가할 길이 목록(lengths)이 필요합니다.")
    checked = [int_param({"length": n}, "length", 0, *TEST_LENGTHS) for n in lengths]
    count = int_param(params, "count", sorter_eval.EVAL_COUNT, 1, MAX_EVAL_COUNT)
    seed = int_param(params, "seed", sorter_eval.EVAL_SEED, 0, MAX_SEED)
    result = sorter_eval.evaluate(t.params, checked, count=count, mask=t.config.mask, seed=seed)
    shares = {k: [float(v) for v in result[k]] for k in ("seq_acc", "pos_acc", "invalid")}
    return {
        **shares,
        "text": {k: [formats.percent(v) for v in values] for k, values in shares.items()},
        "lengths": checked,
        "mask": t.config.mask,
        "iteration": t.iteration,
    }


snapshot_handlers("sort-trainer", _trainer, _summary)
