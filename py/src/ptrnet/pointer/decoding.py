"""Decoding the LSTM models of ptrnet.pointer.lstm_ptr: greedy (with every step's probabilities) and beam search
(its most probable sequence, or every beam for the caller to choose from).

A rule (slot_rules.RULES) says which slots a step may take: "free" as in the paper's hull and Delaunay
decoding, "mask" for demo 4's toggle, "tour" for the paper's search constrained to valid tours.
Choices are 1-based points with 0 for ⇐ (seq2seq: token ids), and -1 after the end.
"""

from __future__ import annotations

import numpy as np

from ptrnet.pointer import lstm_ptr as L
from ptrnet.pointer.lstm_ptr import Array, Bools, Ints, Params
from ptrnet.pointer.slot_rules import blocked_slots


def _prepare(params: Params, x: Array, valid: Bools | None, max_steps: int | None) -> tuple[Array, Bools, int]:
    """Inputs in the parameters' dtype, the validity mask and the step cap (2n + 2 unless given)."""
    x = np.asarray(x).astype(params["enc_Wx"].dtype)
    valid = np.ones(x.shape[:2], dtype=bool) if valid is None else valid
    return x, valid, 2 * x.shape[1] + 2 if max_steps is None else max_steps


def greedy(
    params: Params, x: Array, valid: Bools | None = None, rule: str = "free", max_steps: int | None = None
) -> tuple[Ints, Array]:
    """The most probable choice at every step: choices (B, T) and every step's probabilities (B, T, slots)."""
    choices, probs, _ = _greedy(params, x, valid, rule, max_steps, attend=False)
    return choices, probs


def _greedy(
    params: Params, x: Array, valid: Bools | None, rule: str, max_steps: int | None, attend: bool
) -> tuple[Ints, Array, Array | None]:
    """Greedy decoding; with attend, also each step's attention weights over the inputs (B, T, N)."""
    x, valid, max_steps = _prepare(params, x, valid, max_steps)
    B, N, _ = x.shape
    ptr = L.kind(params) == "ptrnet"
    stop = 0 if ptr else L.stop_id(params)
    keys, h, c = L.encode(params, x, valid)
    inputs = L.decoder_inputs(params, x)
    rows = np.arange(B)
    chosen = np.zeros((B, N + 1), dtype=bool)  # what the mask and tour rules read; "free" blocks padding only
    free = blocked_slots("free", valid, chosen, None, 0) if ptr and rule == "free" else None
    done = np.zeros(B, dtype=bool)
    prev = first = np.zeros(B, dtype=np.int64)
    choices, logits, attention = [], [], []
    for t in range(max_steps):
        if ptr and free is None:
            blocked = blocked_slots(rule, valid, chosen, first if t else None, t)
        else:
            blocked = free  # the free rule's (the same at every step), None for seq2seq
        h, c = L.decoder_state(params, inputs, prev if t else None, h, c)
        u = L.step_logits(params, keys, h, blocked)  # (B, slots): the softmax keeps their order
        if attend:
            attention.append(L.attention_weights(params, keys, h))
        choice = np.where(done, -1, u.argmax(axis=1))
        if t == 0:
            first = np.maximum(choice, 0)
        if free is None and ptr:
            chosen[rows, np.maximum(choice, 0)] |= choice > 0
        choices.append(choice)
        logits.append(u)
        done |= choice == stop
        prev = np.where(choice < 0, stop, choice)
        if done.all():
            break
    probs = np.exp(L.log_softmax(np.stack(logits, axis=1)))  # (B, T, slots)
    return np.stack(choices, axis=1), probs, np.stack(attention, axis=1) if attend else None


def beam_search(
    params: Params,
    x: Array,
    width: int = 1,
    valid: Bools | None = None,
    rule: str = "free",
    max_steps: int | None = None,
) -> tuple[Ints, Array]:
    """The most probable finished sequence among `width` beams (Ptr-Net): choices (B, T) and log-probabilities (B,).

    Beams that reached ⇐ stay in the beam at no cost; width 1 is greedy decoding.
    """
    seqs, score, finished = _search(params, x, width, valid, rule, max_steps, until_decided=True)
    pick = np.where(finished.any(axis=1, keepdims=True), np.where(finished, score, -np.inf), score)
    best = pick.argmax(axis=1)  # (B,)
    rows = np.arange(len(best))
    return seqs[rows, best], score[rows, best]


def beams(
    params: Params,
    x: Array,
    width: int,
    valid: Bools | None = None,
    rule: str = "free",
    max_steps: int | None = None,
) -> tuple[Ints, Array, Bools]:
    """Every beam of a search run until all have reached ⇐ (or max_steps): choices (B, K, T), log-probabilities
    (B, K; -inf where fewer than K sequences exist) and which reached ⇐ (B, K), most probable first."""
    return _search(params, x, width, valid, rule, max_steps, until_decided=False)


