"""Keras 3's ``keras.optimizers.OptimizerMap`` and ``MultiOptimizer``: each variable updated by
the optimizer its path selects."""
from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any, Iterator, Sequence

from . import backend
from ._engine import Variable
from ..optimizers import LossScaleOptimizer, Optimizer
from .saving import deserialize_keras_object, serialize_keras_object


class OptimizerMap(MutableMapping):
    """Optimizers by variable path: an exact key first, else the one key that
    ``re.fullmatch``-es the path (two: ``ValueError``), else ``default_optimizer``. Calling the
    map on a variable looks up its ``path``.

    >>> from tapegrad import keras
    >>> m = keras.optimizers.OptimizerMap(keras.optimizers.RMSprop())
    >>> m["encoder/.*"] = keras.optimizers.SGD()
    >>> m["encoder/dense/kernel"].name, m["decoder/dense/kernel"].name
    ('sgd', 'rmsprop')
    """

    def __init__(self, default_optimizer: Optimizer, optimizer_map: dict | None = None) -> None:
        if not isinstance(default_optimizer, Optimizer):
            raise TypeError(f"default_optimizer must be a Keras Optimizer instance. Received: {default_optimizer}")
        if optimizer_map is not None and not isinstance(optimizer_map, dict):
            raise TypeError(f"optimizer_map must be a dictionary. Received: {optimizer_map}")
        self._default_optimizer = default_optimizer
        self._optimizer_map = optimizer_map or {}

    @property
    def default_optimizer(self) -> Optimizer:
        return self._default_optimizer

    def __getitem__(self, key: str) -> Optimizer:
        return backend.by_path(self._optimizer_map, key, self._default_optimizer, "optimizer")

    def __setitem__(self, key: str, optimizer: Optimizer) -> None:
        if key in self._optimizer_map:
            raise ValueError(f"'{key}' already exists in the OptimizerMap with value {self._optimizer_map[key]}. "
                             "Please make sure to not use duplicated keys.")
        if not isinstance(key, str):
            raise ValueError(f"key must be a string. Received: {key}")
        if not isinstance(optimizer, Optimizer):
            raise ValueError(f"optimizer must be a Keras Optimizer instance. Received: {optimizer}")
        if isinstance(optimizer, LossScaleOptimizer):
            raise ValueError("optimizer cannot be LossScaleOptimizer.")
        if isinstance(optimizer, MultiOptimizer):
            raise ValueError("optimizer cannot be MultiOptimizer.")
        self._optimizer_map[key] = optimizer

    def __delitem__(self, key: str) -> None:
        del self._optimizer_map[key]

    def __len__(self) -> int:
        return len(self._optimizer_map)

    def __iter__(self) -> Iterator:
        return iter(self._optimizer_map)

    def __call__(self, variable: Variable) -> Optimizer:
        return self[variable.path]

    def get_config(self) -> dict:
        return {"default_optimizer": serialize_keras_object(self._default_optimizer),
                "optimizer_map": {k: serialize_keras_object(v) for k, v in self._optimizer_map.items()}}

    @classmethod
    def from_config(cls, config: dict, custom_objects: dict | None = None) -> "OptimizerMap":
        default = deserialize_keras_object(config["default_optimizer"], custom_objects=custom_objects)
        mapping = {k: deserialize_keras_object(v, custom_objects=custom_objects)
                   for k, v in (config.get("optimizer_map") or {}).items()}
        return cls(default, mapping)


