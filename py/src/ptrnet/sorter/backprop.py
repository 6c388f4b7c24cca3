"""The sorter's teacher-forced loss on a training batch and its gradient, on buffers kept per batch shape.

The model sees the positions of a sequence as a set, so sorting each sequence first changes
nothing in the loss, and it makes the teacher the same for every sequence: step i points at
sorted position i after x_prev = the number at sorted position i - 1, and with the mask on,
step i scores only positions i..n-1 (and the last step, left one position, costs nothing). A
batch of length n is then one fixed list of (step, position) pairs, ordered by step, and the
large arrays are laid out pair first, (pairs, batch, H): a step's pairs are one block of rows,
made by one broadcast product of its positions' rows and its query row, so nothing of that
size is gathered (a copy costs Pyodide more than the arithmetic). numpy calls per iteration
are few, each works on a whole batch, and outputs are passed positionally (a keyword costs
Pyodide almost a microsecond per call).

tanh runs as 1 - 2 r through model.pair_r (the position rows hold -2e for it, the query rows 2q), so
u = sum(v) - 2 r . v and 1 - tanh^2 = 4 r (1 - r).
A step's softmax ignores the sum(v) all its scores share, and takes its exponentials of each score
minus the target's: the target's term is then exp(0) = 1, the step's sum z >= 1 and its loss is
log z. Only where a score lies far above its target's (EXP_LIMIT) is the step's largest score taken
instead (a reduceat, which costs Pyodide as much as an exp of the scores).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ptrnet.sorter.model import EXP_LIMIT, PARAM_NAMES, Array, Params, exp_bound, flatten, pair_r, unflatten


class Workspace:
    """Index arrays and reused buffers for batches of one shape."""

    def __init__(self, batch: int, n: int, mask: bool, hidden: int) -> None:
        """Lay out the (step, position) pairs the loss sees and allocate every buffer once."""
        # with the mask, the last step has one position left: its loss and gradient are exactly 0
        self.steps = steps = n - 1 if mask and n > 1 else n  # S
        lengths = np.arange(n, n - steps, -1) if mask else np.full(steps, n)  # (S,) positions each step scores
        self.starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])  # (S,) each step's first pair
        self.pairs = p = int(lengths.sum())  # P
        self.step_of = np.repeat(np.arange(steps), lengths)  # (P,)
        position = np.concatenate([np.arange(i if mask else 0, n) for i in range(steps)])  # (P,)
        self.targets = self.starts + (0 if mask else np.arange(steps))  # (S,) the pair of sorted position i
        self.target_of = self.targets[self.step_of]  # (P,) the target pair of each pair's step
        self.first = int(lengths[0])  # pairs of step 1
        self.factors = np.repeat([-2.0, -2.0, 2.0, 2.0, 2.0, -2.0], hidden)  # (6H,): theta to t2
        self.twice = np.empty(len(PARAM_NAMES) * hidden)  # (6H,): 2 theta, A, a0 and v negated
        self.t2 = self.twice.reshape(len(PARAM_NAMES), hidden)  # (6, H): -2A, -2a0, 2B, 2b0, 2s, -2v
        self.sorted = np.empty((batch, n))  # (batch, n): x, each row sorted
        # pre-activations as matmuls, [x_k, 1] @ [-2A, -2a0] by position and [x_prev_i, 1] @ [2B, 2b0] by step
        self.feats = np.ones((n + steps, batch, 2))  # (n+S, batch, 2)
        self.xs = self.feats[..., 0]  # (n+S, batch) view: sorted x by position, x_prev by step (0 at step 1)
        self.xs[n] = 0.0
        self.x_rows = np.concatenate([position, n + self.step_of])  # (2P,) rows of xs: x_k, x_prev per pair
        self.x_pairs = np.empty((2, p, batch))  # (2, P, batch)
        self.pre = np.empty((n + steps, batch, hidden))  # (n+S, batch, H): -2e, 2q, then maybe their exponentials
        self.feats_e, self.feats_q = np.split(self.feats.reshape(-1, 2), [n * batch])  # (n batch, 2), (S batch, 2)
        self.pre_e, self.pre_q = np.split(self.pre.reshape(-1, hidden), [n * batch])  # (n batch, H), (S batch, H)
        self.r = np.empty((p, batch, hidden))  # (P, batch, H): r = (1 - tanh) / 2 per pair
        pre, r = self.pre, self.r
        if mask:  # step i: positions i..n-1, one block of rows each
            bounds = [*self.starts.tolist(), p]
            self.blocks = [(pre[i:n], pre[n + i], r[bounds[i] : bounds[i + 1]]) for i in range(steps)]
        else:  # every step, every position
            self.blocks = [(pre[None, :n], pre[n:, None], r.reshape(steps, n, batch, hidden))]
        self.s = np.empty((p, batch, hidden))  # (P, batch, H): r (1 - r) = (1 - tanh^2) / 4
        self.scores = np.empty((p, batch))  # (P, batch): score - sum(v) = -2 r . v
        self.shifted = np.empty((p, batch))  # (P, batch): score minus its step's target's, or its step's largest
        self.by_pair = np.empty((p, batch))  # (P, batch): a value of each pair's step (its largest score, its z)
        self.onehot = np.zeros((p, batch))  # (P, batch): 1 at the targets (a whole-array subtraction is cheapest)
        self.onehot[self.targets] = 1.0
        self.weighted = np.empty((3, p, batch))  # (3, P, batch): x_k, 1, x_prev per pair times d loss / d u
        self.sums = np.empty((3, hidden))  # (3, H)


@lru_cache(maxsize=32)
def workspace(batch: int, n: int, mask: bool, hidden: int) -> Workspace:
    """The workspace of one batch shape, made on first use (training meets 2 x 6 shapes)."""
    return Workspace(batch, n, mask, hidden)


def batch_loss_and_grad(theta: Array, x: Array, mask: bool, grad: Array) -> float:
    """Teacher-forced mean cross-entropy on x (batch, n); its gradient by theta (6H,) goes into grad (6H,)."""
    batch, n = x.shape
    hidden = theta.size // len(PARAM_NAMES)
    ws = workspace(batch, n, mask, hidden)
    np.multiply(theta, ws.factors, ws.twice)
    t2 = ws.t2  # (6, H): -2A, -2a0, 2B, 2b0, 2s, -2v
    # forward: sorted numbers, pre-activations (times 2), r per pair, scores per pair
    # array methods, not np.sort and np.take: their Python wrappers cost more than the work at this size
    ws.sorted[...] = x
    ws.sorted.sort(1)
    xt = ws.sorted.T  # (n, batch)
    ws.xs[:n] = xt
    ws.xs[n + 1 :] = xt[: ws.steps - 1]
    np.matmul(ws.feats_e, t2[0:2], ws.pre_e)  # -2A x_k - 2a0
    np.matmul(ws.feats_q, t2[2:4], ws.pre_q)  # 2B x_prev + 2b0
    ws.pre[n] = t2[4]  # step 1 queries with 2s
    exp_form = exp_bound(t2, x) <= EXP_LIMIT
    if exp_form:
        np.exp(ws.pre, ws.pre)
    r = pair_r(ws.blocks, ws.r, exp_form)  # (P, batch, H)
    scores = np.matmul(r, t2[5], ws.scores)  # (P, batch): -2 r . v = score - sum(v)
    shifted = scores.take(ws.target_of, 0, ws.shifted, "clip")
    np.subtract(scores, shifted, shifted)  # (P, batch): score - the step's target's, 0 at the targets
    above = 0.0  # the sum of the steps' largest shifted scores, where those are subtracted too
    if not float(np.maximum.reduce(shifted, None)) <= EXP_LIMIT:  # exp could leave float64 (or NaN)
        top = np.maximum.reduceat(shifted, ws.starts, 0)  # (S, batch), >= 0
        shifted -= top.take(ws.step_of, 0, ws.by_pair, "clip")  # <= 0, the targets at -top
        above = float(np.add.reduce(top, None))
    e = np.exp(shifted, ws.weighted[1])  # (P, batch)
    z = np.add.reduceat(e, ws.starts, 0)  # (S, batch), >= 1
    loss = (float(np.add.reduce(np.log(z), None)) + above) / (batch * n)  # log z - the target's shifted score
    # backward: d loss / d u = (softmax - onehot(target)) / (batch n); the 1 / (batch n) is applied last
    du = np.divide(e, z.take(ws.step_of, 0, ws.by_pair, "clip"), e)  # (P, batch), in weighted[1]
    du -= ws.onehot
    scale = 1.0 / (batch * n)
    # d u / d v = tanh = 1 - 2 r; the 1 adds sum(du) = 0 (each step's softmax sums to 1, minus its target)
    np.multiply(du.reshape(-1) @ r.reshape(-1, hidden), -2.0 * scale, grad[5 * hidden :])
    # d u / d (pre-activation) = v (1 - tanh^2) = 4 v r (1 - r); weight it by d loss / d u and by
    # what the pre-activation's parameters multiply: x_k (A), 1 (a0), x_prev (B), 1 (b0 or s)
    s = np.subtract(1.0, r, ws.s)
    s *= r
    ws.xs.take(ws.x_rows, 0, ws.x_pairs.reshape(-1, batch), "clip")  # (2, P, batch): x_k, x_prev
    np.multiply(ws.x_pairs, du, ws.weighted[0:3:2])
    sums = np.matmul(ws.weighted.reshape(3, -1), s.reshape(-1, hidden), ws.sums)  # (3, H): by x_k, 1, x_prev
    first = du[: ws.first].reshape(-1) @ s[: ws.first].reshape(-1, hidden)  # (H,): step 1 only
    v4 = t2[5] * (-2.0 * scale)  # 4 v / (batch n)
    g = grad[: 5 * hidden].reshape(5, hidden)  # rows A, a0, B, b0, s
    np.multiply(sums, v4, g[:3])  # A, a0, B: the x_prev of step 1 is 0
    np.multiply(first, v4, g[4])  # s
    np.subtract(g[1], g[4], g[3])  # b0: every step but the first
    return loss


def loss_and_grads(params: Params, x: Array, mask: bool) -> tuple[float, Params]:
    """Teacher-forced mean cross-entropy on x (batch, n) and its gradients by name."""
    grad = np.empty(len(PARAM_NAMES) * params["v"].size)  # (6H,)
    loss = batch_loss_and_grad(flatten(params), x, mask, grad)
    return loss, unflatten(grad)
