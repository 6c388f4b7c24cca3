"""PyTorch trainer for the Ptr-Nets of the paper's three problems (hull, TSP, Delaunay), GPU or CPU.

The network is exactly ptrnet.lstm_ptr's, so the numpy code the browser runs can load the exported
weights: an LSTM encoder over the (x, y) points, an LSTM decoder started from the encoder's final state
and fed a learned start vector then the previously chosen point's (x, y), and additive attention
u_j = v . tanh(W1 e_j + W2 d_i) over the slots [⇐, P1..Pn] (slot ⇐ has a learned state "end") used as
the output distribution. Teacher forcing lets one LSTM call run the whole decoder.

Labels come from ptrnet.notation (our hull, Held-Karp and Delaunay code), made in worker processes.
Not part of the wheel; PyTorch is needed only here.

    PYTHONPATH=py/src python py/training/ptr_torch.py train --task hull --out OUT --minutes 8
    PYTHONPATH=py/src python py/training/ptr_torch.py export --ckpt OUT/hull.pt
    PYTHONPATH=py/src python py/training/ptr_torch.py golden --task hull   # for weights already shipped
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass, fields
from pathlib import Path

import numpy as np
import torch
from torch import nn

from ptrnet import tasks

REPO = Path(__file__).resolve().parents[2]
DATA_DIR = REPO / "py" / "src" / "ptrnet" / "data"  # where exported weights and golden outputs go
TORCH_GATES = "ifgo"  # nn.LSTM's gate blocks; ptrnet.lstm_ptr uses lstm_ptr.GATES


@dataclass(frozen=True)
class Config:
    """One training run's settings (stored in the checkpoint and the model card)."""

    task: str = "hull"  # "hull", "tsp" or "delaunay" (ptrnet.tasks)
    hidden: int = 256  # LSTM width of encoder and decoder
    batch: int = 256  # examples per update, all of one n
    min_n: int = 5  # fewest points in a training example
    max_n: int = 50  # most points in a training example
    lr: float = 1e-3  # Adam step size at the start
    lr_final: float = 1e-4  # step size after decay_steps (exponential decay, then constant)
    decay_steps: int = 60000  # updates over which lr decays to lr_final
    clip: float = 2.0  # gradient L2-norm clipping, as in the paper
    init_scale: float = 0.08  # uniform init range, as in the paper
    forget_bias: float = 1.0  # added to the forget-gate biases at init
    seed: int = 0  # initial weights and the data stream
    workers: int = 0  # processes making labelled batches (0: in the training process)
    data: str = ""  # a pool made by `make-data` to draw batches from ("": fresh examples for every batch)
    constrained: bool = False  # train under the task's decoding constraint (TSP: valid tours only)


