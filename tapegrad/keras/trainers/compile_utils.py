"""What ``Model.compile`` makes of its ``loss`` and ``metrics``: the loss functions by name (with
Keras's meaning of ``"crossentropy"``), the loss tracker and the compiled metrics."""
from __future__ import annotations

import importlib
from collections import OrderedDict
from typing import TYPE_CHECKING, Any, Callable

import numpy as np

from .._engine import convert_to_tensor
from .._engine import Tensor
from .._engine import warn_outside
from ...ops.array import expand_dims
from ...ops.math import cast
from ...ops.reduction import reduce_sum
from .._tree import flatten, is_nested, map_structure, pack_sequence_as, paths, same_structure
from .._mask_table import get_mask
from ..losses import _combined_mask, _same_rank, _scale_for_replicas, _unscale_for_replicas, reduce_weighted_values

if TYPE_CHECKING:
    from ..models.model import Model


class _MetricsList:
    """The metrics of one output (Keras's ``MetricsList``), named after it when it has a name."""

    def __init__(self, metrics: list, output_name: str | None = None) -> None:
        self.metrics, self.output_name = metrics, output_name


def _metrics_list(ids: Any, y_true: Any, y_pred: Any, output_name: str | None = None) -> Any:
    if ids is None:
        return None
    ids = ids if isinstance(ids, (list, tuple)) else [ids]
    return _MetricsList([_make_metric(m, y_true, y_pred) for m in ids], output_name)


def _make_metric(m: Any, y_true: Any, y_pred: Any) -> Any:
    """Keras's ``get_metric``: a metric object for an identifier, named by the string it was asked
    by; "accuracy" is binary, sparse categorical or categorical by the shapes of the targets and
    outputs."""
    if m is None:
        raise ValueError("Expected metric, received `None`")
    metrics = _keras_module("metrics")
    if isinstance(m, str) and m.lower() in ("accuracy", "acc"):
        binary, sparse = _binary_or_sparse(y_true, y_pred)
        cls = metrics.BinaryAccuracy if binary else metrics.SparseCategoricalAccuracy if sparse \
            else metrics.CategoricalAccuracy
        return cls(name=m)
    if hasattr(m, "update_state"):
        return m
    fn = metrics.get(m) if isinstance(m, (str, dict)) else m
    if hasattr(fn, "update_state"):
        if isinstance(m, str):
            fn.name = m
        return fn
    name = m if isinstance(m, str) else getattr(fn, "__name__", type(fn).__name__)
    return metrics.MeanMetricWrapper(fn, name=name)


