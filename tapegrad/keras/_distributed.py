"""Keras's loops on a mirrored strategy (``fit``, ``evaluate``, ``predict`` and the ``*_on_batch``
methods of a model created under ``strategy.scope()``), as Keras 3 runs them on TensorFlow.

Each global batch is split as ``strategy.experimental_distribute_dataset`` splits it and every
replica runs the model's own ``train_step`` / ``test_step`` / ``predict_step`` on its part with
``strategy.run``: the losses divide by the number of replicas (Keras's
``scale_loss_for_distribution``) and ``apply_gradients`` sums the gradients across replicas.

Metrics follow what TF makes of Keras's metric variables (``synchronization="on_read"``,
``aggregation="sum"``): a step updates each replica's own metric state, and its logs are the
mean over replicas of each replica's results; reading a metric gives the sum of the replicas'
states. Here a replica keeps its own state aside and holds the sum in the metric variables: it
swaps its own state in for the step, then adds the all-reduced (summed) change of every
replica to the sum. This process reads the metric variables from the replicas as it reads any
mirrored variable, and gets the running means that are plain Python numbers with each step.
"""
from __future__ import annotations

import functools
from typing import Any

import numpy as np

from .. import nest
from .. import random as _random
from ..distribute import _strategy
from .utils import pack_x_y_sample_weight, unpack_x_y_sample_weight


def uses_replicas(strategy: Any) -> bool:
    """Whether Keras's loops run on ``strategy``'s replicas (not the default strategy or
    OneDeviceStrategy, which run in this process, nor inside a replica's step)."""
    return (strategy is not _strategy._DEFAULT and not isinstance(strategy, _strategy.OneDeviceStrategy)
            and getattr(_strategy._local, "replica", None) is None)


class StrategyRef:
    """The strategy a model was created under, and its loops there; pickled as an empty
    reference, so that a model shipped to the replicas does not carry its strategy."""

    def __init__(self, strategy: Any = None) -> None:
        self.strategy = strategy
        self.replicas: Replicas | None = None

    def __reduce__(self) -> tuple:
        return StrategyRef, ()


def _leaf_metrics(model: Any) -> list:
    return [leaf for m in model.metrics for leaf in getattr(m, "metrics", [m])]


def _metric_state(model: Any) -> list:
    """Every metric's state as arrays: a Metric's variables, a plain running mean's total and count."""
    out = []
    for m in _leaf_metrics(model):
        if hasattr(m, "variables"):
            out.append([np.asarray(v.numpy()) for v in m.variables])
        else:
            out.append([np.array([m.total, m.count])])
    return out


def _set_metric_state(model: Any, state: list) -> None:
    for m, arrays in zip(_leaf_metrics(model), state):
        if hasattr(m, "variables"):
            for v, a in zip(m.variables, arrays):
                v.assign(a)
        else:
            m.total, m.count = float(arrays[0][0]), float(arrays[0][1])


_OWN: dict = {}  # on a replica: id(the model's copy) -> the replica's own metric state


def _replica_step(model: Any, kind: str, data: Any, reset: bool = False) -> Any:
    """A step on one replica: ``predict`` gives the outputs; ``train`` and ``test`` give the
    logs (this replica's results) and the running means' summed state."""
    if kind == "predict":
        return model.predict_step(data)
    if reset:
        model.reset_metrics()
        _OWN[id(model)] = _metric_state(model)
    total = _metric_state(model)
    own = _OWN[id(model)]
    _set_metric_state(model, own)
    if kind == "train":
        with _random.graph_step(model):
            logs = model._logs(model.train_step(data))
    else:
        logs = model._logs(model.test_step(data))
    new = _OWN[id(model)] = _metric_state(model)
    change = [n - o for arrays, olds in zip(new, own) for n, o in zip(arrays, olds)]
    summed = iter(_strategy.get_replica_context().all_reduce(_strategy.ReduceOp.SUM, change))
    total = [[t + _numpy(next(summed)) for t in arrays] for arrays in total]
    _set_metric_state(model, total)
    return logs, [arrays for m, arrays in zip(_leaf_metrics(model), total) if not hasattr(m, "variables")]


class Replicas:
    """A model's steps on the replicas of ``strategy`` (made once per model and strategy)."""

    def __init__(self, model: Any, strategy: Any) -> None:
        self.model, self.strategy = model, strategy
        self.fn = functools.partial(_replica_step, model)
        self.built = False

    def _split(self, batch: Any) -> Any:
        if isinstance(batch, tuple) and any(b is None for b in batch):  # (x, None, None)
            batch = pack_x_y_sample_weight(*unpack_x_y_sample_weight(batch))
        return next(iter(self.strategy.experimental_distribute_dataset([batch])))

    def _build(self, batch: Any) -> None:
        """Build the model, its losses and compiled metrics here before the first step (Keras's
        symbolic build), so that the replicas receive every variable and metric."""
        model = self.model
        x, y, sw = unpack_x_y_sample_weight(batch)
        y_pred = model(x, training=False)
        if y is not None and model.compiled:
            if model.loss is not None:
                model.compute_loss(x, y, y_pred, sw, training=False)
            if model._compile_metrics is not None:
                model._compile_metrics.update_state(y, y_pred, sw)
        model.reset_metrics()
        self.built = True

    def _run(self, kind: str, batch: Any, *extra: Any, split: bool = True) -> tuple:
        if not self.built:
            self._build(batch)
        out = self.strategy.run(self.fn, args=(kind, self._split(batch) if split else batch) + extra)
        return self.strategy.experimental_local_results(out)

    def step(self, kind: str, batch: Any, reset: bool, split: bool = True) -> dict:
        """One ``train_step`` or ``test_step`` (``kind``) on every replica, after resetting the
        metrics if ``reset``; returns the logs averaged over replicas. With ``split=False`` every
        replica gets the whole batch (as Keras's ``train_on_batch`` and ``test_on_batch`` do on TF)."""
        results = self._run(kind, batch, reset, split=split)
        means = iter(results[0][1])
        for m in _leaf_metrics(self.model):
            if not hasattr(m, "variables"):
                total = _numpy(next(means)[0])
                m.total, m.count = float(total[0]), float(total[1])
        logs = [r[0] for r in results]
        return {k: _mean([lg[k] for lg in logs]) for k in logs[0]}

    def predict(self, batch: Any) -> Any:
        """The replicas' outputs for their parts of ``batch``, joined in batch order."""
        parts = self._run("predict", batch)
        return nest.map_structure(lambda *xs: np.concatenate([_numpy(x) for x in xs]), *parts)

    def epoch_logs(self, logs: dict) -> dict:
        """Keras's ``_get_metrics_result_or_logs``: the model's metrics (over every replica) when
        the step's logs name the same metrics, else the last step's logs."""
        results = self.model.get_metrics_result()
        return results if set(results) == set(logs) else dict(logs)


def _numpy(x: Any) -> np.ndarray:
    return np.asarray(x.numpy() if hasattr(x, "numpy") else x)


def _mean(values: list) -> Any:
    a = np.mean(np.asarray([_numpy(v) for v in values], np.float32), axis=0)
    return float(a) if a.ndim == 0 else a


__all__ = ["Replicas", "StrategyRef", "uses_replicas"]
