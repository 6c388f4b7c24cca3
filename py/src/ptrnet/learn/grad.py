"""The training side of ptrnet.pointer.lstm_ptr: initial weights, padded batches, the teacher-forced pass and its
analytic gradients (backprop through time), built from the model's own step functions. The page's hull trainer
(ptrnet.learn.hull_trainer) and the offline CPython trainer (training.trainers.np_train) both use it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ptrnet.learn.cell import cell_backward
from ptrnet.nn import lstm
from ptrnet.pointer.lstm_ptr import (
    STOP,
    VOCAB,
    Array,
    Bools,
    Ints,
    Params,
    decoder_input,
    encoder_states,
    kind,
    pointer_scores,
    slot_keys,
    vocab_scores,
)
from ptrnet.pointer.slot_rules import blocked_slots


@dataclass(frozen=True)
class Batch:
    """Padded training examples; target 0 is the end slot ⇐, j >= 1 is point j."""

    x: Array  # (B, N, 2) point coordinates, zero where padded
    valid: Bools  # (B, N) real points
    target: Ints  # (B, T) 1-based hull sequence then 0 (⇐); padding is 0 with live False
    live: Bools  # (B, T) steps that count in the loss


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


def _to_tokens(target: Ints) -> Ints:
    """1-based hull indices (0 = ⇐) as seq2seq token ids."""
    return np.where(target > 0, target - 1, STOP)


def forward(params: Params, batch: Batch, mask: bool = False) -> tuple[float, Array, dict]:
    """Teacher-forced mean cross-entropy, per-step probabilities (B, T, slots) and the cache for backward()."""
    ptr = kind(params) == "ptrnet"
    x, valid = batch.x.astype(params["enc_Wx"].dtype), batch.valid
    B, T = batch.target.shape
    target = batch.target if ptr else _to_tokens(batch.target)
    E, h, c, enc_caches = encoder_states(params, x, valid)
    enc, keys = slot_keys(params, E) if ptr else (None, None)
    chosen = np.zeros((B, x.shape[1] + 1), dtype=bool)
    logps, steps = [], []
    for t in range(T):
        y = decoder_input(params, x, target[:, t - 1] if t else None)
        xz = lstm.times(y, params["dec_Wx"]) + params["dec_b"]
        h, c, cache_t = lstm.step(xz, h, c, params["dec_Wh"])
        if ptr:
            blocked = blocked_slots("mask" if mask else "free", valid, chosen, batch.target[:, 0] if t else None, t)
            logp, S = pointer_scores(params, keys, h, blocked)
            chosen[np.arange(B), batch.target[:, t]] |= batch.live[:, t] & (batch.target[:, t] > 0)
        else:
            logp, S = vocab_scores(params, h), None
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
            grads["v"] += lstm.times(du.reshape(-1), S.reshape(-1, H))
            dpre = (1.0 - S * S) * (du[:, :, None] * params["v"])  # (B, N+1, H)
            dkeys += dpre
            dq = dpre.sum(axis=1)  # (B, H)
            grads["W2"] += lstm.batch_outer(d, dq)
            dh += lstm.times_transposed(dq, params["W2"])
        else:
            grads["out_W"] += lstm.batch_outer(d, du)
            grads["out_b"] += du.sum(axis=0)
            dh += lstm.times_transposed(du, params["out_W"])
        dz, dh, dc = cell_backward(cache_t, dh, dc, params["dec_Wh"], grads["dec_Wh"])
        grads["dec_b"] += dz.sum(axis=0)
        grads["dec_Wx"] += lstm.batch_outer(y, dz)
        if ptr and t == 0:
            grads["start"] += lstm.times_transposed(dz, params["dec_Wx"]).sum(axis=0)
    dE = np.zeros((B, x.shape[1], H), dtype=x.dtype)
    if ptr:
        enc = cache["enc"]
        grads["W1"] += lstm.batch_outer(enc.reshape(-1, H), dkeys.reshape(-1, H))
        denc = lstm.times_transposed(dkeys, params["W1"])  # (B, N+1, H)
        grads["end"] += denc[:, 0].sum(axis=0)
        dE = denc[:, 1:]
    for t in reversed(range(x.shape[1])):
        dh = dh + dE[:, t]
        m = valid[:, t : t + 1].astype(x.dtype)  # (B, 1)
        dz, dh_prev, dc_prev = cell_backward(cache["enc_caches"][t], m * dh, m * dc, params["enc_Wh"], grads["enc_Wh"])
        dh, dc = (1.0 - m) * dh + dh_prev, (1.0 - m) * dc + dc_prev
        grads["enc_b"] += dz.sum(axis=0)
        grads["enc_Wx"] += lstm.batch_outer(x[:, t], dz)
    return grads


def loss_and_grads(params: Params, batch: Batch, mask: bool = False) -> tuple[float, Params]:
    """Teacher-forced loss and its gradients."""
    loss, _, cache = forward(params, batch, mask)
    return loss, backward(params, cache)
