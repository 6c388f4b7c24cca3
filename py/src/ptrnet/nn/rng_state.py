"""A numpy random generator's exact state as JSON-ready values, so that a training run saved in a
snapshot continues bit for bit in another worker."""

from typing import Any

import numpy as np


def to_json(rng: np.random.Generator) -> dict[str, Any]:
    """The PCG64 state; its 128-bit integers as strings, which JavaScript numbers cannot hold."""
    state = rng.bit_generator.state
    return {
        "state": str(state["state"]["state"]),
        "inc": str(state["state"]["inc"]),
        "has_uint32": state["has_uint32"],
        "uinteger": state["uinteger"],
    }


def from_json(saved: dict[str, Any]) -> np.random.Generator:
    """A generator that continues exactly where the one to_json() described stood."""
    rng = np.random.default_rng()
    rng.bit_generator.state = {
        "bit_generator": "PCG64",
        "state": {"state": int(saved["state"]), "inc": int(saved["inc"])},
        "has_uint32": int(saved["has_uint32"]),
        "uinteger": int(saved["uinteger"]),
    }
    return rng
