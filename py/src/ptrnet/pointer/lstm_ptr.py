"""LSTM Ptr-Net (Vinyals et al. 2015) and the LSTM seq2seq baseline, numpy only: the model's inference steps.

Both models share one LSTM encoder over the 2-D points and one LSTM decoder whose
initial state is the encoder's final state; both use the package's one cell
(ptrnet.nn.lstm, gates i, f, o, g).

Ptr-Net ("ptrnet"): slot 0 is the end slot ⇐ with a learned encoder state e_0
("end"); slots 1..n are the points. The decoder's first input is a learned
start vector ("start", 2 numbers), later inputs are the coordinates of the
previously chosen point. The output distribution over the n + 1 slots is

    u_ij = v . tanh(W1 e_j + W2 d_i),   p_i = softmax_j(u_ij).

Seq2seq ("seq2seq"): a fixed softmax over the V tokens {1..V-2, ⇒, ⇐} (ids 0..V-1;
the n = 5 baseline has V = 7) computed as d_i @ out_W + out_b; the decoder input is
the one-hot of the previous token (⇒ first).

Seq2seq with attention ("attention", the paper's LSTM+attention baseline): the same,
with additive attention over the encoder states,

    a_ij = softmax_j(att_v . tanh(att_W1 e_j + att_W2 d_i)),   logits = [d_i, sum_j a_ij e_j] @ out_W + out_b.

ptrnet.pointer.decoding runs the step functions (encode, decoder_state, step_logits) feeding back its own
choices under a rule of ptrnet.pointer.slot_rules; the numpy trainer's teacher-forced pass and its
gradients (ptrnet.learn.grad) are built from the same steps. The dtype of the parameters
(float32 for the pages, float64 for checks) is kept throughout.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ptrnet.limits import SEQ2SEQ_N
from ptrnet.nn import lstm

Array = NDArray[np.floating]
Ints = NDArray[np.int64]
Bools = NDArray[np.bool_]
Params = dict[str, Array]

VOCAB = [*map(str, range(1, SEQ2SEQ_N + 1)), "⇒", "⇐"]  # the n = 5 seq2seq baseline's tokens, ids 0..6
GO, STOP = SEQ2SEQ_N, SEQ2SEQ_N + 1  # ids of ⇒ and ⇐ in VOCAB


def kind(params: Params) -> str:
    """'ptrnet', 'seq2seq' or 'attention' (seq2seq with attention), from the parameter names."""
    return "ptrnet" if "W1" in params else "attention" if "att_v" in params else "seq2seq"


def tokens(params: Params) -> list[str]:
    """A seq2seq model's output tokens by id: the point numbers 1..V-2, then ⇒ and ⇐."""
    V = params["out_b"].shape[0]
    return [str(k) for k in range(1, V - 1)] + ["⇒", "⇐"]


def go_id(params: Params) -> int:
    """The id of ⇒ (the first decoder input) in a seq2seq model's tokens."""
    return params["out_b"].shape[0] - 2


def stop_id(params: Params) -> int:
    """The id of ⇐ (end of the answer) in a seq2seq model's tokens."""
    return params["out_b"].shape[0] - 1


# ---------------------------------------------------------------- shared step functions


def encoder_states(params: Params, x: Array, valid: Bools) -> tuple[Array, Array, Array, list]:
    """Encoder states (B, N, H) (carried over padding), final h and c, and per-step caches."""
    B, N, _ = x.shape
    H = params["enc_Wh"].shape[0]
    xz = lstm.times(x, params["enc_Wx"]) + params["enc_b"]  # (B, N, 4H)
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


def slot_keys(params: Params, E: Array) -> tuple[Array, Array]:
    """Slot states [e_0, e_1..e_n] (B, N+1, H) and their projections W1 e_j."""
    B, _, H = E.shape
    enc = np.concatenate([np.broadcast_to(params["end"], (B, 1, H)), E], axis=1)  # (B, N+1, H)
    return enc, lstm.times(enc, params["W1"])


def pointer_scores(params: Params, keys: Array, d: Array, blocked: Bools) -> tuple[Array, Array]:
    """Log-probabilities over the n + 1 slots (B, N+1) and the tanh block (B, N+1, H)."""
    u, S = _pointer_logits(params, keys, d, blocked)
    return log_softmax(u), S


def _pointer_logits(params: Params, keys: Array, d: Array, blocked: Bools | None) -> tuple[Array, Array]:
    """The scores u_ij over the n + 1 slots (B, N+1; -inf where blocked) and the tanh block (B, N+1, H)."""
    S = np.tanh(keys + lstm.times(d, params["W2"])[:, None, :])  # (B, N+1, H)
    u = S @ params["v"]  # (B, N+1)
    return (u if blocked is None else np.where(blocked, -np.inf, u)), S


def vocab_scores(params: Params, d: Array) -> Array:
    """Log-probabilities over a seq2seq model's V tokens (B, V)."""
    return log_softmax(_vocab_logits(params, d))


def _vocab_logits(params: Params, d: Array) -> Array:
    """A seq2seq model's token scores (B, V)."""
    return d @ params["out_W"] + params["out_b"]


