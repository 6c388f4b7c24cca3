"""LSTM Ptr-Net (Vinyals et al. 2015) and the LSTM seq2seq baseline, numpy only: the model and its gradients.

Both models share one LSTM encoder over the 2-D points and one LSTM decoder whose
initial state is the encoder's final state; both use the package's one cell
(ptrnet.lstm, gates i, f, o, g).

Ptr-Net ("ptrnet"): slot 0 is the end slot ⇐ with a learned encoder state e_0
("end"); slots 1..n are the points. The decoder's first input is a learned
start vector ("start", 2 numbers), later inputs are the coordinates of the
previously chosen point. The output distribution over the n + 1 slots is

    u_ij = v . tanh(W1 e_j + W2 d_i),   p_i = softmax_j(u_ij).

Seq2seq ("seq2seq"): a fixed softmax over the 7 tokens {1..5, ⇒, ⇐} (ids 0..6)
computed as d_i @ out_W + out_b; the decoder input is the one-hot of the
previous token (⇒ first).

forward() is the teacher-forced pass of training; ptrnet.decoding runs the same
step functions (encode, decoder_step) feeding back its own choices under a rule of
ptrnet.slot_rules. The dtype of the parameters (float32 for training, float64 for
checks) is kept throughout.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ptrnet import lstm
from ptrnet.slot_rules import blocked_slots

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


def init_params(
    model: str, hidden: int, seed: int, scale: float = 0.08, forget_bias: float = 1.0, dtype: Any = np.float32
) -> Params:
    """Uniform(-scale, scale) weights as in the paper, forget-gate biases at forget_bias."""
    rng = np.random.default_rng(seed)
    H, d_in = hidden, 2 if model == "ptrnet" else len(VOCAB)
    shapes = {
        "enc_Wx": (2, 4 * H),
        "enc_Wh": (H, 4 * H),
        "enc_b": (4 * H,),
        "dec_Wx": (d_in, 4 * H),
        "dec_Wh": (H, 4 * H),
        "dec_b": (4 * H,),
    }
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
        hn, cn, cache_t = lstm.step(xz[:, t], h, c, params["enc_Wh"])
        m = valid[:, t : t + 1]  # (B, 1)
        h, c = np.where(m, hn, h), np.where(m, cn, c)
        E[:, t] = h
        caches.append(cache_t)
    return E, h, c, caches


def _keys(params: Params, E: Array) -> tuple[Array, Array]:
    """Slot states [e_0, e_1..e_n] (B, N+1, H) and their projections W1 e_j."""
    B, _, H = E.shape
    enc = np.concatenate([np.broadcast_to(params["end"], (B, 1, H)), E], axis=1)  # (B, N+1, H)
    return enc, lstm.times(enc, params["W1"])


def _pointer(params: Params, keys: Array, d: Array, blocked: Bools) -> tuple[Array, Array]:
    """Log-probabilities over the n + 1 slots (B, N+1) and the tanh block (B, N+1, H)."""
    S = np.tanh(keys + lstm.times(d, params["W2"])[:, None, :])  # (B, N+1, H)
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
        h, c, cache_t = lstm.step(xz, h, c, params["dec_Wh"])
        if ptr:
            blocked = blocked_slots("mask" if mask else "free", valid, chosen, batch.target[:, 0] if t else None, t)
            logp, S = _pointer(params, keys, h, blocked)
            chosen[np.arange(B), batch.target[:, t]] |= batch.live[:, t] & (batch.target[:, t] > 0)
        else:
            logp, S = _vocab(params, h), None
        logps.append(logp)
        steps.append((y, h, cache_t, S))
    logp_all = np.stack(logps, axis=1)  # (B, T, slots)
    count = max(int(batch.live.sum()), 1)
    picked = np.take_along_axis(logp_all, target[:, :, None], axis=2)[:, :, 0]  # (B, T)
    loss = float(-np.where(batch.live, picked, 0.0).sum() / count)
    cache = {
        "x": x,
        "valid": valid,
        "target": target,
        "live": batch.live,
        "count": count,
        "enc": enc,
        "enc_caches": enc_caches,
        "steps": steps,
        "logp": logp_all,
    }
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
        dz, dh, dc = lstm.backward(cache_t, dh, dc, params["dec_Wh"], grads["dec_Wh"])
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
        dz, dh_prev, dc_prev = lstm.backward(cache["enc_caches"][t], m * dh, m * dc, params["enc_Wh"], grads["enc_Wh"])
        dh, dc = (1.0 - m) * dh + dh_prev, (1.0 - m) * dc + dc_prev
        grads["enc_b"] += dz.sum(axis=0)
        grads["enc_Wx"] += x[:, t].T @ dz
    return grads


def loss_and_grads(params: Params, batch: Batch, mask: bool = False) -> tuple[float, Params]:
    """Teacher-forced loss and its gradients."""
    loss, _, cache = forward(params, batch, mask)
    return loss, backward(params, cache)


def encode(params: Params, x: Array, valid: Bools) -> tuple[Array | None, Array, Array]:
    """What decoding needs from the encoder: slot keys W1 e_j (B, N+1, H) (Ptr-Net; None for seq2seq), h, c."""
    E, h, c, _ = _encode(params, x, valid)
    return (_keys(params, E)[1] if kind(params) == "ptrnet" else None), h, c


def decoder_step(
    params: Params, keys: Array | None, x: Array, prev: Ints | None, h: Array, c: Array, blocked: Bools | None
) -> tuple[Array, Array, Array]:
    """One decoding step after choosing prev (None at the first step): log-probabilities (B, slots), h, c."""
    y = _dec_input(params, x, prev)
    h, c, _ = lstm.step(y @ params["dec_Wx"] + params["dec_b"], h, c, params["dec_Wh"])
    if keys is None:
        return _vocab(params, h), h, c
    return _pointer(params, keys, h, blocked)[0], h, c
