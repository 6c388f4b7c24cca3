"""LSTM Ptr-Net and LSTM seq2seq baseline for the convex hull (Vinyals et al. 2015), numpy only.

Both models share one LSTM encoder over the 2-D points and one LSTM decoder whose
initial state is the encoder's final state. Gates are ordered i, f, o, g.

Ptr-Net ("ptrnet"): slot 0 is the end slot ⇐ with a learned encoder state e_0
("end"); slots 1..n are the points. The decoder's first input is a learned
start vector ("start", 2 numbers), later inputs are the coordinates of the
previously chosen point. The output distribution over the n + 1 slots is

    u_ij = v . tanh(W1 e_j + W2 d_i),   p_i = softmax_j(u_ij).

Seq2seq ("seq2seq"): a fixed softmax over the 7 tokens {1..5, ⇒, ⇐} (ids 0..6)
computed as d_i @ out_W + out_b; the decoder input is the one-hot of the
previous token (⇒ first).

forward() is the one forward pass: training calls it with the true sequences,
decode() runs the same step functions feeding back its own greedy choices. The
dtype of the parameters (float32 for training, float64 for checks) is kept
throughout.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from io import BytesIO
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ptrnet import MissingData

Array = NDArray[np.floating]
Ints = NDArray[np.int64]
Bools = NDArray[np.bool_]
Params = dict[str, Array]

VOCAB = ["1", "2", "3", "4", "5", "⇒", "⇐"]  # seq2seq tokens, ids 0..6
GO, STOP = 5, 6  # ids of ⇒ and ⇐ in VOCAB
S2S_N = 5  # the seq2seq baseline only knows 5 inputs


@dataclass(frozen=True)
class Batch:
    """Padded training examples; target 0 is the end slot ⇐, j >= 1 is point j."""

    x: Array  # (B, N, 2) point coordinates, zero where padded
    valid: Bools  # (B, N) real points
    target: Ints  # (B, T) 1-based hull sequence then 0 (⇐); padding is 0 with live False
    live: Bools  # (B, T) steps that count in the loss


def kind(params: Params) -> str:
    """'ptrnet' or 'seq2seq', from the parameter names."""
    return "ptrnet" if "W1" in params else "seq2seq"


def init_params(model: str, hidden: int, seed: int, scale: float = 0.08, forget_bias: float = 1.0,
                dtype: Any = np.float32) -> Params:
    """Uniform(-scale, scale) weights as in the paper, forget-gate biases at forget_bias."""
    rng = np.random.default_rng(seed)
    H, d_in = hidden, 2 if model == "ptrnet" else len(VOCAB)
    shapes = {"enc_Wx": (2, 4 * H), "enc_Wh": (H, 4 * H), "enc_b": (4 * H,),
              "dec_Wx": (d_in, 4 * H), "dec_Wh": (H, 4 * H), "dec_b": (4 * H,)}
    if model == "ptrnet":
        shapes |= {"W1": (H, H), "W2": (H, H), "v": (H,), "end": (H,), "start": (2,)}
    elif model == "seq2seq":
        shapes |= {"out_W": (H, len(VOCAB)), "out_b": (len(VOCAB),)}
    else:
        raise ValueError(f"unknown model {model!r}")
    params = {k: rng.uniform(-scale, scale, s).astype(dtype) for k, s in shapes.items()}
    for b in ("enc_b", "dec_b"):
        params[b][H : 2 * H] += forget_bias
    return params


def make_batch(points: Sequence[Any], sequences: Sequence[Sequence[int]], dtype: Any = np.float32) -> Batch:
    """Pad lists of (n_k, 2) point sets and 1-based hull sequences into a Batch (⇐ appended)."""
    B = len(points)
    N = max(len(p) for p in points)
    T = max(len(s) for s in sequences) + 1
    x = np.zeros((B, N, 2), dtype=dtype)
    valid = np.zeros((B, N), dtype=bool)
    target = np.zeros((B, T), dtype=np.int64)
    live = np.zeros((B, T), dtype=bool)
    for b, (p, s) in enumerate(zip(points, sequences, strict=True)):
        x[b, : len(p)] = np.asarray(p, dtype=np.float64).reshape(-1, 2)
        valid[b, : len(p)] = True
        target[b, : len(s)] = s
        live[b, : len(s) + 1] = True
    return Batch(x, valid, target, live)


# ---------------------------------------------------------------- shared step functions


def _sigmoid(z: Array) -> Array:
    """Logistic function via tanh (no overflow)."""
    return 0.5 * (1.0 + np.tanh(0.5 * z))


def _lstm_step(xz: Array, h: Array, c: Array, Wh: Array) -> tuple[Array, Array, tuple]:
    """One LSTM step from the input's pre-activation xz (B, 4H); returns h, c and the backward cache."""
    H = h.shape[1]
    z = xz + h @ Wh  # (B, 4H)
    ifo = _sigmoid(z[:, : 3 * H])  # (B, 3H)
    i, f, o = ifo[:, :H], ifo[:, H : 2 * H], ifo[:, 2 * H :]
    g = np.tanh(z[:, 3 * H :])  # (B, H)
    cn = f * c + i * g
    tc = np.tanh(cn)
    return o * tc, cn, (h, c, i, f, o, g, tc)


