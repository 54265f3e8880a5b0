"""The functional graph of ``keras.Model(inputs, outputs)``: the nodes between the inputs and the
outputs in recording order, the layers and nodes in Keras's order, and the replay of the graph on data."""
from __future__ import annotations

from typing import Any

from .._engine import convert_to_tensor
from .._engine import Tensor
from .._engine import Variable
from ...ops.array import expand_dims, squeeze
from ...ops.math import cast
from ...sparse._sparse_tensor import SparseTensor
from .._keras_tensor import KerasTensor, Node
from .._tree import flatten, map_structure
from ..layers.input_layer import InputLayer
from ..layers.operation import Operation


def _nodes_between(inputs: list, outputs: list) -> list:
    """The nodes that make ``outputs``, in recording order; every path must start at ``inputs``
    (a keras.Input, or a layer's output: the walk stops there, as Keras 3's ``_build_map``)."""
    found: dict[int, Node] = {}
    input_ids = {id(t) for t in inputs}
    stack = [t for t in outputs if id(t) not in input_ids or isinstance(t._node.layer, InputLayer)]
    while stack:
        node = stack.pop()._node
        if id(node) in found:
            continue
        found[id(node)] = node
        if isinstance(node.layer, InputLayer):
            if id(node.outputs) not in input_ids:
                raise ValueError(f"Graph disconnected: cannot find the value of the tensor "
                                 f"{node.outputs!r} (from keras.Input {node.layer.name!r}), which "
                                 "the outputs need but the model's `inputs` do not include.")
            continue
        stack.extend(t for t in flatten((node.args, node.kwargs)) if isinstance(t, KerasTensor) and t._node is not None
                     and (id(t) not in input_ids or isinstance(t._node.layer, InputLayer)))
    return sorted(found.values(), key=lambda n: n.order)


def _depth_walk(inputs: list, outputs: list) -> tuple:
    """Keras 3's ``map_graph``: each layer's index in a depth-first walk from the outputs, the
    nodes (in Keras's order within a depth) with their depths counted from the outputs, and the
    layers' depths (a layer's is its deepest node's)."""
    order: dict = {}
    finished: list = []
    done: set = set()
    input_ids = {id(t) for t in inputs}

    def visit(t: KerasTensor) -> None:
        node = t._node
        if id(node) in done or id(t) in input_ids and not isinstance(node.layer, InputLayer):
            return  # (a layer's output given as an input: its layer is outside the model)
        order.setdefault(node.layer, len(order))
        if not isinstance(node.layer, InputLayer) and id(t) not in input_ids:
            for parent in flatten((node.args, node.kwargs)):
                if isinstance(parent, KerasTensor):
                    visit(parent)
        done.add(id(node))
        finished.append(node)
    for t in outputs:
        visit(t)
    in_graph = {id(n): n for n in finished}
    node_depth: dict = {}
    layer_depth: dict = {}
    for node in reversed(finished):
        depth = max(node_depth.setdefault(id(node), 0), layer_depth.get(node.layer, 0))
        layer_depth[node.layer] = node_depth[id(node)] = depth
        for parent in node.parents:
            if id(parent) in in_graph:
                node_depth[id(parent)] = max(depth + 1, node_depth.get(id(parent), 0))
    return order, [(in_graph[i], d) for i, d in node_depth.items()], layer_depth


def _layers_by_depth(inputs: list, outputs: list) -> list:
    """The layers in Keras's order: deepest first, layers of one depth in the order a depth-first
    walk from the outputs first meets them."""
    order, _, layer_depth = _depth_walk(inputs, outputs)
    return sorted(order, key=lambda layer: (-layer_depth[layer], order[layer]))


def _nodes_by_depth(inputs: list, outputs: list) -> list:
    """The nodes in the order Keras 3 runs them: deepest first (the order matters where a layer
    leaves ``training`` in the call context for the layers after it)."""
    _, nodes, _ = _depth_walk(inputs, outputs)
    return [node for node, _ in sorted(nodes, key=lambda nd: -nd[1])]


def _shapes_of(tensors: list) -> Any:
    shapes = [t.shape for t in tensors]
    return shapes[0] if len(shapes) == 1 else shapes


def _adjust_rank(x: Tensor, ref: KerasTensor, model: str) -> Tensor:
    """Keras 3's ``_adjust_input_rank``: an input one axis short of the model's ``Input`` whose
    last axis is 1 gains that axis; one with an extra trailing axis of 1 loses it."""
    rank, want = x.shape.rank, len(ref.shape)
    if rank == want:
        return x
    if rank == want + 1 and x.shape[-1] == 1:
        return squeeze(x, -1)
    if rank == want - 1 and ref.shape[-1] == 1:
        return expand_dims(x, -1)
    raise ValueError(f"Invalid input shape for input {ref.name!r} of model {model!r}: expected "
                     f"shape {ref.shape}, but the input has the incompatible shape "
                     f"{tuple(x.shape)} (rank {rank}; only a trailing axis of length 1 is added "
                     "or dropped). Reshape the data to the model's input shape.")


