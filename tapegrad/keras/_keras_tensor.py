"""``KerasTensor``, the symbolic tensor of the functional API, and ``Node``, one call of a layer
on KerasTensors (the masks Keras hangs on tensors are in ``_mask_table``). A KerasTensor's operators (``x + y``) make
:class:`~tapegrad.keras.layers.operation.Operation` nodes: the one import upward, done when the
operator runs."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from . import backend
from ._tree import flatten
from ._mask_table import _masks, get_mask, set_mask  # noqa: F401  (the layers read masks here)

if TYPE_CHECKING:
    from .layers.operation import Operation

__all__ = ["KerasTensor", "Node"]


_NO_VALUE = ("A KerasTensor is symbolic: it's a placeholder for a shape an a dtype. It doesn't have any "
             "actual numerical value. You cannot convert it to a ")  # (Keras 3's words)


# ---- symbolic tensors ----------------------------------------------------------------------------

class KerasTensor:
    """A symbolic tensor of the functional API: a shape (``None`` for unknown dims) and a dtype.

    It is what ``keras.Input`` returns and what a layer returns when called on one; it holds no
    values. ``keras.Model(inputs, outputs)`` replays the layers that made ``outputs``.
    """

    def __init__(self, shape: Any, dtype: Any = "float32", name: str | None = None,
                 node: "Node | None" = None, index: int = 0, sparse: bool = False) -> None:
        self.shape = tuple(None if d is None else int(d) for d in shape)
        self.dtype = backend.standardize_dtype(dtype)
        self.name = name
        self.sparse = bool(sparse)  # (a keras.Input(sparse=True): the model takes a tf.SparseTensor there)
        self._node, self._index = node, index
        self._keras_mask: Any = None

    @property
    def ndim(self) -> int:
        return len(self.shape)

    def __repr__(self) -> str:
        return f"<KerasTensor shape={self.shape}, dtype={self.dtype}, name={self.name}>"

    def __array__(self, *a: Any, **k: Any) -> Any:
        raise ValueError(_NO_VALUE + "NumPy array.")

    def __tf_tensor__(self, dtype: Any = None, name: Any = None) -> Any:
        # (a TF function given a KerasTensor: Keras 3's error; keras.ops and keras.activations
        # functions record a node instead)
        raise ValueError(
            "A KerasTensor cannot be used as input to a TensorFlow function. A KerasTensor is a "
            "symbolic placeholder for a shape and dtype, used when constructing Keras Functional "
            "models or Keras Functions. You can only use it as input to a Keras layer or a Keras "
            "operation (from the namespaces `keras.layers` and `keras.ops`). You are likely doing "
            "something like:\n\n```\nx = Input(...)\n...\ntf_fn(x)  # Invalid.\n```\n\nWhat you "
            "should do instead is wrap `tf_fn` in a layer:\n\n```\nclass MyLayer(Layer):\n"
            "    def call(self, x):\n        return tf_fn(x)\n\nx = MyLayer()(x)\n```\n")

    def __bool__(self) -> bool:
        raise TypeError("A symbolic KerasTensor cannot be used as a boolean.")

    def __int__(self) -> int:
        raise ValueError(_NO_VALUE + "int.")

    def __float__(self) -> float:
        raise ValueError(_NO_VALUE + "float.")

    def reshape(self, newshape: Any) -> Any:
        """``keras.ops.reshape(self, newshape)``: a node of the functional graph."""
        return operation("reshape", (self,), {"newshape": newshape})

    def squeeze(self, axis: Any = None) -> Any:
        """``keras.ops.squeeze(self, axis)``: a node of the functional graph."""
        return operation("squeeze", (self,), {"axis": axis})

    # operators build graph nodes, as keras.ops functions do on KerasTensors (``x + attention``)
    def __add__(self, o: Any) -> Any: return operation("add", (self, o))
    def __radd__(self, o: Any) -> Any: return operation("add", (o, self))
    def __sub__(self, o: Any) -> Any: return operation("subtract", (self, o))
    def __rsub__(self, o: Any) -> Any: return operation("subtract", (o, self))
    def __mul__(self, o: Any) -> Any: return operation("multiply", (self, o))
    def __rmul__(self, o: Any) -> Any: return operation("multiply", (o, self))
    def __truediv__(self, o: Any) -> Any: return operation("true_divide", (self, o))
    def __rtruediv__(self, o: Any) -> Any: return operation("true_divide", (o, self))
    def __floordiv__(self, o: Any) -> Any: return operation("floor_divide", (self, o))
    def __rfloordiv__(self, o: Any) -> Any: return operation("floor_divide", (o, self))
    def __mod__(self, o: Any) -> Any: return operation("mod", (self, o))
    def __rmod__(self, o: Any) -> Any: return operation("mod", (o, self))
    def __pow__(self, o: Any) -> Any: return operation("power", (self, o))
    def __rpow__(self, o: Any) -> Any: return operation("power", (o, self))
    def __matmul__(self, o: Any) -> Any: return operation("matmul", (self, o))
    def __rmatmul__(self, o: Any) -> Any: return operation("matmul", (o, self))
    def __neg__(self) -> Any: return operation("negative", (self,))
    def __abs__(self) -> Any: return operation("absolute", (self,))
    def __lt__(self, o: Any) -> Any: return operation("less", (self, o))
    def __le__(self, o: Any) -> Any: return operation("less_equal", (self, o))
    def __gt__(self, o: Any) -> Any: return operation("greater", (self, o))
    def __ge__(self, o: Any) -> Any: return operation("greater_equal", (self, o))
    def __ne__(self, o: Any) -> Any: return operation("not_equal", (self, o))  # type: ignore[override]
    def __and__(self, o: Any) -> Any: return operation("logical_and", (self, o))
    def __rand__(self, o: Any) -> Any: return operation("logical_and", (o, self))
    def __or__(self, o: Any) -> Any: return operation("logical_or", (self, o))
    def __ror__(self, o: Any) -> Any: return operation("logical_or", (o, self))
    def __xor__(self, o: Any) -> Any: return operation("logical_xor", (self, o))
    def __rxor__(self, o: Any) -> Any: return operation("logical_xor", (o, self))
    def __invert__(self) -> Any: return operation("logical_not", (self,))
    def __round__(self, ndigits: int | None = None) -> Any: return operation("round", (self,), {"decimals": ndigits or 0})
    def __getitem__(self, key: Any) -> Any: return operation("get_item", (self, key))

    def __iter__(self) -> Any:
        raise NotImplementedError("Iterating over a symbolic KerasTensor is not supported.")

    __hash__ = object.__hash__  # (identity: graph bookkeeping keys on it)


def operation(name: str, args: tuple, kwargs: dict | None = None) -> Any:
    """The KerasTensor of ``keras.ops.<name>(*args, **kwargs)`` applied to KerasTensors: a node of
    the functional graph, made by an :class:`Operation` of the function's class."""
    from .layers.operation import ops_call  # (builds on KerasTensor: imported when used)
    return ops_call(name, args, kwargs)