def _lstm_back(cache: tuple, dh: Array, dc: Array, Wh: Array, gWh: Array) -> tuple[Array, Array, Array]:
    """Backward of _lstm_step: gradient of xz (B, 4H), of h_prev and c_prev; adds to gWh in place."""
    h, c, i, f, o, g, tc = cache
    dcn = dc + dh * o * (1.0 - tc * tc)
    dz = np.concatenate([dcn * g * i * (1.0 - i), dcn * c * f * (1.0 - f), dh * tc * o * (1.0 - o),
                         dcn * i * (1.0 - g * g)], axis=1)  # (B, 4H)
    gWh += h.T @ dz
    return dz, dz @ Wh.T, dcn * f


def _encode(params: Params, x: Array, valid: Bools) -> tuple[Array, Array, Array, list]:
    """Encoder states (B, N, H) (carried over padding), final h and c, and per-step caches."""
    B, N, _ = x.shape
    H = params["enc_Wh"].shape[0]
    xz = x @ params["enc_Wx"] + params["enc_b"]  # (B, N, 4H)
    h = np.zeros((B, H), dtype=x.dtype)
    c = np.zeros((B, H), dtype=x.dtype)
    E = np.zeros((B, N, H), dtype=x.dtype)
    caches = []
    for t in range(N):
        hn, cn, cache_t = _lstm_step(xz[:, t], h, c, params["enc_Wh"])
        m = valid[:, t : t + 1]  # (B, 1)
        h, c = np.where(m, hn, h), np.where(m, cn, c)
        E[:, t] = h
        caches.append(cache_t)
    return E, h, c, caches


def _keys(params: Params, E: Array) -> tuple[Array, Array]:
    """Slot states [e_0, e_1..e_n] (B, N+1, H) and their projections W1 e_j."""
    B, _, H = E.shape
    enc = np.concatenate([np.broadcast_to(params["end"], (B, 1, H)), E], axis=1)  # (B, N+1, H)
    return enc, enc @ params["W1"]


def _pointer(params: Params, keys: Array, d: Array, blocked: Bools) -> tuple[Array, Array]:
    """Log-probabilities over the n + 1 slots (B, N+1) and the tanh block (B, N+1, H)."""
    S = np.tanh(keys + (d @ params["W2"])[:, None, :])  # (B, N+1, H)
    u = np.where(blocked, -np.inf, S @ params["v"])  # (B, N+1)
    return _log_softmax(u), S


def _vocab(params: Params, d: Array) -> Array:
    """Log-probabilities over the 7 seq2seq tokens (B, 7)."""
    return _log_softmax(d @ params["out_W"] + params["out_b"])


def _log_softmax(u: Array) -> Array:
    """Log-softmax over the last axis; -inf entries stay -inf."""
    s = u - u.max(axis=-1, keepdims=True)
    return s - np.log(np.exp(s).sum(axis=-1, keepdims=True))


def _dec_input(params: Params, x: Array, prev: Ints | None) -> Array:
    """Decoder input (B, d_in): start / ⇒ at the first step, else the previous choice (its point or token)."""
    B = x.shape[0]
    if kind(params) == "ptrnet":
        if prev is None:
            return np.broadcast_to(params["start"], (B, 2)).astype(x.dtype)
        pts = x[np.arange(B), np.maximum(prev - 1, 0)]  # (B, 2)
        return np.where((prev > 0)[:, None], pts, np.zeros_like(pts))
    onehot = np.zeros((B, len(VOCAB)), dtype=x.dtype)
    onehot[np.arange(B), np.full(B, GO) if prev is None else prev] = 1.0
    return onehot


