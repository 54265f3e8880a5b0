"""``Operation``, Keras 3's base of every node of a functional graph: a layer, or a ``keras.ops``
function (or an operator, ``x + y``) applied to KerasTensors.

As in Keras 3, :class:`~tapegrad.keras.layers.layer.Layer` subclasses ``Operation``; a
``keras.ops`` call on KerasTensors is an ``Operation`` of the function's own class (``Add``,
``Matmul``, ``GetItem``, ...) that is no layer: ``model.operations`` lists it, ``model.layers``
does not, and ``model.summary()`` shows it as Keras does (``add (Add)``).
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from .._engine import _strings
from .._engine import convert_to_tensor
from .. import backend
from .._keras_tensor import KerasTensor, Node, set_mask
from .._tree import flatten, map_structure

__all__ = ["Operation"]


class Operation:
    """A computation that, given KerasTensors, records a node of the functional graph instead of
    computing (``symbolic_call``), and given tensors runs ``call``.

    >>> from tapegrad import keras
    >>> x = keras.Input((3,))
    >>> y = keras.ops.sum(x * 2.0, axis=-1)
    >>> [type(op).__name__ for op in keras.Model(x, y).operations]
    ['InputLayer', 'Multiply', 'Sum']
    """

    def __init__(self, name: str | None = None) -> None:
        if name is None:
            name = backend.unique_name(backend.snake_case(type(self).__name__))
        elif not isinstance(name, str) or "/" in name:
            raise ValueError("Argument `name` must be a string and cannot contain character `/`. "
                             f"Received: name={name!r} (of type {type(name)})")
        self.__dict__["_name"] = name

    @property
    def name(self) -> str:
        return self._name

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if any(isinstance(x, KerasTensor) for x in flatten((args, kwargs))):
            return self.symbolic_call(*args, **kwargs)
        return self.call(*args, **kwargs)

    def call(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(f"{type(self).__name__} must define call().")

    def symbolic_call(self, *args: Any, **kwargs: Any) -> Any:
        """KerasTensors for ``call``'s outputs on the KerasTensors in ``args``, and a node of the
        functional graph that makes them from those inputs."""
        return self._record_node(args, kwargs, self.compute_output_spec(*args, **kwargs))

    def compute_output_spec(self, *args: Any, **kwargs: Any) -> Any:
        """KerasTensors with the shapes and dtypes ``call`` gives for KerasTensor inputs: ``call``
        runs on zeros (unknown dims 2, then 3: output dims that differ are unknown) inside
        :class:`~tapegrad.keras.backend.StatelessConstruction`, so it changes nothing."""
        return spec_of_runs(lambda a, k: self.call(*a, **k), args, kwargs)

    def _record_node(self, args: tuple, kwargs: dict, outputs: Any) -> Any:
        node = Node(self, args, kwargs, outputs)
        for i, t in enumerate(flatten(outputs)):
            t._node, t._index = node, i
            t.name = t.name or self.name
        return outputs

    # -- the functional graph ---------------------------------------------------------------------

    def _first_node(self, what: str) -> Node:
        nodes = self.__dict__.get("_inbound_nodes")
        if not nodes:
            raise AttributeError(
                f"The layer {self.name} has never been called and thus has no defined {what}: "
                f"`{what}` is the symbolic tensor of the layer's first call in a functional graph "
                "(on keras.Input, or inside a Sequential model with a known input shape).")
        return nodes[0]

    @property
    def input(self) -> Any:
        """The symbolic input of the first call in a functional graph (a list when that call
        took several tensors)."""
        node = self._first_node("input")
        xs = [t for t in flatten((node.args, node.kwargs)) if isinstance(t, KerasTensor)]
        return xs[0] if len(xs) == 1 else xs

    @property
    def output(self) -> Any:
        """The symbolic output of the first call in a functional graph (a list when it gave
        several tensors): ``keras.Model(model.inputs, layer.output)`` reuses the layers between
        them, weights included."""
        outs = flatten(self._first_node("output").outputs)
        return outs[0] if len(outs) == 1 else outs

    # -- config -----------------------------------------------------------------------------------

    def get_config(self) -> dict:
        return {"name": self.name}

    @classmethod
    def from_config(cls, config: dict) -> "Operation":
        return cls(**config)

    def __repr__(self) -> str:
        return f"<Operation name={self.name}>"


class ReLU(Operation):
    """``keras.activations.relu`` applied to KerasTensors: Keras 3's ``ReLU`` operation, which
    keeps the activation's arguments (``keras.ops.relu`` makes a ``Relu`` node instead).

    >>> from tapegrad import keras
    >>> x = keras.Input((3,))
    >>> op = keras.Model(x, keras.activations.relu(x, max_value=6.0)).operations[-1]
    >>> type(op).__name__, op.get_config()
    ('ReLU', {'name': 're_lu', 'negative_slope': 0.0, 'max_value': 6.0, 'threshold': 0.0})
    """

    _keras_module = "keras.src.activations.activations"  # (where Keras 3's files name it)

    def __init__(self, negative_slope: float = 0.0, max_value: float | None = None, threshold: float = 0.0,
                 name: str | None = None) -> None:
        super().__init__(name=name)
        self.negative_slope, self.max_value, self.threshold = negative_slope, max_value, threshold

    def call(self, x: Any) -> Any:
        from .. import ops  # (as OpsCall.call)
        return ops._relu_static(x, self.negative_slope, self.max_value, self.threshold)

    def compute_output_spec(self, x: Any) -> KerasTensor:
        return KerasTensor(x.shape, x.dtype)

    def get_config(self) -> dict:
        return {"name": self.name, "negative_slope": self.negative_slope, "max_value": self.max_value,
                "threshold": self.threshold}


# ---- keras.ops functions on KerasTensors -----------------------------------------------------------

class OpsCall(Operation):
    """The base of the classes :func:`op_class` makes: ``keras.ops.<op>`` applied to the node's
    tensors, with its constant keyword arguments kept on the operation."""

    op = ""

    def __init__(self, op_kwargs: dict | None = None, name: str | None = None) -> None:
        super().__init__(name=name)
        self.op_kwargs = dict(op_kwargs or {})

    def call(self, *args: Any) -> Any:
        from .. import ops  # (keras.ops takes KerasTensors through this module: imported when run)
        fn = getattr(ops, self.op, None) or getattr(ops.image, self.op)  # (keras.ops.image's too)
        return fn(*args, **self.op_kwargs)

    def get_config(self) -> dict:
        return {"name": self.name, **self.op_kwargs}

    @classmethod
    def from_config(cls, config: dict) -> "OpsCall":
        config = dict(config)
        name = config.pop("name", None)
        if "op_kwargs" in config:  # (tapegrad's files before operations were classes of their own)
            config = dict(config["op_kwargs"] or {})
        config.pop("op", None)
        return cls(config, name=name)


_classes: dict[str, type] = {}


def op_class(op: str) -> type:
    """The :class:`Operation` class of ``keras.ops.<op>`` on KerasTensors, named as Keras 3 names
    it (``add`` -> ``Add``, ``get_item`` -> ``GetItem``)."""
    cls = _classes.get(op)
    if cls is None:
        name = "".join(part[:1].upper() + part[1:] for part in op.split("_"))
        cls = _classes[op] = type(name, (OpsCall,), {"op": op, "__module__": "tapegrad.keras.ops"})
    return cls


def ops_call(op: str, args: tuple, kwargs: dict | None = None) -> Any:
    """The KerasTensor of ``keras.ops.<op>(*args, **kwargs)`` on KerasTensors: a node of the
    functional graph (its constant arguments kept in the node)."""
    return op_class(op)(kwargs)(*args)


# ---- running call on stand-ins for KerasTensors ----------------------------------------------------

def _placeholder(x: Any, fill: int) -> Any:
    """A KerasTensor's stand-in value: zeros (``fill`` for unknown dims), carrying ones as its
    mask when the KerasTensor has one (a bool KerasTensor, or a mask over all but the last axis)."""
    if not isinstance(x, KerasTensor):
        return x
    dims = [fill if d is None else d for d in x.shape]
    value = convert_to_tensor(_strings.empty(dims) if x.dtype == "string" else np.zeros(dims, x.dtype))
    mask = x._keras_mask
    if mask is not None:
        shape = mask.shape if isinstance(mask, KerasTensor) else value.shape[:-1]
        set_mask(value, convert_to_tensor(np.ones([fill if d is None else d for d in shape], bool)))
    return value


def spec_of_runs(run: Callable[[tuple, dict], Any], args: tuple, kwargs: dict,
                 variables: Callable[[], Any] = tuple, spec: Callable | None = None) -> Any:
    """KerasTensors for what ``run(args, kwargs)`` gives on stand-ins for the KerasTensors in
    ``args`` and ``kwargs``: two runs (unknown dims 2, then 3) inside a
    :class:`~tapegrad.keras.backend.StatelessConstruction` over ``variables()``; output dims that
    differ are unknown. Python's and NumPy's generators move on by one run's draws (Keras runs the
    Python code once). ``spec(out2, out3)`` makes each KerasTensor (default: shape and dtype)."""
    runs = []
    drawn = None
    for fill in (2, 3):
        a = map_structure(lambda x: _placeholder(x, fill), args)
        k = map_structure(lambda x: _placeholder(x, fill), kwargs)
        with backend.StatelessConstruction(variables()):
            runs.append(run(a, k))
        if drawn is None:
            drawn = backend.python_random_states()
        else:
            backend.set_python_random_states(drawn)
    return _zip_map(spec or _spec, runs[0], runs[1])


def _spec(o2: Any, o3: Any) -> KerasTensor:
    return KerasTensor([d2 if d2 == d3 else None for d2, d3 in zip(o2.shape, o3.shape)], o2.dtype.name)


def _zip_map(fn: Callable, a: Any, b: Any) -> Any:
    if isinstance(a, dict):
        return {k: _zip_map(fn, a[k], b[k]) for k in a}
    if isinstance(a, (list, tuple)):
        out = [_zip_map(fn, x, y) for x, y in zip(a, b)]
        return out if isinstance(a, list) else tuple(out)
    return fn(a, b)

