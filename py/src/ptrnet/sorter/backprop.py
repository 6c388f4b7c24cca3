"""The sorter's teacher-forced loss on a training batch and its gradient, on buffers kept per batch shape.

The model sees the positions of a sequence as a set, so sorting each sequence first changes
nothing in the loss, and it makes the teacher the same for every sequence: step i points at
sorted position i after x_prev = the number at sorted position i - 1, and with the mask on,
step i scores only positions i..n-1. A batch of length n is then one fixed list of (step,
position) pairs, and every large array below is laid out by pair (batch, pairs, H): the n^2
pairs without the mask, the n (n + 1) / 2 the mask leaves. numpy calls per iteration are few
and each works on a whole batch.

tanh runs as 1 - 2 r through model.pair_r, so u = sum(v) - 2 r . v and 1 - tanh^2 = 4 r (1 - r).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ptrnet.sorter.model import PARAM_NAMES, Array, Params, exp_bound, flatten, pair_r, unflatten


class Workspace:
    """Index arrays and reused buffers for batches of one shape."""

    def __init__(self, batch: int, n: int, mask: bool, hidden: int) -> None:
        """Lay out the (step, position) pairs the loss sees and allocate every buffer once."""
        steps, cols = np.nonzero(~np.tri(n, k=-1, dtype=bool) if mask else np.ones((n, n), dtype=bool))  # (P,) each
        self.pairs = p = steps.size  # P, ordered by step
        self.flat = steps * n + cols  # (P,) entry of a pair in an (n, n) score matrix
        # rows of the (n, 2) table [x_k or exp(2e_k), x_prev_i or exp(2q_i)]: position first, step second
        self.rows = np.concatenate([2 * cols, 2 * steps + 1])  # (2P,)
        self.first = int(np.count_nonzero(steps == 0))  # pairs of step 1 (they come first)
        # pre-activations as one matmul, [x_k, 1] @ [2A, 2a0] by position and [x_prev_i, 1] @ [2B, 2b0] by step
        # (its sums, 0 + x 2A + 1 2a0, round as x 2A + 2a0 does: the same bits as two broadcast operations)
        self.twice = np.empty(len(PARAM_NAMES) * hidden)  # (6H,): 2 theta
        self.t2 = self.twice.reshape(len(PARAM_NAMES), hidden)  # (6, H): 2A, 2a0, 2B, 2b0, 2s, 2v
        self.feats = np.ones((batch, n, 2, 2))  # (batch, n, 2, 2): [x_k, 1] by position, [x_prev_i, 1] by step
        self.xs = self.feats[..., 0]  # (batch, n, 2) view: sorted x, x_prev of each step (0 at step 1)
        self.xs[:, 0, 1] = 0.0
        self.pre = np.empty((batch, n, 2, hidden))  # (batch, n, 2, H): 2e by position, 2q by step
        # (2, batch n, ...) views: the matmul runs twice over long rows, not 2 batch n times over 2 x H
        self.feats_by_kind = self.feats.reshape(batch * n, 2, 2).transpose(1, 0, 2)
        self.pre_by_kind = self.pre.reshape(batch * n, 2, hidden).transpose(1, 0, 2)
        self.exp = np.empty((batch, 2 * n, hidden))  # (batch, 2n, H): their exponentials
        self.operands = np.empty((batch, 2 * p, hidden))  # (batch, 2P, H): exp(2e), exp(2q) per pair
        self.r = np.empty((batch, p, hidden))  # (batch, P, H): r = (1 - tanh) / 2 per pair
        self.s = np.empty((batch, p, hidden))  # (batch, P, H): r (1 - r) = (1 - tanh^2) / 4
        self.scores = np.full((batch, n * n), -np.inf)  # (batch, n*n): entries no pair writes stay -inf
        self.shifted = np.empty((batch, n, n))  # (batch, steps, n): scores minus each step's largest
        self.weighted = np.empty((3, batch, p))  # (3, batch, P): x_k, 1, x_prev per pair times d loss / d u


@lru_cache(maxsize=32)
def workspace(batch: int, n: int, mask: bool, hidden: int) -> Workspace:
    """The workspace of one batch shape, made on first use (training meets 2 x 6 shapes)."""
    return Workspace(batch, n, mask, hidden)


def batch_loss_and_grad(theta: Array, x: Array, mask: bool, grad: Array) -> float:
    """Teacher-forced mean cross-entropy on x (batch, n); its gradient by theta (6H,) goes into grad (6H,)."""
    batch, n = x.shape
    hidden = theta.size // len(PARAM_NAMES)
    ws = workspace(batch, n, mask, hidden)
    p = ws.pairs
    np.multiply(theta, 2.0, out=ws.twice)
    t2 = ws.t2  # (6, H): 2A, 2a0, 2B, 2b0, 2s, 2v
    # forward: sorted numbers, pre-activations (times 2), r per pair, scores per pair
    sx = np.sort(x, axis=1)  # (batch, n)
    ws.xs[:, :, 0] = sx
    ws.xs[:, 1:, 1] = sx[:, :-1]
    np.matmul(ws.feats_by_kind, t2[:4].reshape(2, 2, hidden), out=ws.pre_by_kind)  # 2A x_k + 2a0, 2B x_prev + 2b0
    ws.pre[:, 0, 1] = t2[4]  # step 1 queries with 2s
    grid = ws.pre.reshape(batch, 2 * n, hidden)  # (batch, 2n, H)
    r = pair_r(grid, ws.rows, exp_bound(t2, x), ws.r, (ws.exp, ws.operands))  # (batch, P, H)
    u = r @ t2[5]  # (batch, P): 2 r . v
    np.subtract(0.5 * float(t2[5].sum()), u, out=u)  # v . tanh = sum(v) - 2 r . v
    ws.scores[:, ws.flat] = u
    scores = ws.scores.reshape(batch, n, n)  # (batch, steps, n), step i's target on the diagonal
    shifted = np.subtract(scores, scores.max(axis=2, keepdims=True), out=ws.shifted)  # (batch, steps, n)
    e = np.exp(shifted)  # (batch, steps, n)
    z = e.sum(axis=2)  # (batch, steps), >= 1
    loss = (float(np.log(z).sum()) - float(np.trace(shifted, axis1=1, axis2=2).sum())) / (batch * n)
    # backward: d loss / d u = (softmax - onehot(target)) / (batch n); the 1 / (batch n) is applied last
    e /= z[:, :, None]
    du = e.reshape(batch, n * n)
    du[:, :: n + 1] -= 1.0
    du_pairs = du[:, ws.flat]  # (batch, P)
    scale = 1.0 / (batch * n)
    # d u / d v = tanh = 1 - 2 r; sum(du) is 0 but for rounding, which it keeps as d u . tanh would
    dv = np.multiply(du_pairs.reshape(-1) @ r.reshape(-1, hidden), -2.0, out=grad[5 * hidden :])  # (H,)
    dv += float(du_pairs.sum())
    dv *= scale
    # d u / d (pre-activation) = v (1 - tanh^2) = 4 v r (1 - r); weight it by d loss / d u and by
    # what the pre-activation's parameters multiply: x_k (A), 1 (a0), x_prev (B), 1 (b0 or s)
    s = np.subtract(1.0, r, out=ws.s)
    s *= r
    x_pairs = ws.xs.reshape(batch, 2 * n)[:, ws.rows].reshape(batch, 2, p)  # (batch, 2, P): x_k, x_prev
    np.multiply(x_pairs.transpose(1, 0, 2), du_pairs, out=ws.weighted[0:3:2])
    ws.weighted[1] = du_pairs
    sums = ws.weighted.reshape(3, -1) @ s.reshape(-1, hidden)  # (3, H): by x_k, by 1, by x_prev
    first = du_pairs[:, : ws.first].reshape(-1) @ s[:, : ws.first].reshape(-1, hidden)  # (H,): step 1 only
    v4 = t2[5] * (2.0 * scale)  # 4 v / (batch n)
    g = grad[: 5 * hidden].reshape(5, hidden)  # rows A, a0, B, b0, s
    np.multiply(sums, v4, out=g[:3])  # A, a0, B: the x_prev of step 1 is 0
    np.multiply(first, v4, out=g[4])  # s
    np.subtract(g[1], g[4], out=g[3])  # b0: every step but the first
    return loss


def loss_and_grads(params: Params, x: Array, mask: bool) -> tuple[float, Params]:
    """Teacher-forced mean cross-entropy on x (batch, n) and its gradients by name."""
    grad = np.empty(len(PARAM_NAMES) * params["v"].size)  # (6H,)
    loss = batch_loss_and_grad(flatten(params), x, mask, grad)
    return loss, unflatten(grad)