def _search(
    params: Params, x: Array, width: int, valid: Bools | None, rule: str, max_steps: int | None, until_decided: bool
) -> tuple[Ints, Array, Bools]:
    """Beam search of a Ptr-Net (its slots are the steps' choices); until_decided stops as soon as no live beam can
    overtake the best finished one."""
    x, valid, max_steps = _prepare(params, x, valid, max_steps)
    B, N, _ = x.shape
    K, S = width, N + 1
    keys, h, c = L.encode(params, x, valid)
    rep = np.repeat(np.arange(B), K)  # (B*K,) example of each beam row
    keys, h, c, vr = keys[rep], h[rep], c[rep], valid[rep]
    inputs = L.decoder_inputs(params, x)  # (B, R, 4H): each beam reads its example's, through rep
    by_example = np.arange(B)[:, None]  # (B, 1)
    all_rows = np.arange(B * K)
    score = np.full((B, K), -np.inf)
    score[:, 0] = 0.0  # one live beam at the start
    seqs = np.full((B, K, max_steps), -1, dtype=np.int64)
    chosen = np.zeros((B * K, S), dtype=bool)
    done = np.zeros(B * K, dtype=bool)
    prev = first = np.zeros(B * K, dtype=np.int64)
    stay = np.where(np.arange(S) == 0, 0.0, -np.inf)  # (S,) a finished beam's only continuation
    free = blocked_slots("free", vr, chosen, None, 0) if rule == "free" else None  # the same at every step
    unread: list[Ints | None] = []  # choices the decoder has yet to read (None: ⇒), in the rows' current order
    state = rep  # (B*K,) rows with the same label hold the same h and c (copies of one beam's)
    for t in range(max_steps):
        blocked = free if free is not None else blocked_slots(rule, vr, chosen, first if t else None, t)
        blocked = np.broadcast_to(blocked, (B * K, S))
        unread.append(prev if t else None)
        scored = np.isfinite(score).reshape(-1) & ~done  # (B*K,) live rows: the others' steps cannot matter
        if (blocked[scored].sum(axis=1) == S - 1).all():
            logp = np.where(blocked, -np.inf, 0.0)  # a forced step: its one open slot has probability 1
        else:
            logp = _read(params, keys, inputs, rep, unread, h, c, blocked, scored, state)
            unread, state = [], all_rows
        if done.any():
            logp = np.where(done[:, None], stay, logp)  # (B*K, S)
        cand = (score.reshape(-1, 1) + logp).reshape(B, K * S)
        top = np.argsort(-cand, axis=1, kind="stable")[:, :K]  # (B, K) best candidates, ties to the lower slot
        score = cand[by_example, top]
        beam = top // S  # (B, K)
        rows = (by_example * K + beam).reshape(-1)  # (B*K,) the beam row each candidate extends
        h, c, chosen, first, was_done, state = h[rows], c[rows], chosen[rows], first[rows], done[rows], state[rows]
        unread = [p if p is None else p[rows] for p in unread]
        choice = np.where(was_done, -1, (top % S).reshape(-1))
        seqs = seqs[by_example, beam]
        seqs[:, :, t] = choice.reshape(B, K)
        if t == 0:
            first = np.maximum(choice, 0)
        chosen[all_rows, np.maximum(choice, 0)] |= choice > 0
        done = was_done | (choice == 0)
        prev = np.maximum(choice, 0)
        finished = done.reshape(B, K) & np.isfinite(score)
        live = np.where(finished | ~np.isfinite(score), -np.inf, score)  # (B, K)
        if not np.isfinite(live).any():
            break  # every beam has ended
        if until_decided and (np.where(finished, score, -np.inf).max(axis=1) >= live.max(axis=1)).all():
            break  # a live beam can only lose probability: no finished best can be overtaken
    return seqs[:, :, : t + 1], score, done.reshape(B, K) & np.isfinite(score)


def _read(
    params: Params,
    keys: Array,
    inputs: Array,
    example: Ints,
    unread: list,
    h: Array,
    c: Array,
    blocked: Bools,
    scored: Bools,
    state: Ints,
) -> Array:
    """Log-probabilities (rows, slots) after the decoder reads the unread choices (inputs: the examples' tables,
    example: each row's), for the scored rows only (the rest: -inf); their h and c are updated in place. Forced
    steps left their choices unread, so a tour's first step and its last three run no model, and the one live
    beam of the first steps runs as one row; rows whose state labels agree share their first product by the
    decoder's weights (a third of the rows, measured on tours of 7-12 points)."""
    at = slice(None) if scored.all() else np.flatnonzero(scored)
    h_at, c_at = h[at], c[at]
    _, distinct, back = np.unique(state[at], return_index=True, return_inverse=True)
    twins = (distinct, back.reshape(-1)) if len(distinct) < len(back) else None
    for prev in unread:
        read = None if prev is None else prev[at]
        h_at, c_at = L.decoder_state(params, inputs, read, h_at, c_at, twins, tables=example[at])
        twins = None  # the rows read different choices: their states now differ
    h[at], c[at] = h_at, c_at
    logp = np.full(blocked.shape, -np.inf, dtype=h.dtype)
    logp[at] = L.step_scores(params, keys[at], h_at, blocked[at])
    return logp


def sequences(params: Params, choices: Ints) -> list[list[int]]:
    """Choices as 1-based index lists without ⇐ (seq2seq tokens 1..V-2 map to 1..V-2, ⇒ to 0)."""
    out = []
    for row in choices.tolist():
        if L.kind(params) == "ptrnet":
            seq = [j for j in row if j > 0] if 0 not in row else row[: row.index(0)]
        else:
            go, stop = L.go_id(params), L.stop_id(params)
            seq = row[: row.index(stop)] if stop in row else [j for j in row if j >= 0]
            seq = [j + 1 if j < go else 0 for j in seq]
        out.append(seq)
    return out


def greedy_attention(params: Params, x: Array, max_steps: int | None = None) -> tuple[Ints, Array, Array]:
    """Greedy decoding of the attention seq2seq with what it attended to: token ids (B, T; -1 after ⇐), every
    step's token probabilities (B, T, V) and attention weights over the inputs (B, T, N)."""
    return _greedy(params, x, None, "free", max_steps, attend=True)