class MultiOptimizer(Optimizer):
    """Delegates each variable to the optimizer ``optimizer_map`` gives it (an
    :class:`OptimizerMap`, or a callable of the variable); ``loss_scale_factor`` is set on every
    sub-optimizer. ``optimizers`` lists them; ``learning_rate`` is theirs, not this one's
    (``AttributeError``); ``iterations`` counts the steps.

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> opt = keras.optimizers.MultiOptimizer(keras.optimizers.OptimizerMap(keras.optimizers.SGD(0.5)))
    >>> w = keras.Variable(np.ones(2, "float32"))
    >>> _ = opt.apply([np.ones(2, "float32")], [w])
    >>> w.numpy(), int(opt.iterations)
    (array([0.5, 0.5], dtype=float32), 1)
    """

    def __init__(self, optimizer_map: Any, loss_scale_factor: float | None = None, name: str | None = None) -> None:
        self._inner_optimizers: list = []
        super().__init__(0.0, name=name, loss_scale_factor=loss_scale_factor)
        self._optimizer_map = optimizer_map
        self._var_to_optimizer: dict = {}
        self._multi_built = False
        self._multi_vars: list = []
        inner = list(optimizer_map.values()) if hasattr(optimizer_map, "values") else []
        default = getattr(optimizer_map, "default_optimizer", None)
        for opt in inner + ([default] if default is not None else []):
            if opt not in self._inner_optimizers:
                opt.loss_scale_factor = loss_scale_factor
                self._inner_optimizers.append(opt)

    @property
    def loss_scale_factor(self) -> Any:
        return getattr(self, "_loss_scale_factor", None)

    @loss_scale_factor.setter
    def loss_scale_factor(self, value: Any) -> None:
        self._loss_scale_factor = value
        for opt in getattr(self, "_inner_optimizers", ()):
            opt.loss_scale_factor = value

    @property
    def learning_rate(self) -> Any:
        raise AttributeError("Learning rate cannot be accessed on a MultiOptimizer. Access the learning rate on "
                             "the individual sub-optimizers instead.")

    @learning_rate.setter
    def learning_rate(self, value: Any) -> None:
        raise AttributeError("Learning rate cannot be set on a MultiOptimizer. Set the learning rate on the "
                             "individual sub-optimizers instead.")

    @property
    def optimizers(self) -> list:
        return self._inner_optimizers

    @property
    def built(self) -> bool:
        return self._multi_built

    @property
    def variables(self) -> list:
        out = [self._iterations, self._learning_rate]
        for opt in self._inner_optimizers:
            out.extend(opt.variables)
        return out

    def build(self, var_list: Sequence[Variable]) -> None:
        if self._multi_built:
            return
        groups: dict = {}
        for v in var_list:
            opt = self._optimizer_map(v)
            if not isinstance(opt, Optimizer):
                raise ValueError(f"Optimizer for variable {v} is not an Optimizer instance.")
            if isinstance(opt, LossScaleOptimizer):
                raise ValueError("LossScaleOptimizer cannot be used inside an MultiOptimizer.")
            if isinstance(opt, MultiOptimizer):
                raise ValueError("MultiOptimizer cannot be used inside an MultiOptimizer.")
            if opt not in self._inner_optimizers:
                opt.loss_scale_factor = self.loss_scale_factor
                self._inner_optimizers.append(opt)
            idx = self._inner_optimizers.index(opt)
            self._var_to_optimizer[v.ref()] = idx
            groups.setdefault(idx, []).append(v)
        for idx, opt in enumerate(self._inner_optimizers):
            if groups.get(idx):
                opt.build(groups[idx])
        self._multi_vars = list(var_list)
        self._multi_built = True

    def apply(self, grads: Sequence[Any], trainable_variables: Sequence[Variable] | None = None) -> Variable:
        grads = list(grads)
        if not grads:
            return self._iterations
        if trainable_variables is None:
            if not self._multi_built:
                raise ValueError("When passing `grads` without `variables`, the optimizer must already be built on "
                                 "a list of variables. Call `optimizer.build(trainable_variables)` first.")
            trainable_variables = self._multi_vars
        trainable_variables = list(trainable_variables)
        self.build(trainable_variables)
        if len(grads) != len(self._var_to_optimizer):
            raise ValueError(f"Gradients must match trainable variables one-to-one. Received {len(grads)} gradients "
                             f"and {len(self._var_to_optimizer)} variables.")
        groups: list = [[] for _ in self._inner_optimizers]
        for g, v in zip(grads, trainable_variables):
            groups[self._var_to_optimizer[v.ref()]].append((g, v))
        for opt, pairs in zip(self._inner_optimizers, groups):
            if pairs:
                opt.apply([g for g, _ in pairs], [v for _, v in pairs])
        self._iterations.assign_add(1)
        return self._iterations

    def finalize_variable_values(self, var_list: Sequence[Variable]) -> None:
        groups: list = [[] for _ in self._inner_optimizers]
        for v in var_list:
            groups[self._var_to_optimizer[v.ref()]].append(v)
        for opt, vs in zip(self._inner_optimizers, groups):
            if vs:
                opt.finalize_variable_values(vs)

    def get_config(self) -> dict:
        return {"optimizer_map": serialize_keras_object(self._optimizer_map),
                "loss_scale_factor": self.loss_scale_factor, "name": self.name}

    @classmethod
    def from_config(cls, config: dict, custom_objects: dict | None = None) -> "MultiOptimizer":
        config = dict(config)
        config["optimizer_map"] = deserialize_keras_object(config["optimizer_map"], custom_objects=custom_objects)
        return cls(**config)