class PtrNet(nn.Module):
    """The Ptr-Net of ptrnet.lstm_ptr in PyTorch."""

    def __init__(self, hidden: int) -> None:
        """Parameters named as in the exported .npz."""
        super().__init__()
        self.enc = nn.LSTM(2, hidden, batch_first=True)
        self.dec = nn.LSTM(2, hidden, batch_first=True)
        self.W1 = nn.Parameter(torch.empty(hidden, hidden))
        self.W2 = nn.Parameter(torch.empty(hidden, hidden))
        self.v = nn.Parameter(torch.empty(hidden))
        self.end = nn.Parameter(torch.empty(hidden))
        self.start = nn.Parameter(torch.empty(2))

    def encode(self, x: torch.Tensor) -> tuple[torch.Tensor, tuple[torch.Tensor, torch.Tensor]]:
        """Slot keys W1 [e_0, e_1..e_n] (B, n+1, H) and the encoder's final (h, c)."""
        E, state = self.enc(x)  # (B, n, H)
        enc = torch.cat([self.end.expand(x.shape[0], 1, -1), E], dim=1)  # (B, n+1, H)
        return enc @ self.W1, state

    def scores(self, keys: torch.Tensor, d: torch.Tensor) -> torch.Tensor:
        """Unnormalised scores (B, T, n+1) of decoder states d (B, T, H)."""
        return torch.tanh(keys[:, None] + (d @ self.W2)[:, :, None]) @ self.v

    def forward(self, x: torch.Tensor, target: torch.Tensor, constrained: bool = False) -> torch.Tensor:
        """Teacher-forced log-probabilities (B, T, n+1); target (B, T) is 1-based, 0 = ⇐, -1 = padding.

        constrained: every step sees only the slots a valid tour allows after the true prefix (TSP), the
        same rule the constrained decoding applies.
        """
        keys, state = self.encode(x)
        prev = target[:, :-1].clamp(min=1) - 1  # (B, T-1) the point fed back at each later step
        inputs = torch.cat(
            [self.start.expand(x.shape[0], 1, 2), torch.gather(x, 1, prev[..., None].expand(-1, -1, 2))], dim=1
        )  # (B, T, 2)
        d, _ = self.dec(inputs, state)  # (B, T, H)
        u = self.scores(keys, d)  # (B, T, n+1)
        if constrained:
            u = u.masked_fill(~tour_allowed_all(target, x.shape[1]), float("-inf"))
        return torch.log_softmax(u, dim=-1)


def init_model(config: Config) -> PtrNet:
    """Uniform(-scale, scale) weights as in the paper, forget-gate bias raised (once, on bias_ih)."""
    torch.manual_seed(config.seed)
    model = PtrNet(config.hidden)
    with torch.no_grad():
        for p in model.parameters():
            p.uniform_(-config.init_scale, config.init_scale)
        H = config.hidden
        for lstm in (model.enc, model.dec):
            lstm.bias_ih_l0[H : 2 * H] += config.forget_bias
    return model


# ---------------------------------------------------------------- data


