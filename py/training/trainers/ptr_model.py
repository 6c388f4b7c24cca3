"""The Ptr-Net in PyTorch: a run's settings, the network, its initialisation, greedy decoding, and its weights
in ptrnet.pointer.lstm_ptr's numpy layout."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np
import torch
from torch import nn

from ptrnet.nn.lstm import from_torch_gates, to_torch_gates


@dataclass(frozen=True)
class Config:
    """One training run's settings (stored in the checkpoint and the model card)."""

    task: str = "hull"  # "hull", "tsp" or "delaunay" (ptrnet.pointer.tasks)
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
    qat: bool = False  # train and validate through the export's int8 rounding (straight-through gradients)
    augment: bool = False  # TSP pool examples under a random symmetry of the unit square (the same tours, 8x the sets)
    teacher: str = ""  # TSP labels from this baselines.ALGORITHMS entry ("A1": nearest neighbour) instead of optimal


class PtrNet(nn.Module):
    """The Ptr-Net of ptrnet.pointer.lstm_ptr in PyTorch."""

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


def widen(small: PtrNet, config: Config) -> PtrNet:
    """A PtrNet of config.hidden units that computes exactly what small computes, to train on with more room.

    The new units and attention dimensions get the usual random init, but nothing reads them yet: the weights
    from new units into old ones are zero, and so is v on the new attention dimensions. Their gradients are
    not zero, so training puts them to use.
    """
    big, h, H = init_model(config), small.v.shape[0], config.hidden
    with torch.no_grad():
        for grown, old in ((big.enc, small.enc), (big.dec, small.dec)):
            for name in ("weight_ih_l0", "weight_hh_l0", "bias_ih_l0", "bias_hh_l0"):
                new_w, old_w = getattr(grown, name), getattr(old, name)
                for gate in range(4):  # torch's gate blocks i, f, g, o each grow from h to H rows
                    rows = slice(gate * H, gate * H + h)
                    if name == "weight_hh_l0":
                        new_w[rows, :h] = old_w[gate * h : (gate + 1) * h]
                        new_w[rows, h:] = 0  # old units do not read the new ones
                    else:
                        new_w[rows] = old_w[gate * h : (gate + 1) * h]
        for name in ("W1", "W2"):  # keys and queries: old input units feed old attention dimensions only
            new_w, old_w = getattr(big, name), getattr(small, name)
            new_w[:h, :h] = old_w
            new_w[h:, :h] = 0
        big.v[:h], big.v[h:] = small.v, 0
        big.end[:h] = small.end
        big.start[:] = small.start
    return big


# ---------------------------------------------------------------- the shipped int8 rounding

# The matrices ptrnet.pointer.weights stores as int8 rows, and the torch dimension one numpy row's scale runs over
# (the LSTM matrices are stored transposed, so a numpy row is a torch column).
_ROUNDED = {
    "W1": 1,
    "W2": 1,
    "enc.weight_ih_l0": 0,
    "enc.weight_hh_l0": 0,
    "dec.weight_ih_l0": 0,
    "dec.weight_hh_l0": 0,
}


def int8_rounded(w: torch.Tensor, dim: int) -> torch.Tensor:
    """w as ptrnet.pointer.weights.quantise stores it: steps of max |row| / 127, one scale per numpy row."""
    scale = w.abs().amax(dim=dim, keepdim=True) / 127
    scale = torch.where(scale == 0, torch.ones_like(scale), scale)
    return torch.round(w / scale) * scale


@contextmanager
def shipped_rounding(model: PtrNet, on: bool = True) -> Iterator[None]:
    """Inside the block the model computes with the int8-rounded matrices its export ships.

    Gradients taken inside are those of the rounded model and go to the float weights unchanged
    (straight-through); the float weights are put back on exit, before the optimiser steps.
    """
    if not on:
        yield
        return
    params = dict(model.named_parameters())
    kept = {name: params[name].detach().clone() for name in _ROUNDED}
    with torch.no_grad():
        for name, dim in _ROUNDED.items():
            params[name].copy_(int8_rounded(params[name], dim))
    try:
        yield
    finally:
        with torch.no_grad():
            for name, w in kept.items():
                params[name].copy_(w)


# ---------------------------------------------------------------- decoding


def greedy(
    model: PtrNet, x: torch.Tensor, max_steps: int, constrained: bool = False, record: list | None = None
) -> np.ndarray:
    """Greedy decoding step by step (B, steps), 0 = ⇐, -1 after the end; record gets each step's probabilities.

    constrained: TSP's valid-tour rule (ptrnet.pointer.slot_rules, "tour"): start at P1, unvisited points, back to P1, ⇐.
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


# ---------------------------------------------------------------- ptrnet's numpy layout


def numpy_layout(model: nn.Module, plain: tuple[str, ...]) -> dict[str, np.ndarray]:
    """A model's weights under ptrnet.pointer.lstm_ptr's names and layout: the `plain` parameters as they are, the
    LSTMs enc and dec as <name>_Wx, _Wh (inputs by rows) and _b (one bias), gates in the package's order."""
    sd = {k: v.detach().double().cpu().numpy() for k, v in model.state_dict().items()}
    params = {k: sd[k] for k in plain if k in sd}
    for name in ("enc", "dec"):
        params[f"{name}_Wx"] = from_torch_gates(sd[f"{name}.weight_ih_l0"]).T
        params[f"{name}_Wh"] = from_torch_gates(sd[f"{name}.weight_hh_l0"]).T
        params[f"{name}_b"] = from_torch_gates(sd[f"{name}.bias_ih_l0"] + sd[f"{name}.bias_hh_l0"])
    return params


def load_numpy_layout(model: nn.Module, params: dict[str, np.ndarray], plain: tuple[str, ...]) -> nn.Module:
    """Put numpy-layout weights (numpy_layout's) into a float64 model, returned."""
    sd = {k: params[k] for k in plain if k in params}
    for name in ("enc", "dec"):
        sd[f"{name}.weight_ih_l0"] = to_torch_gates(params[f"{name}_Wx"].T)
        sd[f"{name}.weight_hh_l0"] = to_torch_gates(params[f"{name}_Wh"].T)
        sd[f"{name}.bias_ih_l0"] = to_torch_gates(params[f"{name}_b"])
        sd[f"{name}.bias_hh_l0"] = np.zeros_like(params[f"{name}_b"])
    model = model.double()
    model.load_state_dict({k: torch.from_numpy(np.ascontiguousarray(v)) for k, v in sd.items()})
    return model


PTR_PLAIN = ("W1", "W2", "v", "end", "start")  # the Ptr-Net's parameters outside its two LSTMs


def to_numpy_params(model: PtrNet) -> dict[str, np.ndarray]:
    """The Ptr-Net's weights in ptrnet.pointer.lstm_ptr's layout."""
    return numpy_layout(model, PTR_PLAIN)


def from_numpy_params(params: dict[str, np.ndarray]) -> PtrNet:
    """A float64 PtrNet holding numpy-layout weights (the shipped, quantised ones)."""
    return load_numpy_layout(PtrNet(params["enc_Wh"].shape[0]), params, PTR_PLAIN)
