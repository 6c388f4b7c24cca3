"""Trained weights on disk: .npz with int8 matrices (a float32 scale per row) and float32 vectors."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from importlib import resources
from io import BytesIO
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ptrnet import MissingData, Unavailable

Params = dict[str, NDArray[np.floating]]
SCALE = "__scale"  # suffix of the per-row scale stored next to an int8 matrix


def quantise(v: NDArray[np.floating]) -> tuple[NDArray[np.int8], NDArray[np.float32]]:
    """A matrix as int8 rows and the float32 scale of each row (max |row| / 127)."""
    scale = np.abs(v).max(axis=tuple(range(1, v.ndim)), keepdims=True).astype(np.float32) / 127  # (rows, 1)
    scale[scale == 0] = 1
    return np.round(v / scale).astype(np.int8), scale


def save(path: Any, params: Params) -> None:
    """Write params as a compressed .npz: matrices quantised by quantise(), vectors float32.

    A quarter of float32's size, so the site fetches less; every measured figure and golden output
    is computed from these rounded weights.
    """
    arrays = {}
    for k, v in params.items():
        if v.ndim < 2:
            arrays[k] = v.astype(np.float32)
        else:
            arrays[k], arrays[k + SCALE] = quantise(v)
    np.savez_compressed(path, **arrays)


def load(source: Any, dtype: Any = np.float64) -> Params:
    """Read params from a .npz path or bytes (int8 matrices scaled back), cast to dtype, matrices column-major.

    Every matrix is a right operand (x @ W). numpy without BLAS, as in Pyodide, multiplies rows by a matrix
    about 3.5 times faster when the matrix's columns are contiguous; with BLAS the order costs nothing.
    """
    with np.load(BytesIO(source) if isinstance(source, bytes) else source) as f:
        names = [k for k in f.files if not k.endswith(SCALE)]
        return {
            k: np.asarray(f[k] * f[k + SCALE] if k + SCALE in f.files else f[k], dtype=dtype, order="F") for k in names
        }


_unavailable: set[str] = set()  # files the page failed to fetch during the current request


@contextmanager
def unavailable(paths: Sequence[str]) -> Iterator[None]:
    """Within the block, shipped() raises Unavailable instead of MissingData for these paths."""
    _unavailable.update(paths)
    try:
        yield
    finally:
        _unavailable.clear()


def _path(name: str) -> Any:
    """Where the package keeps data/<name>.npz (in the site's wheel, where the worker writes it once fetched)."""
    return resources.files("ptrnet").joinpath(f"data/{name}.npz")


def missing(names: Sequence[str]) -> list[str]:
    """The paths of those weight files the page has not fetched yet, leaving out those it could not fetch."""
    paths = [str(_path(name)) for name in names if not _path(name).is_file()]
    return [p for p in paths if p not in _unavailable]


@cache
def _load_shipped(name: str, dtype: Any) -> Params:
    """The packaged file data/<name>.npz, read once."""
    path = _path(name)
    if not path.is_file():  # the site's wheel leaves the weights out; its worker fetches them
        raise MissingData(str(path))
    return load(path.read_bytes(), dtype)


def shipped(name: str, dtype: Any = np.float64) -> Params:
    """The packaged weights data/<name>.npz in dtype; MissingData where the site fetches them, Unavailable
    when the page could not."""
    try:
        return _load_shipped(name, dtype)
    except MissingData as err:
        if str(err) in _unavailable:
            raise Unavailable(str(err)) from err
        raise