def make_batch(task: str, n: int, batch: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """batch random point sets of n points and their padded targets (1-based, then 0 = ⇐, -1 = padding)."""
    points, seqs = tasks.generate(task, n, batch, seed)
    T = max(len(s) for s in seqs) + 1
    target = np.full((batch, T), -1, dtype=np.int64)
    for b, s in enumerate(seqs):
        target[b, : len(s)] = s
        target[b, len(s)] = 0
    return np.stack(points).astype(np.float32), target


def _batch_job(args: tuple) -> tuple[np.ndarray, np.ndarray]:
    """make_batch for a pool worker."""
    return make_batch(*args)


def batches(config: Config, first_step: int) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """The training stream from first_step on: batch k depends on (seed, k) only, so a resumed run sees the same data."""

    def job(k: int) -> tuple:
        rng = np.random.default_rng([config.seed, k])
        return config.task, int(rng.integers(config.min_n, config.max_n + 1)), config.batch, int(rng.integers(2**62))

    k = first_step
    if config.data:
        with np.load(config.data) as f:
            pool = {n: (f[f"x{n}"], f[f"t{n}"]) for n in range(config.min_n, config.max_n + 1)}
        while True:
            rng = np.random.default_rng([config.seed, k])
            x, t = pool[int(rng.integers(config.min_n, config.max_n + 1))]
            idx = rng.integers(0, len(x), config.batch)
            target = t[idx]
            yield x[idx], target[:, : int((target >= 0).sum(axis=1).max())]
            k += 1
    if config.workers == 0:
        while True:
            yield make_batch(*job(k))
            k += 1
    with mp.get_context("fork").Pool(config.workers) as pool:
        while True:  # a window of jobs in flight, consumed in order
            yield from pool.imap(_batch_job, (job(j) for j in range(k, k + 64 * config.workers)), chunksize=1)
            k += 64 * config.workers


def make_data(task: str, min_n: int, max_n: int, per_n: int, seed: int, workers: int, out: Path) -> None:
    """A pool of per_n labelled examples for every n (the paper trained on a fixed set of 1 M pairs)."""
    chunk = 5000
    jobs = [
        (task, n, chunk, seed * 1_000_003 + n * 10_007 + k)
        for n in range(min_n, max_n + 1)
        for k in range(-(-per_n // chunk))
    ]
    with mp.get_context("fork").Pool(max(workers, 1)) as pool:
        parts = pool.map(_batch_job, jobs, chunksize=1)
    arrays = {}
    for n in range(min_n, max_n + 1):
        mine = [p for p, job in zip(parts, jobs, strict=True) if job[1] == n]
        T = max(t.shape[1] for _, t in mine)
        arrays[f"x{n}"] = np.concatenate([x for x, _ in mine])[:per_n]
        arrays[f"t{n}"] = np.concatenate(
            [np.pad(t, ((0, 0), (0, T - t.shape[1])), constant_values=-1) for _, t in mine]
        )[:per_n]
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez(out, **arrays)
    print(f"wrote {out}: {per_n} examples for each n in {min_n}..{max_n}", flush=True)


# ---------------------------------------------------------------- training


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
) -> None:
    """Weights, Adam moments and progress, written atomically."""
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
    threads = torch.get_num_threads()
    return f"CPU, {threads} thread{'s' if threads > 1 else ''}"


def validate(model: PtrNet, task: str, ns: tuple[int, ...], count: int, device: str) -> dict:
    """Greedy decoding of fixed validation sets (seed 9000 + n), scored by ptrnet.evaluation: hull exact match,
    TSP mean tour length over the optimum, Delaunay exact triangle sets."""
    from ptrnet import evaluation

    spec = tasks.SPECS[task]
    model.eval()
    out = {}
    with torch.no_grad():
        for n in ns:
            points, seqs = tasks.generate(task, n, count, 9000 + n)
            x = torch.from_numpy(np.stack(points).astype(np.float32)).to(device)
            choices = greedy(model, x, max_steps=spec.max_steps(n), constrained=spec.constrained)
            outputs = [row[: row.index(0)] if 0 in row else [j for j in row if j > 0] for row in choices.tolist()]
            examples = list(zip(points, seqs, strict=True))
            if task == "hull":
                out[f"val_acc_{n}"] = round(evaluation.accuracy(examples, outputs), 4)
            elif task == "tsp":
                out[f"val_ratio_{n}"] = round(evaluation.tour_metrics(examples, outputs)["ratio"], 4)
            else:
                out[f"val_acc_{n}"] = round(evaluation.triangle_metrics(examples, outputs)["accuracy"], 4)
    model.train()
    return out


def greedy(
    model: PtrNet, x: torch.Tensor, max_steps: int, constrained: bool = False, record: list | None = None
) -> np.ndarray:
    """Greedy decoding step by step (B, steps), 0 = ⇐, -1 after the end; record gets each step's probabilities.

    constrained: TSP's valid-tour rule (ptrnet.decoding.allowed): start at P1, unvisited points, back to P1, ⇐.
    """
    B, n, _ = x.shape
    keys, (h, c) = model.encode(x)
    inp = model.start.expand(B, 1, 2)
    done = torch.zeros(B, dtype=torch.bool, device=x.device)
    visited = torch.zeros(B, n + 1, dtype=torch.bool, device=x.device)
    out = []
    for t in range(max_steps):
        d, (h, c) = model.dec(inp, (h, c))
        u = model.scores(keys, d)[:, 0]  # (B, n+1)
        if constrained:
            u = u.masked_fill(~_tour_allowed(visited, t, n), float("-inf"))
        p = torch.softmax(u, dim=-1)
        if record is not None:
            record.append(p.double().cpu().numpy())
        choice = torch.where(done, -1, p.argmax(dim=-1))
        visited[torch.arange(B), choice.clamp(min=0)] |= choice > 0
        out.append(choice)
        done |= choice == 0
        if bool(done.all()):
            break
        inp = torch.gather(x, 1, (choice.clamp(min=1) - 1)[:, None, None].expand(-1, 1, 2))
    return torch.stack(out, dim=1).cpu().numpy()


def tour_allowed_all(target: torch.Tensor, n: int) -> torch.Tensor:
    """_tour_allowed for every step of teacher-forced targets at once (B, T, n+1)."""
    B, T = target.shape
    chosen = nn.functional.one_hot(target.clamp(min=0), n + 1).bool() & (target > 0)[..., None]  # (B, T, n+1)
    visited = (chosen.cumsum(dim=1) - chosen.long()) > 0  # chosen before step t
    t = torch.arange(T, device=target.device)[None, :, None]  # (1, T, 1)
    slot = torch.arange(n + 1, device=target.device)[None, None, :]  # (1, 1, n+1)
    middle = ~visited & (slot > 0)
    return torch.where(t == 0, slot == 1, torch.where(t < n, middle, torch.where(t == n, slot == 1, slot == 0)))


def _tour_allowed(visited: torch.Tensor, t: int, n: int) -> torch.Tensor:
    """Slots a valid tour may take at step t given the points already visited (B, n+1)."""
    allowed = ~visited
    allowed[:, 0] = False
    if t == 0:
        allowed[:] = False
        allowed[:, 1] = True
        return allowed
    all_seen = visited[:, 1:].all(dim=1)
    allowed[:, 1] = all_seen & (t == n)  # P1 again closes the tour
    allowed[:, 0] = all_seen & (t > n)
    return allowed


def train(
    config: Config,
    out: Path,
    minutes: float,
    steps: int | None,
    resume: Path | None,
    ckpt_every: float,
    val_every: int,
    init: Path | None = None,
) -> None:
    """Train until the time or step budget is spent, checkpointing every ckpt_every seconds to out/<task>.pt.

    init starts from shipped numpy weights (.npz) instead of random ones; resume continues a checkpoint.
    """
    device = "cuda" if torch.cuda.is_available() else "cpu"
    torch.backends.cuda.matmul.allow_tf32 = False  # keep fp32 arithmetic: the browser runs float64
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{config.task}.pt"
    model = init_model(config).to(device)
    start_from = "uniform init"
    if init is not None:
        from ptrnet import weights

        model = from_numpy_params(weights.load(init.read_bytes())).float().to(device)
        start_from = f"weights of {init.name}"
    opt = torch.optim.Adam(model.parameters(), lr=config.lr)
    step, wall, history = 0, 0.0, []
    if resume is not None:
        model, ckpt = load_checkpoint(resume, device)
        opt = torch.optim.Adam(model.parameters(), lr=config.lr)
        opt.load_state_dict(ckpt["opt"])
        step, wall, history, start_from = ckpt["step"], ckpt["wall"], ckpt["history"], ckpt["start_from"]
        config = Config(**(ckpt["config"] | {"workers": config.workers}))
        print(f"resumed at step {step} ({wall:.0f} s trained)", flush=True)
    spec = tasks.SPECS[config.task]
    t0, last_ckpt, avg = time.perf_counter() - wall, time.perf_counter(), None
    deadline = time.perf_counter() + 60 * minutes
    for x, target in batches(config, step):
        if time.perf_counter() > deadline or (steps is not None and step >= steps):
            break
        for g in opt.param_groups:
            g["lr"] = lr_at(config, step)
        x_t, tgt_t = torch.from_numpy(x).to(device), torch.from_numpy(target).to(device)
        loss = loss_fn(model(x_t, tgt_t, config.constrained), tgt_t)
        opt.zero_grad(set_to_none=True)
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
                **validate(model, config.task, spec.val_ns, 500, device),
            }
            history.append(row)
            print(json.dumps(row), flush=True)
        if time.perf_counter() - last_ckpt > ckpt_every:
            save_checkpoint(path, model, opt, config, step, time.perf_counter() - t0, history, start_from)
            last_ckpt = time.perf_counter()
    save_checkpoint(path, model, opt, config, step, time.perf_counter() - t0, history, start_from)
    print(f"saved {path} at step {step}", flush=True)


# ---------------------------------------------------------------- export


def to_numpy_params(model: PtrNet) -> dict[str, np.ndarray]:
    """The model's weights under ptrnet.lstm_ptr's names and layout (inputs by rows, gates reordered)."""
    from ptrnet import lstm_ptr

    sd = {k: v.detach().double().cpu().numpy() for k, v in model.state_dict().items()}
    params = {"W1": sd["W1"], "W2": sd["W2"], "v": sd["v"], "end": sd["end"], "start": sd["start"]}
    for name in ("enc", "dec"):
        params[f"{name}_Wx"] = lstm_ptr.from_torch_gates(sd[f"{name}.weight_ih_l0"]).T
        params[f"{name}_Wh"] = lstm_ptr.from_torch_gates(sd[f"{name}.weight_hh_l0"]).T
        params[f"{name}_b"] = lstm_ptr.from_torch_gates(sd[f"{name}.bias_ih_l0"] + sd[f"{name}.bias_hh_l0"])
    return params


def from_numpy_params(params: dict[str, np.ndarray]) -> PtrNet:
    """A float64 PtrNet holding numpy-layout weights (the shipped, quantised ones)."""
    from ptrnet import lstm_ptr

    H = params["enc_Wh"].shape[0]
    model = PtrNet(H).double()
    sd = {"W1": params["W1"], "W2": params["W2"], "v": params["v"], "end": params["end"], "start": params["start"]}
    for name in ("enc", "dec"):
        sd[f"{name}.weight_ih_l0"] = lstm_ptr.to_torch_gates(params[f"{name}_Wx"].T)
        sd[f"{name}.weight_hh_l0"] = lstm_ptr.to_torch_gates(params[f"{name}_Wh"].T)
        sd[f"{name}.bias_ih_l0"] = lstm_ptr.to_torch_gates(params[f"{name}_b"])
        sd[f"{name}.bias_hh_l0"] = np.zeros_like(params[f"{name}_b"])
    model.load_state_dict({k: torch.from_numpy(np.ascontiguousarray(v)) for k, v in sd.items()})
    return model


GOLDEN_SIZES = {"hull": (5, 8, 12, 20), "tsp": (5, 8, 10), "delaunay": (5, 7, 10)}  # inputs per task, 2 sets each


def golden(model: PtrNet, task: str) -> dict:
    """Greedy decodings by PyTorch (float64) of fixed inputs: points, choices and every step's probabilities."""
    cases = []
    spec = tasks.SPECS[task]
    with torch.no_grad():
        for n in GOLDEN_SIZES[task]:
            x, _ = make_batch(task, n, 2, 31337 + n)
            x = x.astype(np.float64)
            record: list = []
            choices = greedy(
                model, torch.from_numpy(x), max_steps=spec.max_steps(n), constrained=spec.constrained, record=record
            )
            for b in range(len(x)):
                row = choices[b].tolist()
                steps = row.index(0) + 1 if 0 in row else len(row)
                cases.append(
                    {
                        "points": x[b].tolist(),
                        "choices": row[:steps],
                        "probs": [record[t][b].tolist() for t in range(steps)],
                    }
                )
    return {
        "task": task,
        "framework": f"torch {torch.__version__}, float64",
        "decoding": "greedy" + (", constrained to valid tours" if spec.constrained else ", unconstrained"),
        "cases": cases,
    }


def write_golden(task: str, out_dir: Path) -> None:
    """<task>_golden.json: PyTorch's greedy decodings with the shipped (quantised) weights <task>_ptrnet.npz."""
    from ptrnet import weights

    shipped = from_numpy_params(weights.load((out_dir / f"{task}_ptrnet.npz").read_bytes()))
    (out_dir / f"{task}_golden.json").write_text(json.dumps(golden(shipped, task)) + "\n")


def export(ckpt_path: Path, out_dir: Path) -> None:
    """Write <task>_ptrnet.npz (int8 rows), its golden outputs from those very weights, and the training record."""
    from ptrnet import weights

    model, ckpt = load_checkpoint(ckpt_path)
    task = ckpt["config"]["task"]
    weights.save(out_dir / f"{task}_ptrnet.npz", to_numpy_params(model))
    write_golden(task, out_dir)
    record = {k: ckpt[k] for k in ("config", "step", "wall", "history", "device", "start_from")}
    record["trainer"] = f"PyTorch {torch.__version__}: py/training/ptr_torch.py"
    if ckpt["config"]["data"]:
        with np.load(ckpt["config"]["data"]) as pool:
            record["pool_per_n"] = len(pool[f"x{ckpt['config']['min_n']}"])
    (out_dir / f"{task}_ptrnet_training.json").write_text(json.dumps(record, indent=1) + "\n")
    print(f"wrote {task}_ptrnet.npz, {task}_golden.json, {task}_ptrnet_training.json to {out_dir}")


def main() -> None:
    """Command line: train or export."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    tr = sub.add_parser("train")
    for f in fields(Config):
        if f.type in (bool, "bool"):
            tr.add_argument("--" + f.name.replace("_", "-"), action=argparse.BooleanOptionalAction, default=f.default)
        else:
            tr.add_argument("--" + f.name.replace("_", "-"), type=type(f.default), default=f.default)
    tr.add_argument("--out", type=Path, required=True, help="folder for <task>.pt")
    tr.add_argument("--minutes", type=float, default=8.0, help="wall-clock budget")
    tr.add_argument("--steps", type=int, default=None, help="stop at this many updates in all")
    tr.add_argument("--resume", type=Path, default=None, help="checkpoint to continue (its settings win)")
    tr.add_argument("--ckpt-every", type=float, default=60.0, help="seconds between checkpoints")
    tr.add_argument("--val-every", type=int, default=1000, help="updates between validations")
    tr.add_argument("--init", type=Path, default=None, help="start from these numpy weights (.npz)")
    tr.add_argument("--threads", type=int, default=0, help="torch CPU threads (0: torch's default)")
    md = sub.add_parser("make-data", help="a fixed pool of labelled examples for --data")
    md.add_argument("--task", choices=list(tasks.SPECS), required=True)
    md.add_argument("--min-n", type=int, default=5)
    md.add_argument("--max-n", type=int, default=10)
    md.add_argument("--per-n", type=int, default=200000)
    md.add_argument("--seed", type=int, default=1)
    md.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    md.add_argument("--out", type=Path, required=True)
    ex = sub.add_parser("export")
    ex.add_argument("--ckpt", type=Path, required=True)
    ex.add_argument("--out", type=Path, default=DATA_DIR)
    go = sub.add_parser("golden", help="golden outputs of already shipped weights")
    go.add_argument("--task", choices=list(tasks.SPECS), required=True)
    go.add_argument("--out", type=Path, default=DATA_DIR)
    args = ap.parse_args()
    if args.cmd == "train":
        if args.threads:
            torch.set_num_threads(args.threads)
        config = Config(**{f.name: getattr(args, f.name) for f in fields(Config)})
        train(config, args.out, args.minutes, args.steps, args.resume, args.ckpt_every, args.val_every, args.init)
    elif args.cmd == "make-data":
        make_data(args.task, args.min_n, args.max_n, args.per_n, args.seed, args.workers, args.out)
    elif args.cmd == "export":
        export(args.ckpt, args.out)
    else:
        write_golden(args.task, args.out)


if __name__ == "__main__":
    main()