class _CompileMetrics:
    """Keras 3's ``CompileMetrics``: the ``metrics`` and ``weighted_metrics`` given to ``compile``,
    one entry of ``model.metrics`` named ``"compile_metrics"``, built on the first batch from the
    structures of the targets and outputs; its result is ``{name: value}`` (prefixed with the
    output's name when there are several outputs; duplicates renamed as Keras renames them).

    Per output, ``metrics`` (and ``weighted_metrics``) is one list for a single output; a list with
    one entry per output, or a dict keyed by output name (a subset), for a flat list or dict of
    outputs; else a nest with the outputs' structure."""

    name = "compile_metrics"

    def __init__(self, metrics: Any, weighted_metrics: Any, output_names: list | None = None) -> None:
        for what, ids in (("metrics", metrics), ("weighted_metrics", weighted_metrics)):
            if ids and not isinstance(ids, (list, tuple, dict)):
                raise ValueError(f"Expected `{what}` argument to be a list, tuple, or dict. "
                                 f"Received instead: {what}={ids!r} of type {type(ids).__name__}")
        self._user_metrics, self._user_weighted_metrics = metrics, weighted_metrics
        self.output_names = output_names
        self.built = False
        self._flat_metrics: list = []
        self._flat_weighted_metrics: list = []
        self._resolved_output_names: list | None = None

    @property
    def metrics(self) -> list:
        return [m for ml in self._flat_metrics + self._flat_weighted_metrics if ml for m in ml.metrics]

    @property
    def variables(self) -> list:
        return [v for m in self.metrics for v in m.variables]

    def build(self, y_true: Any, y_pred: Any) -> None:
        n = len(flatten(y_pred))
        flat = is_nested(y_pred) and len(y_pred) == n
        names = self.output_names
        if flat and isinstance(y_pred, dict):  # (a dict's keys name its outputs)
            names = names if names and set(y_pred) == set(names) else \
                list(y_pred) if isinstance(y_pred, OrderedDict) else sorted(y_pred)
        self._resolved_output_names = names if n > 1 and flat else None
        self._flat_metrics, self._flat_weighted_metrics = (
            self._build_set(ids, n, names, y_true, y_pred, flat, what)
            for ids, what in ((self._user_metrics, "metrics"),
                              (self._user_weighted_metrics, "weighted_metrics")))
        self.built = True

    def _build_set(self, ids: Any, n: int, names: list | None, y_true: Any, y_pred: Any,
                   flat: bool, what: str) -> list:
        if not ids:
            return [None] * n
        if n == 1:
            return [_metrics_list(flatten(ids), flatten(y_true)[0], flatten(y_pred)[0])]
        per_output = None
        if flat:
            if isinstance(ids, (list, tuple)) and len(ids) == n:
                per_output = ids
            elif names and isinstance(ids, dict) and len(ids) <= n and set(ids) <= set(names):
                per_output = [ids.get(name) for name in names]
        if per_output is not None:
            try:
                return [_metrics_list(m, yt, yp, name) for m, yt, yp, name in
                        zip(per_output, self._flatten_y(y_true), self._flatten_y(y_pred), names or [None] * n)]
            except ValueError as e:
                raise ValueError(f"{e}\nReceived: {what}={ids!r}") from e
        try:  # a nest with the outputs' structure (lists and tuples alike)
            shallow = _lists_to_tuples(y_pred)
            names_struct = pack_sequence_as(shallow, names or [None] * n)
            return flatten(_map_up_to(shallow, _metrics_list, _lists_to_tuples(ids),
                                      _lists_to_tuples(y_true), shallow, names_struct))
        except (ValueError, TypeError) as e:
            model = f"either be a dict or a list matching the output names of the functional model " \
                    f"{self.output_names} or " if self.output_names else ""
            raise ValueError(f"{e}\nInvalid `{what}`. `{what}` should contain metrics objects and "
                             f"{model}match the output structure of the model: "
                             f"{map_structure(lambda _: 'X', y_pred)}.\nReceived: {what}={ids!r}") from e

    def _flatten_y(self, y: Any) -> list:
        if isinstance(y, dict) and self._resolved_output_names is not None:
            missing = [k for k in self._resolved_output_names if k not in y]
            if missing:
                raise ValueError(f"The dict {sorted(map(str, y))} has no entry for the outputs {missing}; "
                                 f"key it by the model's output names {self._resolved_output_names}.")
            return [y[name] for name in self._resolved_output_names]
        return flatten(y)

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> None:
        if not self.built:
            self.build(y_true, y_pred)
        ys, ps = self._flatten_y(y_true), self._flatten_y(y_pred)
        for m, yt, yp in zip(self._flat_metrics, ys, ps):   # `metrics` take no sample weights
            for metric in m.metrics if m else []:
                metric.update_state(yt, yp)
        if sample_weight is not None:
            sws = self._flatten_y(sample_weight)
            if len(sws) < len(ys):   # (one weight array for every output)
                sws = [sws[0]] * len(ys)
        else:
            sws = [None] * len(ys)
        for m, yt, yp, sw in zip(self._flat_weighted_metrics, ys, ps, sws):
            for metric in m.metrics if m else []:
                metric.update_state(yt, yp, sample_weight=sw)

    def reset_state(self) -> None:
        for m in self.metrics:
            m.reset_state()

    def result(self) -> dict:
        out: dict = {}
        counters: dict = {}
        for ml in self._flat_metrics:
            for m in ml.metrics if ml else []:
                name = f"{ml.output_name}_{m.name}" if ml.output_name else m.name
                if name in counters:
                    counters[name] += 1
                    name = f"{name}_{counters[name] - 1}"
                else:
                    counters[name] = 1
                out[name] = m.result()
        for ml in self._flat_weighted_metrics:
            for m in ml.metrics if ml else []:
                name = f"{ml.output_name}_{m.name}" if ml.output_name else m.name
                if name in counters:
                    name = f"weighted_{m.name}"
                    if ml.output_name:
                        name = f"{ml.output_name}_{name}"
                    if name in counters:
                        counters[name] += 1
                        name = f"{name}_{counters[name] - 1}"
                    else:
                        counters[name] = 1
                else:
                    counters[name] = 1
                out[name] = m.result()
        return out


def _lists_to_tuples(x: Any) -> Any:
    if isinstance(x, dict):
        return type(x)((k, _lists_to_tuples(v)) for k, v in x.items())
    if type(x) in (list, tuple):
        return tuple(_lists_to_tuples(v) for v in x)
    return x