def _to_tokens(target: Ints) -> Ints:
    """1-based hull indices (0 = ⇐) as seq2seq token ids."""
    return np.where(target > 0, target - 1, STOP)


def _blocked(valid: Bools, chosen: Bools, first: Ints | None, mask: bool) -> Bools:
    """Slots that may not be chosen (B, N+1): padding, and with the mask every chosen point but the first."""
    blocked = np.concatenate([np.zeros((valid.shape[0], 1), dtype=bool), ~valid], axis=1)
    if mask:
        taken = chosen.copy()
        if first is not None:
            taken[np.arange(len(first)), first] = False
        blocked |= taken
    return blocked


# ---------------------------------------------------------------- forward, backward, decoding


def forward(params: Params, batch: Batch, mask: bool = False) -> tuple[float, Array, dict]:
    """Teacher-forced mean cross-entropy, per-step probabilities (B, T, slots) and the cache for backward()."""
    ptr = kind(params) == "ptrnet"
    x, valid = batch.x.astype(params["enc_Wx"].dtype), batch.valid
    B, T = batch.target.shape
    target = batch.target if ptr else _to_tokens(batch.target)
    E, h, c, enc_caches = _encode(params, x, valid)
    enc, keys = _keys(params, E) if ptr else (None, None)
    chosen = np.zeros((B, x.shape[1] + 1), dtype=bool)
    logps, steps = [], []
    for t in range(T):
        y = _dec_input(params, x, target[:, t - 1] if t else None)
        xz = y @ params["dec_Wx"] + params["dec_b"]
        h, c, cache_t = _lstm_step(xz, h, c, params["dec_Wh"])
        if ptr:
            logp, S = _pointer(params, keys, h, _blocked(valid, chosen, batch.target[:, 0] if t else None, mask))
            chosen[np.arange(B), batch.target[:, t]] |= batch.live[:, t] & (batch.target[:, t] > 0)
        else:
            logp, S = _vocab(params, h), None
        logps.append(logp)
        steps.append((y, h, cache_t, S))
    logp_all = np.stack(logps, axis=1)  # (B, T, slots)
    count = max(int(batch.live.sum()), 1)
    picked = np.take_along_axis(logp_all, target[:, :, None], axis=2)[:, :, 0]  # (B, T)
    loss = float(-np.where(batch.live, picked, 0.0).sum() / count)
    cache = {"x": x, "valid": valid, "target": target, "live": batch.live, "count": count, "enc": enc,
             "enc_caches": enc_caches, "steps": steps, "logp": logp_all}
    return loss, np.exp(logp_all), cache


def backward(params: Params, cache: dict) -> Params:
    """Analytic gradients of forward()'s loss (backprop through time)."""
    ptr = kind(params) == "ptrnet"
    grads = {k: np.zeros_like(p) for k, p in params.items()}
    x, valid, target, live = cache["x"], cache["valid"], cache["target"], cache["live"]
    B, T = target.shape
    H = params["dec_Wh"].shape[0]
    dkeys = np.zeros_like(cache["enc"]) if ptr else None  # (B, N+1, H)
    dh, dc = np.zeros((B, H), dtype=x.dtype), np.zeros((B, H), dtype=x.dtype)
    for t in reversed(range(T)):
        y, d, cache_t, S = cache["steps"][t]
        du = np.exp(cache["logp"][:, t])  # (B, slots), d loss / d scores
        du[np.arange(B), target[:, t]] -= 1.0
        du *= (live[:, t] / cache["count"]).astype(x.dtype)[:, None]
        if ptr:
            grads["v"] += du.reshape(-1) @ S.reshape(-1, H)
            dpre = (1.0 - S * S) * (du[:, :, None] * params["v"])  # (B, N+1, H)
            dkeys += dpre
            dq = dpre.sum(axis=1)  # (B, H)
            grads["W2"] += d.T @ dq
            dh += dq @ params["W2"].T
        else:
            grads["out_W"] += d.T @ du
            grads["out_b"] += du.sum(axis=0)
            dh += du @ params["out_W"].T
        dz, dh, dc = _lstm_back(cache_t, dh, dc, params["dec_Wh"], grads["dec_Wh"])
        grads["dec_b"] += dz.sum(axis=0)
        grads["dec_Wx"] += y.T @ dz
        if ptr and t == 0:
            grads["start"] += (dz @ params["dec_Wx"].T).sum(axis=0)
    dE = np.zeros((B, x.shape[1], H), dtype=x.dtype)
    if ptr:
        enc = cache["enc"]
        grads["W1"] += enc.reshape(-1, H).T @ dkeys.reshape(-1, H)
        denc = dkeys @ params["W1"].T  # (B, N+1, H)
        grads["end"] += denc[:, 0].sum(axis=0)
        dE = denc[:, 1:]
    for t in reversed(range(x.shape[1])):
        dh = dh + dE[:, t]
        m = valid[:, t : t + 1].astype(x.dtype)  # (B, 1)
        dz, dh_prev, dc_prev = _lstm_back(cache["enc_caches"][t], m * dh, m * dc, params["enc_Wh"], grads["enc_Wh"])
        dh, dc = (1.0 - m) * dh + dh_prev, (1.0 - m) * dc + dc_prev
        grads["enc_b"] += dz.sum(axis=0)
        grads["enc_Wx"] += x[:, t].T @ dz
    return grads