def run_graph(model: Any, inputs: Any) -> Any:
    """A functional model's call: its nodes replayed in Keras's order on ``inputs`` (a tensor, a
    list, or a dict by input name), after converting each input to its ``keras.Input``'s dtype
    and rank."""
    struct = getattr(model, "_inputs_struct", None)
    if isinstance(inputs, dict) and isinstance(struct, dict) and all(k in inputs for k in struct):
        given = flatten({k: inputs[k] for k in struct})  # (Keras 3: a dict of inputs by its keys)
    else:
        given = flatten(inputs) if not isinstance(inputs, dict) else [
            inputs[t.name] if t.name in inputs else None for t in model.inputs]
    if isinstance(inputs, dict) and any(v is None for v in given):
        missing = [t.name for t, v in zip(model.inputs, given) if v is None]
        unknown = sorted(str(k) for k in inputs if k not in {t.name for t in model.inputs})
        raise ValueError(f"Missing data for input(s) {missing} of model {model.name!r}; the dict "
                         f"has keys {sorted(map(str, inputs))}"
                         + (f", of which {unknown} name no input" if unknown else "")
                         + f". Expected the following keys: {[t.name for t in model.inputs]}.")
    if len(given) != len(model.inputs):
        raise ValueError(f"Model {model.name!r} expects {len(model.inputs)} input(s), but it "
                         f"received {len(given)} input tensors.")
    values: dict[int, Any] = {}
    for t, v in zip(model.inputs, given):
        if t.sparse and type(v) is SparseTensor:  # (a keras.Input(sparse=True) keeps its SparseTensor)
            values[id(t)] = v if v.dtype.name == t.dtype else SparseTensor(v.indices, cast(v.values, t.dtype),
                                                                           v.dense_shape)
            continue
        v = convert_to_tensor(v.numpy() if isinstance(v, Variable) else v)
        if v.dtype.name != t.dtype and (v.dtype.is_floating or t.dtype.startswith("float")):
            v = cast(v, t.dtype)
        values[id(t)] = _adjust_rank(v, t, model.name)
    for node in model._run_order:
        if isinstance(node.layer, InputLayer):
            continue

        def value(x: Any) -> Any:
            return values[id(x)] if isinstance(x, KerasTensor) else x
        out = node.layer(*map_structure(value, node.args), **map_structure(value, node.kwargs))
        for t, v in zip(flatten(node.outputs), flatten(out)):
            values[id(t)] = v
    return map_structure(lambda t: values[id(t)], model._outputs_struct)


class Function(Operation):
    """``keras.Function``: the graph of KerasTensors from ``inputs`` to ``outputs`` as a callable
    (a functional model without layers' weights or training): called on tensors it replays the
    graph's operations, on KerasTensors it records one node.

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> x = keras.Input((2,))
    >>> f = keras.Function(x, keras.ops.sum(x * 3.0, axis=-1))
    >>> f(np.array([[1.0, 2.0]], "float32")).numpy()
    array([9.], dtype=float32)
    """

    def __init__(self, inputs: Any, outputs: Any, name: str | None = None) -> None:
        super().__init__(name=name)
        for what, v in (("inputs", inputs), ("outputs", outputs)):
            bad = [t for t in flatten(v) if not isinstance(t, KerasTensor)]
            if bad:
                raise ValueError(f"All `{what}` of a keras.Function must be KerasTensors; received {bad[0]!r}.")
        self._inputs_struct = map_structure(lambda t: t, inputs)
        self._outputs_struct = map_structure(lambda t: t, outputs)
        self._inputs, self._outputs = flatten(inputs), flatten(outputs)
        self._run_order = _nodes_by_depth(self._inputs, self._outputs)
        self._operations = _layers_by_depth(self._inputs, self._outputs)

    @property
    def operations(self) -> list:
        """The operations of the graph (its ``InputLayer`` s first), in Keras's order."""
        return self._operations[:]

    @property
    def inputs(self) -> list:
        """The flat list of the graph's input KerasTensors."""
        return self._inputs

    @property
    def outputs(self) -> list:
        """The flat list of the graph's output KerasTensors."""
        return self._outputs

    def call(self, inputs: Any) -> Any:
        return run_graph(self, inputs)

    def compute_output_shape(self, input_shape: Any) -> Any:
        if len(self._inputs) == 1:
            shapes = [input_shape]
        else:
            shapes = list(input_shape.values()) if isinstance(input_shape, dict) else list(input_shape)
        specs = [KerasTensor(tuple(s), dtype=t.dtype) for s, t in zip(shapes, self._inputs)]
        return map_structure(lambda t: t.shape, self.compute_output_spec(specs[0] if len(specs) == 1 else specs))