def _map_up_to(shallow: Any, fn: Any, *structures: Any) -> Any:
    """``fn`` on the subtrees of ``structures`` at each leaf of ``shallow`` (Keras's
    ``tree.map_structure_up_to``); ValueError where a structure lacks one of shallow's containers."""
    if not is_nested(shallow):
        return fn(*structures)
    for s in structures:
        if type(s) is not type(shallow) or len(s) != len(shallow) or \
                isinstance(s, dict) and set(s) != set(shallow):
            raise ValueError("Structures don't have the same nested structure.")
    keys = list(shallow) if isinstance(shallow, dict) else range(len(shallow))
    items = {k: _map_up_to(shallow[k], fn, *(s[k] for s in structures)) for k in keys}
    return type(shallow)((k, items[k]) for k in keys) if isinstance(shallow, dict) else \
        tuple(items[k] for k in keys)


class _WeightedLoss:
    """A loss and its weight as one leaf of the loss nest (None for an output without a loss)."""

    def __new__(cls, loss: Any, weight: Any) -> Any:
        return None if loss is None else object.__new__(cls)

    def __init__(self, loss: Any, weight: Any) -> None:
        self.loss, self.weight = loss, weight


class _CompileLoss:
    """Keras 3's ``CompileLoss``: the ``loss`` and ``loss_weights`` given to ``compile``, built on
    the first batch from the structures of the targets and outputs.

    ``loss`` is one loss for every output; a list with one entry per output (in output order); a
    dict keyed by output name (every name, for a model whose outputs are a list); or a nest with the
    outputs' structure. An entry ``None`` gives an output no loss, and then the targets may be
    given for the outputs with a loss only (``fit(x, y)`` for ``loss=[fn, None]``).
    ``loss_weights`` has the structure of ``loss`` (or as many leaves). With several losses, each
    has a ``Mean`` tracker named ``"<output>_loss"``: the unweighted loss over the epoch.
    """

    def __init__(self, loss: Any, loss_weights: Any = None, output_names: list | None = None) -> None:
        if loss_weights and not isinstance(loss_weights, (list, tuple, dict, float)):
            raise ValueError("Expected `loss_weights` argument to be a float (single output case) or a "
                             "list, tuple, or dict (multiple output case). Received instead: "
                             f"loss_weights={loss_weights!r} of type {type(loss_weights).__name__}")
        self._user_loss, self._user_loss_weights = loss, loss_weights
        self.output_names = output_names
        self.built = False
        self.metrics: list = []   # (a Mean per loss when there are several)
        self._flat_losses: list = []   # [(path, loss fn, weight, name)]
        self._y_pred_structure = self._y_true_structure = None

    @property
    def variables(self) -> list:
        return [v for m in self.metrics for v in m.variables]

    def build(self, y_true: Any, y_pred: Any) -> None:
        loss, weights = self._user_loss, self._user_loss_weights
        names = self.output_names
        if names and isinstance(loss, dict) and not isinstance(y_pred, dict):
            if set(names) != set(loss):
                raise ValueError(f"Expected keys {names} in loss dict, but found loss.keys()={list(loss)}")
            loss = [loss[name] for name in names]
            if isinstance(weights, dict):
                unknown = sorted(set(weights) - set(names))
                if unknown:
                    raise ValueError(f"`loss_weights` names {unknown}, which are not outputs of the "
                                     f"model {names}.")
                weights = [weights.get(name) for name in names]
        if weights is not None:
            if not same_structure(loss, weights):
                flat_w = flatten(weights)
                if len(flatten(loss)) != len(flat_w):
                    raise ValueError(f"`loss_weights` must match the number of losses, got "
                                     f"{len(flatten(loss))} losses and {len(flat_w)} weights.")
                weights = pack_sequence_as(loss, flat_w)
            flat_w = iter(flatten(weights))
            loss = map_structure(lambda fn: _WeightedLoss(fn, next(flat_w)), loss)
        else:
            loss = map_structure(lambda fn: _WeightedLoss(fn, None), loss)
        try:
            output_names = pack_sequence_as(y_pred, names)
        except (TypeError, ValueError):
            output_names = pack_sequence_as(y_pred, [None] * len(flatten(y_pred)))
        if not is_nested(loss):
            one = loss
            loss = map_structure(lambda _: one, y_pred)
        self._flat_losses = []
        self._build_nested(y_true, y_pred, loss, output_names, ())
        mean = _keras_module("metrics").Mean
        self.metrics = [mean(name=f"{entry[3]}_loss") for entry in self._flat_losses] \
            if len(self._flat_losses) > 1 else []
        self._y_pred_structure = map_structure(lambda _: None, y_pred)
        self._y_true_structure = map_structure(lambda _: None, y_true)
        self.built = True

    def _build_nested(self, y_true: Any, y_pred: Any, loss: Any, output_names: Any, path: tuple) -> None:
        if not is_nested(loss):
            if loss is None:
                return
            fn = _resolve_loss(loss.loss, y_true, y_pred)
            name_path = path
            if not is_nested(output_names):
                name = output_names if output_names is not None else _loss_name(loss.loss, fn)
                if not name_path:
                    name_path = (name,)
                elif isinstance(name_path[-1], int):
                    name_path = name_path[:-1] + (name,)
            name = "/".join(str(p) for p in name_path)
            if name == "":
                name = "_".join(list(output_names) if isinstance(output_names, dict) else
                                [str(n) for n in flatten(output_names)])
            self._flat_losses.append((path, fn, loss.weight, name))
            return
        if isinstance(loss, (list, tuple)) and not any(is_nested(l) for l in loss) \
                and len(loss) == len(flatten(y_pred)):
            loss = pack_sequence_as(y_pred, list(loss))   # (one loss per output, in output order)
        elif isinstance(loss, (list, tuple)) and not isinstance(y_pred, type(loss)):
            for entry in loss:   # (several losses, each for the whole of y_pred)
                self._build_nested(y_true, y_pred, entry, output_names, path)
            return
        if not is_nested(loss):
            return self._build_nested(y_true, y_pred, loss, output_names, path)
        if not isinstance(loss, type(y_pred)):
            raise KeyError(f"The path: {path} in the `loss` argument, can't be found in the model's "
                           "output (`y_pred`).")
        if isinstance(loss, dict):
            items = loss.items()

            def found(key: Any, obj: Any) -> bool:
                return isinstance(obj, dict) and key in obj
        else:
            items = enumerate(loss)

            def found(key: Any, obj: Any) -> bool:
                return isinstance(obj, (list, tuple)) and key < len(obj)
        for key, entry in items:
            if entry is None:
                continue
            if not (found(key, y_true) and found(key, y_pred)):
                raise KeyError(f"The path: {path + (key,)} in the `loss` argument, can't be found in "
                               "either the model's output (`y_pred`) or in the labels (`y_true`).")
            self._build_nested(y_true[key], y_pred[key], entry, output_names[key], path + (key,))

    def _match_targets(self, y_true: Any, y_pred: Any) -> Any:
        """``y_true`` in ``y_pred``'s structure, as Keras matches them: a lone target for a lone
        output, a dict by output name, the same leaves in other containers, or the targets of
        the outputs that have a loss only (the others None)."""
        if same_structure(y_pred, y_true):
            return y_true
        if not is_nested(y_true) and isinstance(y_pred, (list, tuple, dict)) and len(y_pred) == 1:
            y_true = [y_true]
        elif isinstance(y_pred, (list, tuple)) and isinstance(y_true, dict) and self.output_names \
                and set(self.output_names) == set(y_true):
            y_true = [y_true[name] for name in self.output_names]
        if isinstance(y_true, dict) and not isinstance(y_pred, dict) \
                and len(y_true) == len(flatten(y_pred)):
            # (Keras packs the dict's keys as the targets here, and fails on them in the loss)
            self._mismatch(y_true, y_pred)
        try:
            return pack_sequence_as(y_pred, y_true)
        except (TypeError, ValueError):
            pass
        if is_nested(y_true) and sorted(map(str, paths(y_true))) == sorted(map(str, paths(y_pred))):
            return pack_sequence_as(y_pred, flatten(y_true))
        flat_loss = flatten(self._user_loss)
        with_loss = [i for i, fn in enumerate(flat_loss) if fn is not None]
        flat_y = flatten(y_true)
        if len(flat_y) == len(with_loss):
            full = [None] * len(flat_loss)
            for i, y in zip(with_loss, flat_y):
                full[i] = y
            return pack_sequence_as(self._user_loss, full)
        self._mismatch(y_true, y_pred)

    def _mismatch(self, y_true: Any, y_pred: Any) -> None:
        shape = lambda s: map_structure(lambda _: "*", s)  # noqa: E731
        hint = "Give one target per output (or per output with a loss), in the structure of the " \
               "model's outputs."
        names = sorted(y_pred) if isinstance(y_pred, dict) else self.output_names
        if isinstance(y_true, dict) and names:
            unknown = sorted(str(k) for k in y_true if k not in names)
            missing = [name for name in names if name not in y_true]
            hint = (f"The targets are a dict with keys {sorted(map(str, y_true))}, but the model names "
                    f"its outputs {names}: " + "; ".join(
                        ([f"{unknown} name no output"] if unknown else [])
                        + ([f"no target for {missing}"] if missing else []))
                    + ". Key the targets by output name, or give them in output order.")
        raise ValueError(f"y_true and y_pred have different structures.\ny_true: {shape(y_true)}\n"
                         f"y_pred: {shape(y_pred)}\n{hint}")

    def __call__(self, y_true: Any, y_pred: Any, sample_weight: Any = None,
                 batch_weighted: bool = False) -> Tensor | None:
        """The weighted sum of the losses (None when no output has one). ``batch_weighted``: the
        per-loss trackers weigh each batch by its size, as Keras's do when the batch size is
        known to the step (run eagerly); in Keras's traced step it is not, and they take a plain
        mean over batches."""
        if not (is_nested(y_true) or is_nested(y_pred)):
            # (Keras's single-output path: the first loss only, and no per-loss tracker moves,
            # even where `loss` gave that output several)
            if not self.built:
                self.build(y_true, y_pred)
            _, fn, weight, _ = self._flat_losses[0]
            value = _call_loss(fn, y_true, y_pred, sample_weight)
            dtype = _keras_module("backend").floatx()
            value = value if value.dtype == dtype else cast(value, dtype)
            return value if weight is None else value * np.asarray(weight, dtype)
        y_true = self._match_targets(y_true, y_pred)
        if not self.built:
            self.build(y_true, y_pred)
        if is_nested(y_pred) and not same_structure(self._y_pred_structure, y_pred):
            y_pred = pack_sequence_as(self._y_pred_structure, flatten(y_pred))
        if is_nested(y_true) and not same_structure(self._y_true_structure, y_true):
            y_true = pack_sequence_as(self._y_true_structure, flatten(y_true))
        dtype = _keras_module("backend").floatx()
        total = None
        trackers = self.metrics or [None] * len(self._flat_losses)
        for (path, fn, weight, _), tracker in zip(self._flat_losses, trackers):
            yt, yp = _at(path, y_true), _at(path, y_pred)
            sw = _at(path, sample_weight) if is_nested(sample_weight) else sample_weight
            value = _call_loss(fn, yt, yp, sw)
            if value.dtype != dtype:
                value = cast(value, dtype)
            if tracker is not None:   # (the unweighted loss)
                tracker.update_state(_unscale_for_replicas(value),
                                     sample_weight=_num_rows(yp) if batch_weighted else None)
            if weight is not None:
                value = value * np.asarray(weight, dtype)
            total = value if total is None else total + value
        return total


