"""PyTorch trainer for the paper's hull baselines: an LSTM seq2seq with a fixed output layer over {1..n, ⇒, ⇐},
without attention or with additive (Bahdanau-style) attention over the encoder states.

The network is ptrnet.pointer.lstm_ptr's "seq2seq" / "attention" kind, so the numpy code the browser runs can
load the exported weights: an LSTM encoder over the (x, y) points; an LSTM decoder started from its final state
and fed the one-hot of the previous token (⇒ first); with attention, a_ij = softmax_j(v . tanh(W1 e_j + W2 d_i))
and the output layer reads [d_i, sum_j a_ij e_j]. Labels are the hull notation (ptrnet.geometry.notation), made
fresh for every batch. Not part of the wheel.

    PYTHONPATH=py/src:py python -m training.trainers.s2s_torch train --attention --min-n 5 --max-n 10 --out OUT --minutes 40
    PYTHONPATH=py/src:py python -m training.trainers.s2s_torch export --ckpt OUT/hull_attention.pt
"""

from __future__ import annotations

import argparse
import json
import os
import time
from dataclasses import asdict, dataclass, fields
from pathlib import Path

import numpy as np
import torch
from torch import nn

from ptrnet.pointer import tasks
from training.paths import PACKAGE_DATA, RECORDS
from training.reports import cards
from training.trainers.ptr_model import load_numpy_layout, numpy_layout
from training.trainers.ptr_torch import add_config_arguments


@dataclass(frozen=True)
class S2SConfig:
    """One baseline run's settings (stored in the checkpoint and the training record)."""

    attention: bool = False  # additive attention over the encoder states
    hidden: int = 128  # LSTM width of encoder and decoder
    min_n: int = 10  # fewest points in a training example
    max_n: int = 10  # most points; the output layer has max_n + 2 tokens
    batch: int = 128  # examples per update, all of one n
    lr: float = 1e-3  # Adam step size at the start
    lr_final: float = 1e-4  # after decay_steps (exponential decay, then constant)
    decay_steps: int = 40000  # updates over which lr decays
    clip: float = 2.0  # gradient L2-norm clipping, as in the paper
    init_scale: float = 0.08  # uniform init range, as in the paper
    seed: int = 0  # initial weights and the data stream


def kind(config: S2SConfig) -> str:
    """The model kind: the <kind> of hull_<kind>.npz."""
    return "attention" if config.attention else f"seq2seq_{config.max_n}"


class Seq2Seq(nn.Module):
    """The seq2seq baseline of ptrnet.pointer.lstm_ptr in PyTorch."""

    def __init__(self, hidden: int, vocab: int, attention: bool) -> None:
        """Parameters named as in the exported .npz (att_* only with attention)."""
        super().__init__()
        self.enc = nn.LSTM(2, hidden, batch_first=True)
        self.dec = nn.LSTM(vocab, hidden, batch_first=True)
        self.attention = attention
        if attention:
            self.att_W1 = nn.Parameter(torch.empty(hidden, hidden))
            self.att_W2 = nn.Parameter(torch.empty(hidden, hidden))
            self.att_v = nn.Parameter(torch.empty(hidden))
        self.out_W = nn.Parameter(torch.empty((2 if attention else 1) * hidden, vocab))
        self.out_b = nn.Parameter(torch.empty(vocab))
        self.vocab = vocab

    def forward(self, x: torch.Tensor, tokens_in: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor | None]:
        """Teacher-forced log-probabilities (B, T, V) for decoder inputs tokens_in (B, T), and the attention
        weights (B, T, n) with attention."""
        E, state = self.enc(x)  # (B, n, H)
        d, _ = self.dec(nn.functional.one_hot(tokens_in, self.vocab).to(x.dtype), state)  # (B, T, H)
        if not self.attention:
            return torch.log_softmax(d @ self.out_W + self.out_b, dim=-1), None
        u = torch.tanh((E @ self.att_W1)[:, None] + (d @ self.att_W2)[:, :, None]) @ self.att_v  # (B, T, n)
        a = torch.softmax(u, dim=-1)
        feat = torch.cat([d, a @ E], dim=-1)  # (B, T, 2H)
        return torch.log_softmax(feat @ self.out_W + self.out_b, dim=-1), a