class Node:
    """One call of a layer on symbolic inputs: ``layer(*args, **kwargs) -> outputs``; the layer
    keeps its nodes in calling order (its ``input`` and ``output`` are the first node's)."""

    _count = 0

    def __init__(self, layer: "Operation", args: tuple, kwargs: dict, outputs: Any) -> None:
        Node._count += 1
        self.order = Node._count  # creation order is a topological order of the graph
        self.layer, self.args, self.kwargs, self.outputs = layer, args, kwargs, outputs
        layer.__dict__.setdefault("_inbound_nodes", []).append(self)

    @property
    def operation(self) -> "Operation":
        """The layer or operation this node calls (Keras 3's name)."""
        return self.layer

    @property
    def parents(self) -> list:
        return [t._node for t in flatten((self.args, self.kwargs))
                if isinstance(t, KerasTensor) and t._node is not None]


def _is_shape(x: Any) -> bool:
    return isinstance(x, (tuple, list)) and all(d is None or isinstance(d, (int, np.integer))
                                                for d in x)


def shapes_to_specs(shapes: Any) -> Any:
    """KerasTensors for a nest of shapes (so ``_maybe_build`` reads ``.shape``)."""
    if _is_shape(shapes):
        return KerasTensor(shapes)
    if isinstance(shapes, dict):
        return {k: shapes_to_specs(v) for k, v in shapes.items()}
    return [shapes_to_specs(s) for s in shapes]
