"""Training the PyTorch Ptr-Net: the loop with Adam, learning-rate decay and clipping, validation by
training.reports.evaluation, and checkpoints that a later run resumes."""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict
from pathlib import Path

import numpy as np
import torch
from torch import nn

from ptrnet.pointer import tasks
from training.paths import RECORDS
from training.reports import cards
from training.trainers.ptr_data import batches, labelled
from training.trainers.ptr_model import Config, PtrNet, from_numpy_params, greedy, init_model, shipped_rounding, widen


def lr_at(config: Config, step: int) -> float:
    """Exponential decay from lr to lr_final over decay_steps, then constant."""
    return config.lr * (config.lr_final / config.lr) ** min(step / config.decay_steps, 1.0)


def loss_fn(logp: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """Mean cross-entropy over the live steps (target >= 0)."""
    return nn.functional.nll_loss(logp.flatten(0, 1), target.flatten(), ignore_index=-1)


def save_checkpoint(
    path: Path,
    model: PtrNet,
    opt: torch.optim.Optimizer,
    config: Config,
    step: int,
    wall: float,
    history: list,
    start_from: str,
    earlier: dict | None,
    resumes: list[dict],
) -> None:
    """Weights, Adam moments and progress, written atomically; earlier: the training record of the init weights;
    resumes: where each resumed session started and what schedule it changed."""
    tmp = path.with_suffix(".tmp")
    torch.save(
        {
            "model": model.state_dict(),
            "opt": opt.state_dict(),
            "config": asdict(config),
            "step": step,
            "wall": wall,
            "history": history,
            "device": _device_name(),
            "start_from": start_from,
            "earlier": earlier,
            "resumes": resumes,
        },
        tmp,
    )
    os.replace(tmp, path)


def load_checkpoint(path: Path, device: str = "cpu") -> tuple[PtrNet, dict]:
    """Model (on device) and the raw checkpoint dict."""
    ckpt = torch.load(path, map_location=device, weights_only=False)
    model = PtrNet(ckpt["config"]["hidden"]).to(device)
    model.load_state_dict(ckpt["model"])
    return model, ckpt


def _device_name() -> str:
    """The hardware this process trains on, for the model card."""
    if torch.cuda.is_available():
        return torch.cuda.get_device_name(0)
    return cards.cpu_device(torch.get_num_threads())


def validate(model: PtrNet, task: str, ns: tuple[int, ...], count: int, device: str, rounded: bool = False) -> dict:
    """Greedy decoding of fixed validation sets (seed 9000 + n), answers read into the labels' form and scored by
    training.reports.evaluation: hull exact match, TSP mean tour length over the optimum, Delaunay exact triangle sets;
    rounded: with the shipped int8 matrices."""
    from training.reports import evaluation

    spec = tasks.SPECS[task]
    model.eval()
    out = {}
    with torch.no_grad(), shipped_rounding(model, rounded):
        for n in ns:
            points, seqs = labelled(task, n, count, 9000 + n, taught=False)
            x = torch.from_numpy(np.stack(points).astype(np.float32)).to(device)
            choices = greedy(model, x, max_steps=spec.max_steps(n), constrained=spec.constrained)
            emitted = [row[: row.index(0)] if 0 in row else [j for j in row if j > 0] for row in choices.tolist()]
            outputs = [spec.read(seq) for seq in emitted]
            examples = list(zip(points, seqs, strict=True))
            if task == "hull":
                out[f"val_acc_{n}"] = round(evaluation.accuracy(examples, outputs), 4)
            elif task == "tsp":
                out[f"val_ratio_{n}"] = round(evaluation.tour_metrics(examples, outputs)["ratio"], 4)
            else:
                out[f"val_acc_{n}"] = round(evaluation.triangle_metrics(examples, outputs)["accuracy"], 4)
    model.train()
    return out


def train(
    config: Config,
    out: Path,
    minutes: float,
    steps: int | None,
    resume: Path | None,
    ckpt_every: float,
    val_every: int,
    init: Path | None = None,
    schedule: dict | None = None,
) -> None:
    """Train until the time or step budget is spent, checkpointing every ckpt_every seconds to out/<task>.pt.

    init starts from shipped numpy weights (.npz) instead of random ones, widened (ptr_model.widen) when
    config.hidden is larger; resume continues a checkpoint, with its settings except the schedule entries
    given (lr, lr_final, decay_steps, clip).
    """
    device = "cuda" if torch.cuda.is_available() else "cpu"
    torch.backends.cuda.matmul.allow_tf32 = False  # keep fp32 arithmetic: the browser runs float64
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{config.task}.pt"
    model = init_model(config).to(device)
    start_from, earlier = "uniform init", None
    if init is not None:
        from ptrnet.pointer import weights

        model = from_numpy_params(weights.load(init.read_bytes())).float()
        start_from = f"weights of {init.name}"
        # how those weights were trained, kept in the lineage: beside a checkpoint, or with the shipped records
        records = [init.with_name(f"{init.stem}_training.json"), RECORDS / f"{init.stem}_training.json"]
        earlier = next((json.loads(r.read_text()) for r in records if r.exists()), None)
        if model.v.shape[0] < config.hidden:
            start_from += f", widened from hidden {model.v.shape[0]} to {config.hidden}"
            model = widen(model, config)
        model = model.to(device)
    opt = torch.optim.Adam(model.parameters(), lr=config.lr)
    step, wall, history, resumes = 0, 0.0, [], []
    if resume is not None:
        model, ckpt = load_checkpoint(resume, device)
        opt = torch.optim.Adam(model.parameters(), lr=config.lr)
        opt.load_state_dict(ckpt["opt"])
        step, wall, history, start_from = ckpt["step"], ckpt["wall"], ckpt["history"], ckpt["start_from"]
        earlier = ckpt.get("earlier")
        # only the settings that really change, each with the value it had until now (as s2s_torch records them)
        schedule = {name: v for name, v in (schedule or {}).items() if ckpt["config"][name] != v}
        was = {name: ckpt["config"][name] for name in schedule}
        resumes = [*ckpt.get("resumes", []), {"step": step, "schedule": schedule, "was": was, "device": _device_name()}]
        config = Config(**(ckpt["config"] | {"workers": config.workers} | schedule))
        print(f"resumed at step {step} ({wall:.0f} s trained); schedule changes: {schedule or 'none'}", flush=True)
    spec = tasks.SPECS[config.task]
    t0, last_ckpt, avg = time.perf_counter() - wall, time.perf_counter(), None
    deadline = time.perf_counter() + 60 * minutes
    for x, target in batches(config, step):
        if time.perf_counter() > deadline or (steps is not None and step >= steps):
            break
        for g in opt.param_groups:
            g["lr"] = lr_at(config, step)
        x_t, tgt_t = torch.from_numpy(x).to(device), torch.from_numpy(target).to(device)
        opt.zero_grad(set_to_none=True)
        with shipped_rounding(model, config.qat):
            loss = loss_fn(model(x_t, tgt_t, config.constrained), tgt_t)
            loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), config.clip)
        opt.step()
        step += 1
        avg = loss.item() if avg is None else 0.98 * avg + 0.02 * loss.item()
        if step % val_every == 0:
            row = {
                "step": step,
                "loss": round(avg, 5),
                "wall": round(time.perf_counter() - t0, 1),
                **validate(model, config.task, spec.val_ns, 500, device, config.qat),
            }
            history.append(row)
            print(json.dumps(row), flush=True)
        if time.perf_counter() - last_ckpt > ckpt_every:
            save_checkpoint(
                path, model, opt, config, step, time.perf_counter() - t0, history, start_from, earlier, resumes
            )
            last_ckpt = time.perf_counter()
    save_checkpoint(path, model, opt, config, step, time.perf_counter() - t0, history, start_from, earlier, resumes)
    print(f"saved {path} at step {step}", flush=True)
