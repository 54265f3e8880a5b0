"""``keras.Sequential``: a stack of layers, each feeding the next."""
from __future__ import annotations

from typing import Any

import numpy as np

from .._engine import convert_to_tensor
from .._engine import Tensor
from ...ops.math import cast
from .. import backend
from .._keras_tensor import KerasTensor
from .._tree import flatten
from .._variables import name_scope
from ..layers.input_layer import InputLayer
from ..layers.layer import Layer
from .functional import _adjust_rank
from .model import Model

__all__ = ["Sequential"]


class Sequential(Model):
    """A stack of layers, each feeding the next.

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> keras.backend.clear_session()  # layer names count from "dense" again
    >>> model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4), keras.layers.Dense(1)])
    >>> [layer.name for layer in model.layers][-1:], model.count_params()
    (['dense_1'], 21)
    >>> model.predict(np.zeros((5, 3)), verbose=0).shape
    (5, 1)
    """

    def __init__(self, layers: Any = None, trainable: bool = True, name: str | None = None) -> None:
        super().__init__(trainable=trainable, name=name or backend.unique_name("sequential"))
        self._stack: list = []
        self._input: InputLayer | None = None
        self._output_shapes: dict = {}
        self._outputs: list | None = None  # the symbolic output, once built
        for layer in layers or []:
            self.add(layer, rebuild=False)
        self._maybe_rebuild()

    def add(self, layer: Any, rebuild: bool = True) -> None:
        """Append a layer (or a ``keras.Input``, first)."""
        if isinstance(layer, KerasTensor) and isinstance(layer._node.layer, InputLayer):
            layer = layer._node.layer
        if isinstance(layer, InputLayer):
            if self._stack or self._input is not None:
                raise ValueError("Sequential model: an Input or InputLayer can only be the first layer.")
            self._input = layer
        elif isinstance(layer, Layer):
            if self._input is None and not self._stack:
                shape = layer._batch_input_shape
                if shape is None and layer.__dict__.get("_functional") and len(layer.inputs) == 1:
                    shape = layer.inputs[0].shape
                if shape is not None:
                    self._input = InputLayer(batch_shape=shape, dtype=layer.compute_dtype)
            self._stack.append(layer)   # (a layer may come more than once: its weights are shared, as in Keras)
        else:
            raise ValueError("Only instances of `keras.Layer` can be added to a Sequential model. "
                             f"Received: {layer!r} (of type {type(layer).__name__})")
        if rebuild:
            self._maybe_rebuild()

    def pop(self, rebuild: bool = True) -> Layer:
        """Remove and return the last layer."""
        if not self._stack:
            raise TypeError("There are no layers in the model.")
        layer = self._stack.pop()
        self.built, self._outputs = False, None
        if rebuild:
            self._maybe_rebuild()
        return layer

    def _maybe_rebuild(self) -> None:
        if self._input is not None and self._stack:
            self.build(self._input.batch_shape)

    @property
    def layers(self) -> list:
        return list(self._stack)

    @property
    def inputs(self) -> list:
        """The symbolic input (a one-element list), once the model knows its input shape."""
        self._require_graph("inputs")
        return [self._input.output]

    @property
    def outputs(self) -> list:
        """The symbolic output of the last layer (a one-element list), once built."""
        self._require_graph("outputs")
        return list(self._outputs)

    def _require_graph(self, what: str) -> None:
        if self._outputs is None:
            raise AttributeError(f"Sequential model '{self.name}' has no defined {what} yet: start "
                                 "it with keras.Input(shape) (or give its first layer "
                                 "`input_shape`), call `build(input_shape)`, or call it on data.")

    def _graph_ends(self, what: str) -> list:
        return getattr(self, what)

    def _sublayers(self) -> Any:
        return iter(self._stack)

    def build(self, input_shape: Any = None) -> None:
        """Build the symbolic graph: the layers called in turn on an ``Input`` of
        ``input_shape`` (made here unless the model starts with one). As in Keras, a shape
        that is not one tensor's (``None``, a list of shapes) builds nothing."""
        try:
            input_shape = tuple(input_shape.as_list() if hasattr(input_shape, "as_list") else input_shape)
        except TypeError:
            return
        if not all(d is None or isinstance(d, (int, np.integer)) and d >= 0 for d in input_shape):
            return
        input_shape = tuple(None if d is None else int(d) for d in input_shape)
        if not self._stack:
            raise ValueError(f"Sequential model {self.name} cannot be built because it has no "
                             "layers. Call `model.add(layer)`.")
        if self._input is None:
            self._input = InputLayer(batch_shape=input_shape, dtype=self._stack[0].compute_dtype)
        elif self._input.batch_shape != input_shape:
            raise ValueError(f"Sequential model '{self.name}' has already been configured to use "
                             f"input shape {self._input.batch_shape}. You cannot build it with "
                             f"input_shape {input_shape}")
        x = self._input.output
        shapes = {}
        with name_scope(self):
            for layer in self._stack:
                x = layer(x)
                shapes[id(layer)] = x.shape if isinstance(x, KerasTensor) else "?"
        self._output_shapes, self._outputs = shapes, flatten(x)
        self.built = True

    def call(self, inputs: Any, training: Any = None, mask: Any = None) -> Any:
        x = inputs
        if isinstance(x, dict):  # (Keras: "The structure of `inputs` doesn't match")
            want = f"its input {self._input.name!r}" if self._input is not None else "one input"
            raise ValueError(f"The structure of `inputs` doesn't match the expected structure: "
                             f"Sequential model {self.name!r} takes one tensor ({want}), not a dict; "
                             f"got a dict with keys {sorted(map(str, x))}. Pass the array itself, or "
                             "build a functional model whose keras.Input layers are named as the keys.")
        if self._input is not None:
            x = convert_to_tensor(x) if not isinstance(x, Tensor) else x
            if x.dtype.name != self._input.dtype and (x.dtype.is_floating or self._input.dtype.startswith("float")):
                x = cast(x, self._input.dtype)  # (Keras converts the input to its InputLayer's dtype: uint8 images too)
            if self._outputs is not None:
                x = _adjust_rank(x, self._input.output, self.name)
        for layer in self._stack:
            x = layer(x)
        return x

    def compute_output_spec(self, inputs: Any, training: Any = None, mask: Any = None) -> Any:
        # (as Keras: each layer's spec in turn, so unknown sizes stay symbolic: a stand-in value
        # for them could be smaller than a layer's window)
        if not self._stack or isinstance(inputs, dict):
            return super().compute_output_spec(inputs, training=training, mask=mask)
        x = inputs
        for layer in self._stack:
            x = layer.compute_output_spec(x)
        return x

    def _maybe_build(self, args: tuple, kwargs: dict) -> None:
        if not self.built:
            shape = tuple(args[0].shape) if hasattr(args[0], "shape") else None
            if shape is not None:  # Keras 3 keeps the batch size of the first data
                self.build(shape)
        self.built = True

    def get_config(self) -> dict:
        from ..saving import serialize_keras_object
        layers = ([self._input] if self._input is not None else []) + self._stack
        config = {"name": self.name, "trainable": self.trainable,
                  "layers": [serialize_keras_object(layer) for layer in layers]}
        if self._input is not None and self._outputs is not None:
            config["build_input_shape"] = list(self._input.batch_shape)
        return config

    @classmethod
    def from_config(cls, config: dict, custom_objects: dict | None = None) -> "Sequential":
        from ..saving import deserialize_keras_object
        model = cls(name=config.get("name"), trainable=config.get("trainable", True))
        for layer in config["layers"]:
            model.add(deserialize_keras_object(layer, custom_objects), rebuild=False)
        if model._input is None and config.get("build_input_shape") is not None:
            model.build(tuple(config["build_input_shape"]))
        model._maybe_rebuild()
        return model
