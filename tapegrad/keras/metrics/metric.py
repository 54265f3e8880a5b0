"""``keras.metrics.Metric``: the base class of the metrics, their state in non-trainable variables."""
from __future__ import annotations

from typing import Any

import numpy as np

from ... import dtypes as _dt
from .._engine import Tensor
from .._engine import Variable
from .._variables import KerasVariable
from ..losses import _FLOATX, _snake


class Metric:
    """Base class of the metrics: state in :meth:`add_variable` Variables, updated by
    :meth:`update_state` and read by :meth:`result`; calling a metric updates it and returns the
    result.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> class Count(keras.metrics.Metric):
    ...     def __init__(self, name="count"):
    ...         super().__init__(name=name)
    ...         self.n = self.add_variable(shape=(), initializer="zeros", name="n")
    ...     def update_state(self, values, sample_weight=None):
    ...         self.n.assign_add(tf.cast(tf.size(values), self.dtype))
    ...     def result(self):
    ...         return tf.identity(self.n)
    >>> c = Count(); c.update_state([1, 2, 3]); print(c([4]).numpy())
    4.0
    """

    def __init__(self, dtype: Any = None, name: str | None = None) -> None:
        self.name = name or _snake(type(self).__name__)
        self._dtype = _dt.as_dtype(dtype or _FLOATX).name
        self._variables: list[Variable] = []

    @property
    def dtype(self) -> str:
        return self._dtype

    @property
    def variables(self) -> list[Variable]:
        """The state Variables, in the order they were added."""
        return list(self._variables)

    def add_variable(self, shape: Any, initializer: Any = "zeros", dtype: Any = None,
                     aggregation: str = "sum", name: str | None = None) -> Variable:
        """A new non-trainable state ``keras.Variable`` of ``shape``, zeros (or ``"ones"``, or a
        callable ``initializer(shape, dtype)``), named ``name`` (no ``":0"``) with ``path``
        ``"<metric name>/<name>"``, as Keras 3 makes it. As in Keras, it is synchronized on read: under a
        mirrored strategy each replica keeps its own state, and reading it outside the replicas
        combines them by ``aggregation`` (``"sum"``, ``"mean"``, ``"only_first_replica"``)."""
        dtype = _dt.as_dtype(dtype or self.dtype).as_numpy_dtype
        if callable(initializer):
            value = initializer(tuple(shape), dtype)
        elif initializer in ("zeros", None) or type(initializer).__name__ == "Zeros":
            value = np.zeros(shape, dtype)
        elif initializer == "ones":
            value = np.ones(shape, dtype)
        else:
            raise ValueError(f"Metric.add_variable: unknown initializer {initializer!r}; use "
                             "'zeros', 'ones' or a callable initializer(shape, dtype).")
        v = KerasVariable(value, dtype=dtype, trainable=False, aggregation=aggregation,
                          synchronization="on_read", name=name)
        v._path = f"{self.name.replace('/', '>')}/{v.name}"  # (Keras 3: made in the metric's name scope)
        self._variables.append(v)
        return v

    def add_weight(self, shape: Any = (), initializer: Any = None, dtype: Any = None,
                   name: str | None = None) -> Variable:
        return self.add_variable(shape, initializer, dtype=dtype, name=name)

    def reset_state(self) -> None:
        """Set every state Variable back to zeros."""
        for v in self._variables:
            v.assign(np.zeros(v.shape.as_list(), v.dtype.as_numpy_dtype))

    def update_state(self, *args: Any, **kwargs: Any) -> None:
        raise NotImplementedError(f"{type(self).__name__} must define update_state")

    def result(self) -> Tensor:
        raise NotImplementedError(f"{type(self).__name__} must define result")

    def __call__(self, *args: Any, **kwargs: Any) -> Tensor:
        self.update_state(*args, **kwargs)
        return self.result()

    # -- Keras 3's stateless API: the state passed in and returned, the Variables left as they were
    def stateless_update_state(self, metric_variables: Any, *args: Any, **kwargs: Any) -> list:
        """:meth:`update_state` on the state ``metric_variables`` (values 1:1 with
        :attr:`variables`); returns the new state, the Variables unchanged.

        >>> import tapegrad as tf
        >>> m = tf.keras.metrics.Mean()
        >>> state = m.stateless_update_state([v.value() for v in m.variables], [1.0, 3.0])
        >>> float(m.stateless_result(state)), float(m.result())
        (2.0, 0.0)
        """
        return self._stateless(metric_variables, lambda: self.update_state(*args, **kwargs))[1]

    def stateless_result(self, metric_variables: Any) -> Any:
        """:meth:`result` of the state ``metric_variables``, the Variables unchanged."""
        return self._stateless(metric_variables, self.result)[0]

    def stateless_reset_state(self) -> list:
        """The state :meth:`reset_state` gives, the Variables unchanged."""
        return self._stateless(None, self.reset_state)[1]

    def _stateless(self, state: Any, fn: Any) -> tuple:
        variables = self.variables
        if state is not None and len(state) != len(variables):
            raise ValueError(
                "Argument `metric_variables` must be a list of tensors corresponding 1:1 to "
                f"{type(self).__name__}().variables. Received list with length {len(state)}, but "
                f"expected {len(variables)} variables.")
        saved = [v.value() for v in variables]
        try:
            for v, value in zip(variables, state or ()):
                v.assign(value)
            out = fn()
            return out, [v.value() for v in variables]
        finally:
            for v, value in zip(variables, saved):
                v.assign(value)

    def get_config(self) -> dict:
        return {"name": self.name, "dtype": self.dtype}

    @classmethod
    def from_config(cls, config: dict) -> Metric:
        return cls(**config)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} name={self.name}>"
# As the confusion counts, computed in NumPy in the metric's dtype; the correlations with tapegrad's ops.