def batch(config: S2SConfig, step: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Points (B, n, 2), decoder inputs (B, T) and targets (B, T, -1 = padding) of batch `step`: token k-1 names
    point k, V-2 is ⇒, V-1 is ⇐."""
    rng = np.random.default_rng([config.seed, step])
    n = int(rng.integers(config.min_n, config.max_n + 1))
    points, labels = tasks.generate("hull", n, config.batch, int(rng.integers(2**62)))
    go, stop = config.max_n, config.max_n + 1
    T = max(len(s) for s in labels) + 1
    target = np.full((config.batch, T), -1, dtype=np.int64)
    for b, s in enumerate(labels):
        target[b, : len(s)] = np.array(s) - 1
        target[b, len(s)] = stop
    tokens_in = np.concatenate([np.full((config.batch, 1), go), np.maximum(target[:, :-1], 0)], axis=1)
    tokens_in[:, 1:][target[:, :-1] < 0] = stop  # after the end: any token (its output is not scored)
    return np.stack(points).astype(np.float32), tokens_in, target


def accuracy(model: Seq2Seq, config: S2SConfig, n: int, count: int = 500) -> float:
    """Greedy exact-match accuracy on fixed validation sets (seed 9000 + n), decoded by PyTorch."""
    points, labels = tasks.generate("hull", n, count, 9000 + n)
    x = torch.from_numpy(np.stack(points).astype(np.float32))
    go, stop = config.max_n, config.max_n + 1
    tokens = torch.full((count, 1), go)
    model.eval()
    with torch.no_grad():
        for _ in range(2 * n + 2):  # teacher forcing on its own outputs: the whole prefix again each step
            logp, _ = model(x, tokens)
            tokens = torch.cat([tokens, logp[:, -1].argmax(-1, keepdim=True)], dim=1)
    model.train()
    right = 0
    for row, label in zip(tokens[:, 1:].tolist(), labels, strict=True):
        seq = row[: row.index(stop)] if stop in row else row
        right += [t + 1 for t in seq] == label
    return right / count


def _go_on(config: S2SConfig, earlier: dict, source: str = "") -> tuple[int, float, list, list]:
    """Step, wall time, history and resumed sessions of a run going on from earlier (a checkpoint or a training
    record), this session added with the settings it changed and, for a record, where its weights came from."""
    changed = {k: v for k, v in asdict(config).items() if earlier["config"].get(k) != v}  # a new schedule, say
    was = {k: earlier["config"].get(k) for k in changed}
    session = {
        "step": earlier["step"],
        "device": cards.cpu_device(torch.get_num_threads()),
        "schedule": changed,
        "was": was,
    }
    session |= {"from": source} if source else {}
    return earlier["step"], earlier["wall"], earlier["history"], [*earlier.get("resumes", []), session]


def train(
    config: S2SConfig, out: Path, minutes: float, resume: Path | None, init: Path | None = None, keep_every: int = 0
) -> None:
    """Train until the time budget is spent, checkpointing each minute to out/hull_<kind>.pt.

    resume continues a checkpoint; init continues the shipped weights (.npz) and their training record when the
    checkpoint is gone: the step count, history and data stream go on, Adam's moments start afresh. keep_every > 0
    also keeps the weights every that many steps (step 0 too) as out/kept/hull_<kind>_<step>.npz, int8 like the
    shipped ones, beside the run's settings and history (kept/run.json), to measure how the model changed.
    """
    torch.manual_seed(config.seed)
    vocab = config.max_n + 2
    model = Seq2Seq(config.hidden, vocab, config.attention)
    for p in model.parameters():
        nn.init.uniform_(p, -config.init_scale, config.init_scale)
    opt = torch.optim.Adam(model.parameters(), lr=config.lr)
    step, wall, history, resumes = 0, 0.0, [], []
    if resume is not None:
        ckpt = torch.load(resume, weights_only=False)
        model.load_state_dict(ckpt["model"])
        opt.load_state_dict(ckpt["opt"])
        step, wall, history, resumes = _go_on(config, ckpt)
    elif init is not None:
        from ptrnet.pointer import weights

        model = from_numpy_params(weights.load(init.read_bytes())).float()
        opt = torch.optim.Adam(model.parameters(), lr=config.lr)
        record = json.loads((RECORDS / f"{init.stem}_training.json").read_text())
        step, wall, history, resumes = _go_on(config, record, source=f"shipped {init.name} (Adam's moments afresh)")
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"hull_{kind(config)}.pt"
    t0, last, avg = time.perf_counter() - wall, time.perf_counter(), None
    deadline = time.perf_counter() + 60 * minutes

    def save() -> None:
        state = {"model": model.state_dict(), "opt": opt.state_dict(), "config": asdict(config), "step": step}
        state |= {
            "wall": time.perf_counter() - t0,
            "history": history,
            "resumes": resumes,
            "device": cards.cpu_device(torch.get_num_threads()),
        }
        torch.save(state, path.with_suffix(".tmp"))
        os.replace(path.with_suffix(".tmp"), path)

    def keep() -> None:
        from ptrnet.pointer import weights

        (out / "kept").mkdir(exist_ok=True)
        run = {"config": asdict(config), "keep_every": keep_every, "from": str(resume or init or "uniform init")}
        run["history"] = history  # the logged loss and validation accuracy so far, to compare runs by
        (out / "kept" / "run.json").write_text(json.dumps(run) + "\n")
        weights.save(out / "kept" / f"hull_{kind(config)}_{step:07d}.npz", numpy_layout(model, S2S_PLAIN))

    while time.perf_counter() < deadline:
        if keep_every and step % keep_every == 0:
            keep()
        for g in opt.param_groups:
            g["lr"] = config.lr * (config.lr_final / config.lr) ** min(step / config.decay_steps, 1.0)
        x, tokens_in, target = (torch.from_numpy(a) for a in batch(config, step))
        logp, _ = model(x, tokens_in)
        loss = nn.functional.nll_loss(logp.flatten(0, 1), target.flatten(), ignore_index=-1)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), config.clip)
        opt.step()
        step += 1
        avg = loss.item() if avg is None else 0.98 * avg + 0.02 * loss.item()
        if step % 1000 == 0:
            sizes = sorted({config.min_n, config.max_n})
            row = {"step": step, "loss": round(avg, 5), "wall": round(time.perf_counter() - t0, 1)}
            row |= {f"val_acc_{n}": round(accuracy(model, config, n), 4) for n in sizes}
            history.append(row)
            print(json.dumps(row), flush=True)
        if time.perf_counter() - last > 60:
            save()
            last = time.perf_counter()
    save()
    print(f"saved {path} at step {step}", flush=True)


S2S_PLAIN = ("out_W", "out_b", "att_W1", "att_W2", "att_v")  # the parameters outside the two LSTMs


def from_numpy_params(params: dict[str, np.ndarray]) -> Seq2Seq:
    """A float64 Seq2Seq holding numpy-layout weights (the shipped, quantised ones)."""
    model = Seq2Seq(params["enc_Wh"].shape[0], params["out_b"].shape[0], "att_v" in params)
    return load_numpy_layout(model, params, S2S_PLAIN)


def golden(model: Seq2Seq, sizes: tuple[int, ...]) -> dict:
    """Greedy decodings by PyTorch (float64) of fixed inputs: points, tokens, every step's probabilities and (with
    attention) attention weights."""
    cases = []
    go, stop = model.vocab - 2, model.vocab - 1
    with torch.no_grad():
        for n in sizes:
            points, _ = tasks.generate("hull", n, 2, 31337 + n)
            for p in points:
                x = torch.from_numpy(p[None].astype(np.float64))
                tokens, probs, atts = [go], [], []
                while len(tokens) <= 2 * n + 2 and tokens[-1] != stop:
                    logp, a = model(x, torch.tensor([tokens]))
                    probs.append(logp[0, -1].exp().tolist())
                    atts.append(a[0, -1].tolist() if a is not None else None)
                    tokens.append(int(logp[0, -1].argmax()))
                cases.append({"points": p.tolist(), "choices": tokens[1:], "probs": probs, "attention": atts})
    return {"task": "hull", "framework": f"torch {torch.__version__}, float64", "decoding": "greedy", "cases": cases}


def export(ckpt_path: Path, out_dir: Path = PACKAGE_DATA, records: Path = RECORDS) -> None:
    """Write hull_<kind>.npz (int8 rows), its golden outputs from those very weights, and the training record."""
    from ptrnet.pointer import weights

    ckpt = torch.load(ckpt_path, weights_only=False)
    config = S2SConfig(**ckpt["config"])
    model = Seq2Seq(config.hidden, config.max_n + 2, config.attention)
    model.load_state_dict(ckpt["model"])
    name = f"hull_{kind(config)}"
    weights.save(out_dir / f"{name}.npz", numpy_layout(model, S2S_PLAIN))
    shipped = from_numpy_params(weights.load((out_dir / f"{name}.npz").read_bytes()))
    sizes = tuple(sorted({config.min_n, (config.min_n + config.max_n) // 2, config.max_n}))
    (records / cards.golden_name("hull", kind(config))).write_text(json.dumps(golden(shipped, sizes)) + "\n")
    record = {k: ckpt[k] for k in ("config", "step", "wall", "history", "device")} | {
        "resumes": ckpt.get("resumes", [])
    }
    record |= {"start_from": "uniform init", "trainer": f"PyTorch {torch.__version__}: py/training/s2s_torch.py"}
    (records / f"{name}_training.json").write_text(json.dumps(record, indent=1) + "\n")
    print(f"wrote {out_dir}/{name}.npz, its golden outputs and training record", flush=True)


def main() -> None:
    """Command line: train or export."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    tr = sub.add_parser("train")
    add_config_arguments(tr, S2SConfig)
    tr.add_argument("--out", type=Path, required=True)
    tr.add_argument("--minutes", type=float, default=30.0)
    tr.add_argument("--threads", type=int, default=1)
    tr.add_argument("--resume", type=Path, default=None)
    tr.add_argument("--init", type=Path, default=None, help="go on from shipped weights (.npz) and their record")
    tr.add_argument("--keep-every", type=int, default=0, help="also keep the weights every this many steps")
    ex = sub.add_parser("export")
    ex.add_argument("--ckpt", type=Path, required=True)
    args = ap.parse_args()
    if args.cmd == "train":
        torch.set_num_threads(args.threads)
        config = S2SConfig(**{f.name: getattr(args, f.name) for f in fields(S2SConfig)})
        train(config, args.out, args.minutes, args.resume, args.init, args.keep_every)
    else:
        export(args.ckpt)


if __name__ == "__main__":
    main()
