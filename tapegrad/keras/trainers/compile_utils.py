"""What ``Model.compile`` makes of its ``loss`` and ``metrics``: the loss functions by name (with
Keras's meaning of ``"crossentropy"``), the loss tracker and the compiled metrics."""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Callable

import numpy as np

from .._engine import convert_to_tensor
from .._engine import Tensor
from .._engine import warn_outside
from ...ops.array import expand_dims
from ...ops.math import cast
from ...ops.reduction import reduce_sum
from .._tree import flatten
from ..losses import _same_rank, _scale_for_replicas

if TYPE_CHECKING:
    from ..models.model import Model


class _CompileMetrics:
    """Keras 3's ``compile_metrics``: the metrics given to ``compile`` as one entry of
    ``model.metrics``, built on the first batch; its result is ``{name: value}`` for each (named
    after the output when there are several; duplicates renamed as Keras does)."""

    name = "compile_metrics"

    def __init__(self, model: Model, metrics: Any, weighted_metrics: Any) -> None:
        self._model = model
        self._ids = metrics, weighted_metrics
        self._entries: list | None = None  # [(output index, metric, weighted, output name)]

    @property
    def metrics(self) -> list:
        return [m for _, m, *_ in self._entries or []]

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> None:
        if self._entries is None:
            self._entries = self._model._build_metrics(y_true, y_pred, *self._ids)
        ys, ps = flatten(y_true), flatten(y_pred)
        sws = self._model._per_output(sample_weight, len(ps), "sample_weight") if isinstance(
            sample_weight, (list, tuple, dict)) else [sample_weight] * len(ps)
        for i, m, weighted, _ in self._entries:  # `metrics` take no sample weights
            m.update_state(ys[i], ps[i], sample_weight=sws[i] if weighted else None)

    def reset_state(self) -> None:
        for m in self.metrics:
            m.reset_state()

    def result(self) -> dict:
        out: dict = {}
        seen: dict = {}
        for _, m, weighted, prefix in self._entries or []:
            r = m.result()
            if isinstance(r, dict):
                out.update(r)
                continue
            name = m.name if not prefix else f"{prefix}_{m.name}"
            if name in seen:
                if weighted:
                    name = f"weighted_{m.name}" if not prefix else f"{prefix}_weighted_{m.name}"
                if name in seen:
                    seen[name] += 1
                    name = f"{name}_{seen[name] - 1}"
            seen.setdefault(name, 1)
            out[name] = r
        return out


class _CompiledMetrics:
    """What Keras 3 keeps of Keras 2's ``model.compiled_metrics``."""

    def __init__(self, model: Model) -> None:
        self._model = model

    def update_state(self, y: Any, y_pred: Any, sample_weight: Any = None) -> None:
        """Update every metric in ``model.metrics``; as Keras 3, a mean (the loss tracker) gets
        ``y_pred`` as its values."""
        warn_outside("`model.compiled_metrics()` is deprecated. Instead, use e.g.:\n"
                     "for metric in self.metrics:\n    metric.update_state(y, y_pred)")
        for m in self._model.metrics:
            if isinstance(m, _keras_module("metrics").Mean):
                m.update_state(y_pred, sample_weight=sample_weight)
            else:
                m.update_state(y, y_pred, sample_weight=sample_weight)


def _keras_module(name: str) -> Any:
    return importlib.import_module(f"..{name}", __package__)


def _loss_fn(identifier: Any) -> Callable:
    if identifier is None:
        return None
    if isinstance(identifier, (str, dict)):
        return _keras_module("losses").get(identifier)
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret loss identifier: {identifier!r} "
                     f"(a {type(identifier).__name__}); expected a name, a loss object or a function.")


def _binary_or_sparse(y_true: Any, y_pred: Any) -> tuple[bool, bool]:
    """Keras's reading of targets and outputs for "accuracy" and "crossentropy"."""
    t, p = tuple(np.shape(y_true)), tuple(y_pred.shape)
    return p[-1] == 1, len(t) < len(p) or t[-1] == 1 and p[-1] > 1


def _resolve_loss(identifier: Any, y_true: Any, y_pred: Any) -> Callable:
    if isinstance(identifier, str) and identifier.lower() in ("crossentropy", "ce"):
        binary, sparse = _binary_or_sparse(y_true, y_pred)
        losses = _keras_module("losses")
        return (losses.binary_crossentropy if binary else losses.sparse_categorical_crossentropy
                if sparse else losses.categorical_crossentropy)
    return _loss_fn(identifier)


def _loss_name(identifier: Any, fn: Callable) -> str:
    if isinstance(identifier, str):
        return identifier
    return getattr(fn, "name", None) or getattr(fn, "__name__", type(fn).__name__)


def _call_loss(fn: Callable, y_true: Any, y_pred: Any, sample_weight: Any) -> Tensor:
    """A loss object reduces itself; a plain function's per-sample values are averaged as Keras's
    ``sum_over_batch_size`` does (weighted sum over the number of entries)."""
    y_true = convert_to_tensor(y_true)
    if y_true.dtype.is_floating and y_true.dtype != y_pred.dtype:
        y_true = cast(y_true, y_pred.dtype)
    if hasattr(fn, "reduction") or hasattr(fn, "get_config") and not hasattr(fn, "__code__"):
        return fn(y_true, y_pred, sample_weight=sample_weight)
    y_true, y_pred = _same_rank(y_true, y_pred)   # as Keras's LossFunctionWrapper: (n,) labels, (n, 1) outputs
    values = convert_to_tensor(fn(y_true, y_pred))
    if sample_weight is not None:
        values, sw = _same_rank(values, cast(convert_to_tensor(sample_weight), values.dtype))
        while sw.shape.rank < values.shape.rank:
            sw = expand_dims(sw, -1)
        values = values * sw
    n = max(1, int(np.prod(values.shape)))
    return _scale_for_replicas(reduce_sum(values) / np.asarray(n, values.dtype.name))
