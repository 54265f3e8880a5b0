"""Keras's loops on a mirrored strategy (``fit``, ``evaluate``, ``predict`` and the ``*_on_batch``
methods of a model created under ``strategy.scope()``), as Keras 3 runs them on TensorFlow.

Each global batch is split as ``strategy.experimental_distribute_dataset`` splits it and every
replica runs the model's own ``train_step`` / ``test_step`` / ``predict_step`` on its part with
``strategy.run``: the losses divide by the number of replicas (Keras's
``scale_loss_for_distribution``) and ``apply_gradients`` sums the gradients across replicas.

Metrics are TF's: Keras's metric variables are synchronized on read (``add_variable``), so a
replica's step updates and reports its own state (a step's logs are the mean over replicas of
each replica's results) and reading a metric here sums the replicas' states (the epoch's logs,
``evaluate``, ``model.metrics``); the loss tracker is such a metric (a ``keras.metrics.Mean``).
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


def _replica_step(model: Any, kind: str, data: Any, reset: bool = False) -> Any:
    """A step on one replica: ``predict`` gives the outputs; ``train`` and ``test`` give the
    logs (this replica's results)."""
    if kind == "predict":
        return model.predict_step(data)
    if reset:
        model.reset_metrics()
    if kind == "train":
        with _random.graph_step(model):
            logs = model._logs(model.train_step(data))
    else:
        logs = model._logs(model.test_step(data))
    return logs


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
        logs = list(results)
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
