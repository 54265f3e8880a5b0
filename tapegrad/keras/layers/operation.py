"""``Operation``: a ``keras.ops`` function (or an operator) applied to KerasTensors, kept as a
layer of the functional graph."""
from __future__ import annotations

import itertools
from typing import Any

from .layer import Layer

__all__ = ["Operation"]


class Operation(Layer):
    """A ``keras.ops`` function (or an operator) applied to KerasTensors in a functional model:
    replaying the graph calls ``keras.ops.<op>`` with the node's tensors and constants."""

    def __init__(self, op: str, op_kwargs: dict | None = None, **kwargs: Any) -> None:
        kwargs.setdefault("name", f"{op}_{next(_operation_ids)}")
        super().__init__(**kwargs)
        self.op, self.op_kwargs = op, dict(op_kwargs or {})
        self.built = True

    def call(self, *args: Any) -> Any:
        from .. import ops
        return getattr(ops, self.op)(*args, **self.op_kwargs)

    def get_config(self) -> dict:
        return {**super().get_config(), "op": self.op, "op_kwargs": self.op_kwargs}


_operation_ids = itertools.count(1)