def loss_and_grads(params: Params, batch: Batch, mask: bool = False) -> tuple[float, Params]:
    """Teacher-forced loss and its gradients."""
    loss, _, cache = forward(params, batch, mask)
    return loss, backward(params, cache)


def decode(params: Params, x: Array, valid: Bools | None = None, mask: bool = False,
           max_steps: int | None = None) -> tuple[Ints, Array]:
    """Greedy decoding: choices (B, T) (Ptr-Net: 1-based point, 0 = ⇐; seq2seq: token id; -1 after the end)
    and the probabilities of every step (B, T, slots)."""
    ptr = kind(params) == "ptrnet"
    x = np.asarray(x).astype(params["enc_Wx"].dtype)
    B, N, _ = x.shape
    valid = np.ones((B, N), dtype=bool) if valid is None else valid
    max_steps = 2 * N + 2 if max_steps is None else max_steps
    stop = 0 if ptr else STOP
    E, h, c, _ = _encode(params, x, valid)
    _, keys = _keys(params, E) if ptr else (None, None)
    chosen = np.zeros((B, N + 1), dtype=bool)
    done = np.zeros(B, dtype=bool)
    prev = np.zeros(B, dtype=np.int64)
    first = np.zeros(B, dtype=np.int64)
    choices, probs = [], []
    for t in range(max_steps):
        y = _dec_input(params, x, prev if t else None)
        xz = y @ params["dec_Wx"] + params["dec_b"]
        h, c, _ = _lstm_step(xz, h, c, params["dec_Wh"])
        if ptr:
            logp, _ = _pointer(params, keys, h, _blocked(valid, chosen, first if t else None, mask))
        else:
            logp = _vocab(params, h)
        p = np.exp(logp)
        choice = np.where(done, -1, p.argmax(axis=1))
        if t == 0:
            first = np.maximum(choice, 0)
        if ptr:
            chosen[np.arange(B), np.maximum(choice, 0)] |= choice > 0
        choices.append(choice)
        probs.append(p)
        done |= choice == stop
        prev = np.where(choice < 0, 0 if ptr else STOP, choice)
        if done.all():
            break
    return np.stack(choices, axis=1), np.stack(probs, axis=1)


def sequences(params: Params, choices: Ints) -> list[list[int]]:
    """Greedy choices as 1-based index lists without ⇐ (seq2seq tokens 1..5 map to 1..5, ⇒ to 0)."""
    out = []
    for row in choices.tolist():
        if kind(params) == "ptrnet":
            seq = [j for j in row if j > 0] if 0 not in row else row[: row.index(0)]
        else:
            seq = row[: row.index(STOP)] if STOP in row else [j for j in row if j >= 0]
            seq = [j + 1 if j < S2S_N else 0 for j in seq]
        out.append(seq)
    return out


# ---------------------------------------------------------------- Adam, clipping, storage


class Adam:
    """Adam with gradient L2-norm clipping over all parameters together."""

    def __init__(self, params: Params, beta1: float = 0.9, beta2: float = 0.999, eps: float = 1e-8,
                 clip: float = 2.0) -> None:
        """Zero moments shaped like params."""
        self.m = {k: np.zeros_like(p) for k, p in params.items()}
        self.v = {k: np.zeros_like(p) for k, p in params.items()}
        self.t = 0
        self.beta1, self.beta2, self.eps, self.clip = beta1, beta2, eps, clip

    def step(self, params: Params, grads: Params, lr: float) -> float:
        """Clip grads to norm self.clip, update params in place, return the norm before clipping."""
        norm = float(np.sqrt(sum(float((g.astype(np.float64) ** 2).sum()) for g in grads.values())))
        scale = min(1.0, self.clip / (norm + 1e-12))
        self.t += 1
        a = lr * np.sqrt(1.0 - self.beta2**self.t) / (1.0 - self.beta1**self.t)
        for k, p in params.items():
            g = grads[k] * p.dtype.type(scale)
            self.m[k] += (1.0 - self.beta1) * (g - self.m[k])
            self.v[k] += (1.0 - self.beta2) * (g * g - self.v[k])
            p -= (a * self.m[k] / (np.sqrt(self.v[k]) + self.eps)).astype(p.dtype)
        return norm


