"""The LSTM cell's backward pass, for the numpy trainers (the hull trainer in the page, the offline LM trainer)."""

from __future__ import annotations

import numpy as np

from ptrnet.nn import lstm
from ptrnet.nn.lstm import Array


def cell_backward(cache: lstm.Cache, dh: Array, dc: Array, Wh: Array, gWh: Array) -> tuple[Array, Array, Array]:
    """Backward of ptrnet.nn.lstm.step(): the gradient of xz (B, 4H), of h and of c before the step; adds to gWh in place."""
    h, c, _, i, f, o, g, tc = cache
    dcn = dc + dh * o * (1.0 - tc * tc)
    dz = np.concatenate(
        [dcn * g * i * (1.0 - i), dcn * c * f * (1.0 - f), dh * tc * o * (1.0 - o), dcn * i * (1.0 - g * g)], axis=1
    )  # (B, 4H) in GATES order
    gWh += lstm.batch_outer(h, dz)
    return dz, lstm.times_transposed(dz, Wh), dcn * f
