"""The [ptrnet-trainer] demo: the reader's hull Ptr-Net (ptrnet.learn.hull_trainer), one per demo instance, trained in
chunks, measured on the fixed validation sets, decoding the reader's points, exported and imported as .npz."""

import base64
import binascii
from dataclasses import dataclass, field, replace
from typing import Any

from ptrnet.handlers.base import (
    INSTANCES,
    InputError,
    handler,
    instance_param,
    int_param,
    model_points,
    snapshot_handlers,
)
from ptrnet.learn.hull_trainer import Evaluation, Trainer
from ptrnet.limits import (
    HULL_EXAMPLE,
    MAX_PTR_TRAIN_CHUNK,
    MAX_SEED,
    MAX_WEIGHTS_BYTES,
    MIN_MODEL_POINTS,
    TRAINER_HIDDEN,
)
from ptrnet.views import trainer as view

READERS: dict = INSTANCES["ptrnet-trainer"]  # instance -> Reader
BAD_FILE = "이 파일은 볼록 껍질 Ptr-Net의 가중치(.npz)가 아니어서 읽지 않았습니다. 지금 모델은 그대로입니다."


@dataclass
class Reader:
    """One demo instance: the model, the reader's points and the shares last measured."""

    trainer: Trainer = field(default_factory=Trainer)
    points: list = field(default_factory=lambda: [list(p) for p in HULL_EXAMPLE])
    accuracy: dict | None = None  # {"iteration": k, "shares": {n: share}}
    measuring: Evaluation | None = None  # the measurement under way, a chunk per evaluate request

    def summary(self) -> dict:
        """What the page shows of this instance."""
        return view.summary(self.trainer, self.points, self.accuracy) | {"evaluating": self.measuring is not None}

    def forget(self) -> None:
        """A new model: no shares yet, no measurement under way."""
        self.accuracy, self.measuring = None, None

    def snapshot(self) -> dict[str, Any]:
        """The model's whole training state, the points and the last shares."""
        shares = None if self.accuracy is None else {str(n): s for n, s in self.accuracy["shares"].items()}
        accuracy = None if shares is None else {"iteration": self.accuracy["iteration"], "shares": shares}
        return {"trainer": self.trainer.snapshot(), "points": self.points, "accuracy": accuracy}

    def restore(self, snap: dict[str, Any]) -> None:
        """Continue from a snapshot() bit for bit."""
        self.trainer.restore(snap["trainer"])
        self.measuring = None
        self.points = model_points({"points": snap["points"]}, MIN_MODEL_POINTS)
        saved = snap["accuracy"]
        self.accuracy = (
            None
            if saved is None
            else {
                "iteration": int(saved["iteration"]),
                "shares": {int(n): float(s) for n, s in saved["shares"].items()},
            }
        )


def _reader(params: dict) -> Reader:
    """The instance's Reader, created on first use; the request's points, where it sends some, become its points."""
    name = instance_param(params)
    if name not in READERS:
        READERS[name] = Reader()
    reader = READERS[name]
    if "points" in params:
        reader.points = model_points(params, MIN_MODEL_POINTS)
    return reader


@handler("ptrnet-trainer", "reset")
def _reset(params: dict) -> dict:
    """A fresh model from a seed and a width."""
    reader = _reader(params)
    t = reader.trainer
    seed = int_param(params, "seed", t.recipe.seed, 0, MAX_SEED)
    hidden = int_param(params, "hidden", TRAINER_HIDDEN[0], min(TRAINER_HIDDEN), max(TRAINER_HIDDEN))
    if hidden not in TRAINER_HIDDEN:
        raise InputError(f"hidden 값은 {', '.join(map(str, TRAINER_HIDDEN))} 가운데 하나여야 합니다.")
    t.reset(replace(t.recipe, seed=seed, hidden=hidden))
    reader.forget()
    return reader.summary()


@handler("ptrnet-trainer", "train")
def _train(params: dict) -> dict:
    """A chunk of Adam updates, then the summary."""
    reader = _reader(params)
    reader.trainer.train(int_param(params, "iterations", 10, 1, MAX_PTR_TRAIN_CHUNK))
    return reader.summary()


@handler("ptrnet-trainer", "evaluate")
def _evaluate(params: dict) -> dict:
    """One chunk of the exact-match measurement (a new one begins where none is under way), then the summary;
    the shares change once the whole measurement is done (summary["evaluating"] says whether it goes on)."""
    reader = _reader(params)
    reader.measuring = reader.measuring or Evaluation(reader.trainer)
    if reader.measuring.step():
        reader.accuracy = {"iteration": reader.measuring.iteration, "shares": reader.measuring.shares()}
        reader.measuring = None
    return reader.summary()


@handler("ptrnet-trainer", "view")
def _view(params: dict) -> dict:
    """The summary, for the request's points where it sends some."""
    return _reader(params).summary()


@handler("ptrnet-trainer", "export")
def _export(params: dict) -> dict:
    """The weights as a shipped-format .npz, base64."""
    return {"npz": base64.b64encode(_reader(params).trainer.export()).decode("ascii")}


@handler("ptrnet-trainer", "import")
def _import(params: dict) -> dict:
    """Use the weights of a .npz (base64); a Korean InputError, the model kept, where they are no hull Ptr-Net."""
    reader = _reader(params)
    data = params.get("npz")
    if not isinstance(data, str) or len(data) > 4 * MAX_WEIGHTS_BYTES // 3 + 4:
        raise InputError(BAD_FILE)
    try:
        reader.trainer.import_npz(base64.b64decode(data, validate=True))
    except (ValueError, binascii.Error) as err:
        raise InputError(BAD_FILE) from err
    reader.forget()
    return reader.summary()


snapshot_handlers("ptrnet-trainer", _reader, Reader.summary)