SCALE = "__scale"  # suffix of the per-row scale stored next to an int8 matrix


def save_params(path: Any, params: Params) -> None:
    """Write params as a compressed .npz: matrices as int8 with a float32 scale per row, vectors float32.

    A quarter of float32's size, so the site fetches less; the measured accuracies are those of
    these rounded weights (hull_results.json is computed from the shipped files).
    """
    arrays = {}
    for k, v in params.items():
        if v.ndim < 2:
            arrays[k] = v.astype(np.float32)
            continue
        scale = np.abs(v).max(axis=tuple(range(1, v.ndim)), keepdims=True).astype(np.float32) / 127  # (rows, 1)
        scale[scale == 0] = 1
        arrays[k] = np.round(v / scale).astype(np.int8)
        arrays[k + SCALE] = scale
    np.savez_compressed(path, **arrays)


def load_params(source: Any, dtype: Any = np.float64) -> Params:
    """Read params from a .npz path or bytes (int8 matrices scaled back), cast to dtype."""
    with np.load(BytesIO(source) if isinstance(source, bytes) else source) as f:
        names = [k for k in f.files if not k.endswith(SCALE)]
        return {k: (f[k] * f[k + SCALE] if k + SCALE in f.files else f[k]).astype(dtype) for k in names}


@cache
def shipped(model: str) -> Params:
    """The packaged weights of 'ptrnet' or 'seq2seq' (float64, loaded once)."""
    path = resources.files("ptrnet").joinpath(f"data/hull_{model}.npz")
    if not path.is_file():  # the site's wheel leaves the weights out; its worker fetches them
        raise MissingData(str(path))
    return load_params(path.read_bytes())


# ---------------------------------------------------------------- what the browser asks for


@cache
def model_card() -> dict:
    """The packaged model card (data/hull_model_card.json)."""
    import json

    return dict(json.loads(resources.files("ptrnet").joinpath("data/hull_model_card.json").read_text("utf-8")))


def card_summary() -> dict:
    """A few lines of the model card for the page: sizes, training range and measured accuracy."""
    m = model_card()["models"]["ptrnet"]
    cfg, metrics = m["hyper_parameters"], m["metrics"]
    return {"name": "Ptr-Net (LSTM)", "hidden": cfg["hidden"], "train_n": f"{cfg['min_n']}-{cfg['max_n']}",
            "steps": cfg["steps"], "wall_seconds": m["wall_seconds"], "parameters": m["parameters"],
            "accuracy": {k.split("_")[1]: v["accuracy"] for k, v in metrics.items()}, "illustrative": False}


def hull_steps(points: Sequence[Sequence[float]], mask: bool) -> dict:
    """Greedy Ptr-Net decoding of one point set, step by step: input, choice (0 = ⇐) and [P1..Pn, ⇐] per step."""
    x = np.asarray(points, dtype=np.float64).reshape(1, -1, 2)  # (1, n, 2)
    choices, probs = decode(shipped("ptrnet"), x, mask=mask)
    steps, prev = [], 0
    for choice, p in zip(choices[0].tolist(), probs[0], strict=True):
        if choice < 0:
            break
        steps.append({"input": prev, "choice": choice, "probs": [*p[1:].tolist(), float(p[0])]})
        prev = choice
    return {"steps": steps, "output": sequences(shipped("ptrnet"), choices[:, : len(steps)])[0],
            "ended": bool(steps) and steps[-1]["choice"] == 0}


def seq2seq_tokens(points: Sequence[Sequence[float]]) -> list[str]:
    """Greedy output tokens of the n = 5 seq2seq baseline, without the final ⇐."""
    choices, _ = decode(shipped("seq2seq"), np.asarray(points, dtype=np.float64).reshape(1, -1, 2))
    row = [t for t in choices[0].tolist() if t >= 0]
    return [VOCAB[t] for t in (row[:-1] if row and row[-1] == STOP else row)]