def attention_weights(params: Params, keys: Array, d: Array) -> Array:
    """The attention model's weights over the n inputs (B, N) for decoder states d (B, H); keys: encode()'s."""
    H = d.shape[1]
    u = np.tanh(keys[:, :, H:] + lstm.times(d, params["att_W2"])[:, None, :]) @ params["att_v"]  # (B, N)
    a = np.exp(u - u.max(axis=1, keepdims=True))
    return a / a.sum(axis=1, keepdims=True)


def _attended_logits(params: Params, keys: Array, d: Array) -> Array:
    """The attention model's token scores (B, V): its output layer reads [d, context]."""
    H = d.shape[1]
    context = np.einsum("bn,bnh->bh", attention_weights(params, keys, d), keys[:, :, :H])  # (B, H)
    return np.concatenate([d, context], axis=1) @ params["out_W"] + params["out_b"]


def log_softmax(u: Array) -> Array:
    """Log-softmax over the last axis; -inf entries stay -inf."""
    s = u - u.max(axis=-1, keepdims=True)
    return s - np.log(np.exp(s).sum(axis=-1, keepdims=True))


def decoder_input(params: Params, x: Array, prev: Ints | None) -> Array:
    """Decoder input (B, d_in): start / ⇒ at the first step, else the previous choice (its point or token)."""
    B = x.shape[0]
    if kind(params) == "ptrnet":
        if prev is None:
            return np.broadcast_to(params["start"], (B, 2)).astype(x.dtype)
        pts = x[np.arange(B), np.maximum(prev - 1, 0)]  # (B, 2)
        return np.where((prev > 0)[:, None], pts, np.zeros_like(pts))
    onehot = np.zeros((B, params["out_b"].shape[0]), dtype=x.dtype)
    onehot[np.arange(B), np.full(B, go_id(params)) if prev is None else prev] = 1.0
    return onehot


# ---------------------------------------------------------------- decoding


def encode(params: Params, x: Array, valid: Bools) -> tuple[Array | None, Array, Array]:
    """What decoding needs from the encoder, and h, c: the Ptr-Net's slot keys W1 e_j (B, N+1, H), the attention
    model's [e_j, att_W1 e_j] (B, N, 2H), nothing (None) for the plain seq2seq."""
    E, h, c, _ = encoder_states(params, x, valid)
    model = kind(params)
    if model == "ptrnet":
        return slot_keys(params, E)[1], h, c
    return (np.concatenate([E, lstm.times(E, params["att_W1"])], axis=2) if model == "attention" else None), h, c


def decoder_inputs(params: Params, x: Array) -> Array:
    """The decoder's input pre-activations (B, R, 4H) for everything it can read, computed once per decoding: row j
    for choice j (Ptr-Net: ⇐'s zero input, then the points; seq2seq: the tokens), the last row for the start / ⇒."""
    B = x.shape[0]
    if kind(params) == "ptrnet":
        start = np.broadcast_to(params["start"], (B, 1, 2)).astype(x.dtype)
        y = np.concatenate([np.zeros((B, 1, 2), dtype=x.dtype), x, start], axis=1)  # (B, N+2, 2)
        return lstm.times(y, params["dec_Wx"]) + params["dec_b"]
    rows = params["dec_Wx"][[*range(params["out_b"].shape[0]), go_id(params)]] + params["dec_b"]  # (V+1, 4H)
    return np.broadcast_to(rows, (B, *rows.shape))


def decoder_state(
    params: Params,
    inputs: Array,
    prev: Ints | None,
    h: Array,
    c: Array,
    twins: tuple[Ints, Ints] | None = None,
    tables: Ints | None = None,
) -> tuple[Array, Array]:
    """The decoder's h and c after it reads prev (None: the start ⇒); inputs: decoder_inputs(), read by row b for
    state b unless tables says which (beams read their example's). twins (distinct, back), where h[distinct][back]
    is h, multiplies each distinct state by the weights once (beams that extend the same beam share it)."""
    B = h.shape[0]
    rows = np.arange(B) if tables is None else tables
    xz = inputs[rows, np.full(B, inputs.shape[1] - 1) if prev is None else prev]  # (B, 4H)
    if twins is None:
        hidden = lstm.times(h, params["dec_Wh"])
    else:
        hidden = lstm.times(h[twins[0]], params["dec_Wh"])[twins[1]]
    h, c, _ = lstm.step_from(xz + hidden, h, c)
    return h, c


def step_scores(params: Params, keys: Array | None, h: Array, blocked: Bools | None) -> Array:
    """Log-probabilities over the next step's slots (Ptr-Net) or tokens (B, slots) from the decoder's h."""
    return log_softmax(step_logits(params, keys, h, blocked))


def step_logits(params: Params, keys: Array | None, h: Array, blocked: Bools | None) -> Array:
    """step_scores() before the softmax (B, slots; -inf where blocked): greedy decoding needs only their argmax."""
    model = kind(params)
    if model == "seq2seq":
        return _vocab_logits(params, h)
    if model == "attention":
        return _attended_logits(params, keys, h)
    return _pointer_logits(params, keys, h, blocked)[0]
