"""``keras.InputSpec``: what a layer accepts, and the check a built layer runs on its inputs."""
from __future__ import annotations

from typing import Any

from .._engine import Tensor
from .. import backend
from .._tree import flatten

__all__ = ["InputSpec"]


class InputSpec:
    """What a layer accepts: ``ndim``, ``min_ndim``, ``max_ndim``, ``shape`` and ``axes``
    (``{axis: size}``); a built layer checks its inputs against it."""

    def __init__(self, dtype: Any = None, shape: Any = None, ndim: int | None = None,
                 max_ndim: int | None = None, min_ndim: int | None = None, axes: dict | None = None,
                 allow_last_axis_squeeze: bool = False, name: str | None = None,
                 optional: bool = False) -> None:
        self.dtype = None if dtype is None else backend.standardize_dtype(dtype)
        self.shape = None if shape is None else tuple(shape)
        self.ndim = len(self.shape) if shape is not None else ndim
        self.max_ndim, self.min_ndim = max_ndim, min_ndim
        self.axes = {int(k): v for k, v in (axes or {}).items()}
        self.allow_last_axis_squeeze, self.name, self.optional = allow_last_axis_squeeze, name, optional

    def __repr__(self) -> str:
        parts = [f"{k}={v}" for k, v in (("dtype", self.dtype), ("shape", self.shape),
                                          ("ndim", self.ndim), ("max_ndim", self.max_ndim),
                                          ("min_ndim", self.min_ndim), ("axes", self.axes or None))
                 if v is not None]
        return f"InputSpec({', '.join(parts)})"


def _check_input_spec(specs: Any, inputs: Any, layer: str) -> None:
    if specs is None:
        return
    specs = specs if isinstance(specs, (list, tuple)) else [specs]
    xs = [inputs] if type(inputs) is Tensor else flatten(inputs)
    if len(xs) != len(specs):
        raise ValueError(f'Layer "{layer}" expects {len(specs)} input(s), but it received {len(xs)} '
                         "input tensors.")
    for i, (spec, x) in enumerate(zip(specs, xs)):
        if spec is None or x is None:
            continue
        shape = tuple(x.shape)
        head = f'Input {i} of layer "{layer}" is incompatible with the layer: '
        ndim = len(shape)
        if spec.ndim is not None and not spec.allow_last_axis_squeeze and ndim != spec.ndim:
            raise ValueError(f"{head}expected ndim={spec.ndim}, found ndim={ndim}. "
                             f"Full shape received: {shape}")
        if spec.max_ndim is not None and ndim > spec.max_ndim:
            raise ValueError(f"{head}expected max_ndim={spec.max_ndim}, found ndim={ndim}. "
                             f"Full shape received: {shape}")
        if spec.min_ndim is not None and ndim < spec.min_ndim:
            raise ValueError(f"{head}expected min_ndim={spec.min_ndim}, found ndim={ndim}. "
                             f"Full shape received: {shape}")
        for axis, value in spec.axes.items():
            if value is None:
                continue
            if not -ndim <= axis < ndim or shape[axis] not in (value, None):
                raise ValueError(f"{head}expected axis {axis} of input shape to have value {value}, "
                                 f"but received input with shape {shape}")
        if spec.shape is not None:
            for want, got in zip(spec.shape, shape):
                if want is not None and got is not None and want != got:
                    raise ValueError(f"{head}expected shape={spec.shape}, found shape={shape}")