def _at(path: tuple, obj: Any) -> Any:
    for key in path:
        obj = obj[key]
    return obj


def _num_rows(y: Any) -> int:
    return int(flatten(y)[0].shape[0])


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
    ``sum_over_batch_size`` does (weighted sum over the number of entries); as Keras's
    ``LossFunctionWrapper``, a mask on ``y_pred`` (or on the values) keeps only the unmasked
    entries in that mean."""
    in_mask = get_mask(y_pred)
    y_true = convert_to_tensor(y_true)
    if y_true.dtype.is_floating and y_true.dtype != y_pred.dtype:
        y_true = cast(y_true, y_pred.dtype)
    if hasattr(fn, "reduction") or hasattr(fn, "get_config") and not hasattr(fn, "__code__"):
        return fn(y_true, y_pred, sample_weight=sample_weight)
    y_true, y_pred = _same_rank(y_true, y_pred)   # as Keras's LossFunctionWrapper: (n,) labels, (n, 1) outputs
    values = convert_to_tensor(fn(y_true, y_pred))
    mask = _combined_mask(in_mask, get_mask(values))
    if mask is not None:
        return reduce_weighted_values(values, sample_weight, mask, "sum_over_batch_size", values.dtype.name)
    if sample_weight is not None:
        values, sw = _same_rank(values, cast(convert_to_tensor(sample_weight), values.dtype))
        while sw.shape.rank < values.shape.rank:
            sw = expand_dims(sw, -1)
        values = values * sw
    n = max(1, int(np.prod(values.shape)))
    return _scale_for_replicas(reduce_sum(values) / np.asarray(n, values.dtype.name))
