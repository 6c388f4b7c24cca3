"""What the browser worker calls, one module per demo family; importing the package registers every handler."""

from ptrnet.handlers import experiments, explained, geometry, models, prelude, runtime, sorting  # noqa: F401
