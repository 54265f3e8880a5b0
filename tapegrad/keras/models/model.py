"""``keras.Model``: a layer with a training loop (it inherits :class:`~tapegrad.keras.trainers.trainer.Trainer`),
subclassed or functional (``keras.Model(inputs, outputs)``), with its layers, summary, weights
on disk and config.

A functional model replays the nodes recorded when layers were called on ``keras.Input``
tensors, in the order they were recorded (:mod:`tapegrad.keras.models.functional`).
"""
from __future__ import annotations

import os
from typing import Any, Callable


from ...distribute import _strategy as _distribute
from ...saving import _write_atomically, load_variables, save_variables
from .. import backend
from .._distributed import StrategyRef
from .._keras_tensor import KerasTensor, shapes_to_specs
from .._summary import print_summary
from .._tree import flatten
from ..layers.layer import Layer
from ..trainers.trainer import Trainer
from .functional import _layers_by_depth, _nodes_between, _nodes_by_depth, _shapes_of, run_graph

__all__ = ["Model"]


class Model(Trainer, Layer):
    """A layer with a training loop: subclass it, or build it from ``keras.Input`` tensors.

    Functional: ``keras.Model(inputs, outputs)`` with the tensors of layers called on
    ``keras.Input``; several inputs and outputs and shared layers are fine. Subclassed: create
    layers in ``__init__`` and use them in ``call(inputs, training=None)``.

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> inputs = keras.Input((2,))
    >>> hidden = keras.layers.Dense(4, activation="relu")(inputs)
    >>> model = keras.Model(inputs, keras.layers.Dense(1)(hidden))
    >>> model.compile(optimizer=keras.optimizers.SGD(0.1), loss=lambda y, p: (y - p) ** 2)
    >>> x = np.random.rand(16, 2).astype("float32")
    >>> history = model.fit(x, x.sum(1, keepdims=True), epochs=2, verbose=0)
    >>> list(history.history), len(history.history["loss"])
    (['loss'], 2)
    """

    _string_inputs = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if args or "inputs" in kwargs or "outputs" in kwargs:
            inputs = args[0] if args else kwargs.pop("inputs")
            outputs = args[1] if len(args) > 1 else kwargs.pop("outputs")
            self._init_functional(inputs, outputs, **kwargs)
        else:
            super().__init__(**kwargs)
            self._functional = False
        self.optimizer: Any = None
        self.stop_training = False
        self.history: Any = None
        self.compiled = False
        # Keras: a model created under strategy.scope() trains on that strategy
        self._strategy_ref = StrategyRef(_distribute.get_strategy() if _distribute.has_strategy() else None)

    def _init_functional(self, inputs: Any, outputs: Any, name: str | None = None,
                         trainable: bool = True, **kwargs: Any) -> None:
        if name is None:
            name = backend.unique_name("functional")
        super().__init__(name=name, trainable=trainable, **kwargs)
        for what, v in (("inputs", inputs), ("outputs", outputs)):
            bad = [t for t in flatten(v) if not isinstance(t, KerasTensor)]
            if bad:
                raise ValueError(f"All `{what}` of a functional model must be KerasTensors (from "
                                 f"keras.Input and layers called on them); received {bad[0]!r}.")
        self._functional = True
        self._inputs_struct, self._outputs_struct = inputs, outputs
        self.inputs, self.outputs = flatten(inputs), flatten(outputs)
        self._nodes = _nodes_between(self.inputs, self.outputs)
        self._run_order = _nodes_by_depth(self.inputs, self.outputs)
        self._operations_list = _layers_by_depth(self.inputs, self.outputs)
        self._layers_list = [op for op in self._operations_list if isinstance(op, Layer)]
        self.built = True

    # -- structure --------------------------------------------------------------------------------

    @property
    def input(self) -> Any:
        """A functional model's inputs as given to ``keras.Model`` (a tensor, list or dict)."""
        if self.__dict__.get("_functional"):
            return self._inputs_struct
        return super().input

    @property
    def output(self) -> Any:
        """A functional model's outputs as given to ``keras.Model``."""
        if self.__dict__.get("_functional"):
            return self._outputs_struct
        return super().output

    @property
    def input_shape(self) -> Any:
        """The shape of the input (a list of shapes for several), batch axis ``None``."""
        return _shapes_of(self._graph_ends("inputs"))

    @property
    def output_shape(self) -> Any:
        """The shape of the output (a list of shapes for several)."""
        return _shapes_of(self._graph_ends("outputs"))

    def _graph_ends(self, what: str) -> list:
        if not self.__dict__.get("_functional"):
            raise AttributeError(f"Model {self.name!r} ({type(self).__name__}) has no {what}: only "
                                 "a functional or Sequential model has a symbolic graph.")
        return self.__dict__[what]

    @property
    def layers(self) -> list:
        """The model's layers (for a functional model, its InputLayers first; a ``keras.ops``
        call on KerasTensors, ``x + y``, is an operation, not a layer: see :attr:`operations`)."""
        if self.__dict__.get("_functional"):
            return list(self._layers_list)
        return list(self._sublayers())

    @property
    def operations(self) -> list:
        """A functional model's layers and ``keras.ops`` operations, in Keras's order."""
        if self.__dict__.get("_functional"):
            return list(self._operations_list)
        return self.layers

    def get_layer(self, name: str | None = None, index: int | None = None) -> Layer:
        """A layer by name or by index in :attr:`layers`."""
        if index is not None:
            if len(self.layers) <= index:
                raise ValueError(f"Was asked to retrieve layer at index {index} but model only has "
                                 f"{len(self.layers)} layers.")
            return self.layers[index]
        for layer in self.layers:
            if layer.name == name:
                return layer
        raise ValueError(f"No such layer: {name}. Existing layers are: {[l.name for l in self.layers]}.")

    def call(self, inputs: Any, training: Any = None, mask: Any = None) -> Any:
        if not self.__dict__.get("_functional"):
            raise NotImplementedError(f"Model {type(self).__name__} has no `call()`: subclass "
                                      "keras.Model and define call(self, inputs, training=None), or "
                                      "build a functional model with keras.Model(inputs, outputs).")
        out = run_graph(self, inputs)  # (Keras 3: one output given as [t] comes back as t)
        return out[0] if isinstance(out, (list, tuple)) and len(out) == 1 else out

    def compute_output_spec(self, *args: Any, **kwargs: Any) -> Any:
        out = super().compute_output_spec(*args, **kwargs)
        struct = self._outputs_struct if self.__dict__.get("_functional") else None
        if isinstance(struct, (list, tuple)) and len(struct) == 1 and not isinstance(out, (list, tuple)):
            return type(struct)([out])  # (Keras 3: a symbolic call keeps the outputs' structure)
        return out

    def build(self, input_shape: Any = None) -> None:
        """Create the weights by running ``call`` on zeros of ``input_shape`` (a subclassed model)."""
        was_built, self.built = self.built, True
        if input_shape is not None and not was_built and not self.__dict__.get("_functional"):
            self.__dict__["_build_input_shape"] = input_shape
            self.compute_output_spec(shapes_to_specs(input_shape))
    build._default_build = True  # (a subclassed model is built by tracing as a layer: Keras's default build)

    # -- summary ----------------------------------------------------------------------------------

    def summary(self, line_length: int | None = None, positions: Any = None,
                print_fn: Callable | None = None, expand_nested: bool = False,
                show_trainable: bool = False, layer_range: Any = None) -> None:
        """Print the model's layers as Keras 3 does: a table of each layer's name and type, output
        shape and parameter count (and, for a functional model with branches, the layers each
        is connected to), then the totals (with the optimizer's, once it is built).

        Args:
          line_length: the table's width (default 88, or 108 with "Connected to", at most the
            terminal's width less 4).
          positions: where each column ends, as fractions of ``line_length``.
          print_fn: called once with the whole text (default: printed to stdout).
          expand_nested: also list the layers of nested models.
          show_trainable: add a column saying whether each layer is trainable.
          layer_range: two regular expressions: the first and the last layer to list.

        >>> from tapegrad import keras
        >>> model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(2, name="dense")],
        ...                          name="tiny")
        >>> model.summary(line_length=50)
        Model: "tiny"
        ┏━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━┳━━━━━━━━━┓
        ┃ Layer (type)        ┃ Output Shape   ┃ Param # ┃
        ┡━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━╇━━━━━━━━━┩
        │ dense (Dense)       │ (None, 2)      │      10 │
        └─────────────────────┴────────────────┴─────────┘
         Total params: 10 (40.00 B)
         Trainable params: 10 (40.00 B)
         Non-trainable params: 0 (0.00 B)
        """
        print_summary(self, line_length=line_length, positions=positions, print_fn=print_fn,
                      expand_nested=expand_nested, show_trainable=show_trainable,
                      layer_range=layer_range)

    # -- weights on disk --------------------------------------------------------------------------

    def _weights_by_key(self) -> dict:
        return {f"{i:04d}_{v.name.split(':')[0]}": v for i, v in enumerate(self.weights)}

    def save_weights(self, filepath: Any, overwrite: bool = True) -> None:
        """Write the weights to ``filepath``: Keras's HDF5 weights file for a ``.weights.h5`` path
        (with the optimizer's variables, as Keras; needs h5py: ``pip install 'tapegrad[h5]'``), tapegrad's checkpoint format
        (an ``.npz`` zip of ``.npy`` arrays, ``tapegrad.saving``) for any other path but ``.h5``."""
        path = os.fspath(filepath)
        if not overwrite and os.path.exists(path):
            raise FileExistsError(f"{path!r} exists and overwrite=False.")
        from .. import _h5
        if path.endswith(".weights.h5"):
            _h5.atomic_h5(path, lambda tmp: _h5.write_weights(self, tmp))
            return
        if _h5.is_h5(path):
            raise ValueError("The filename must end in `.weights.h5`. Received: filepath=" + path)
        if path.endswith(".npz"):
            save_variables(path, self._weights_by_key())
        else:  # (under its own name, atomically: two threads saving at once leave one whole file)
            _write_atomically(path, lambda f: save_variables(f, self._weights_by_key()))

    def load_weights(self, filepath: Any, skip_mismatch: bool = False, by_name: bool = False) -> None:
        """Read weights written by :meth:`save_weights` (same layers, same order), or by Keras: a
        ``.weights.h5`` file, or a legacy ``.h5`` model or weights file (layers matched by order, or
        by name with ``by_name=True``); or the weights of a ``.keras`` archive (``model.save``)."""
        path = os.fspath(filepath)
        if path.endswith(".keras"):  # (a whole-model archive: its weights, as Keras reads them)
            from ..saving import load_weights_from_archive
            load_weights_from_archive(self, path, skip_mismatch=skip_mismatch)
            return
        from .. import _h5
        if _h5.is_h5(path):
            if not os.path.exists(path):
                raise FileNotFoundError(f"No such file: {path!r}")
            if _h5.looks_like_legacy(path):
                with _h5.h5py().File(path, "r") as f:
                    _h5.set_legacy_weights(f["model_weights"] if "model_weights" in f else f, self,
                                           skip_mismatch=skip_mismatch, by_name=by_name)
            else:
                _h5.read_weights(self, path, skip_mismatch=skip_mismatch, what=repr(path))
            return
        load_variables(path, self._weights_by_key(), strict=not skip_mismatch)

    def get_config(self) -> dict:
        """The config that remakes this model: a functional model's layers and how they connect
        (Keras 3's layout), a subclassed model's constructor arguments (override it)."""
        if self.__dict__.get("_functional"):
            from ..saving import functional_config
            return functional_config(self)
        return Layer.get_config(self)

    @classmethod
    def from_config(cls, config: dict, custom_objects: dict | None = None) -> "Model":
        """The model ``config`` describes (a functional config rebuilds the graph)."""
        if "layers" in config and "input_layers" in config:
            from ..saving import functional_from_config
            return functional_from_config(cls, config, custom_objects)
        try:
            return cls(**config)
        except TypeError as e:
            raise TypeError(f"Unable to revive model from config. When overriding the `get_config()` "
                            "method, make sure that the returned config contains all items used as "
                            f"arguments in the constructor to {cls}, which is the default behavior. "
                            "You can override this default behavior by defining a "
                            "`from_config(cls, config)` class method to specify how to create an "
                            f"instance of {cls.__name__} from its config.\n\nReceived config={config}"
                            f"\n\nError encountered during deserialization: {e}") from e

    def quantize(self, mode: str | None = None, config: Any = None, filters: Any = None, **kwargs: Any) -> None:
        """Quantize the weights of every layer that can be (Dense, EinsumDense, Embedding) in
        ``mode`` (``"int8"``, ``"int4"``, ``"float8"``) or as ``config`` (a
        ``keras.quantizers.QuantizationConfig``) says; ``filters`` (a regex on layer names, a list
        of them, or a callable taking the layer) picks the layers. The model must be built; a
        layer that cannot be quantized is left alone with a warning.

        >>> import numpy as np
        >>> from tapegrad import keras
        >>> model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
        >>> model.quantize("int8")
        >>> model.layers[0].dtype_policy.name, model.layers[0].kernel.dtype.name
        ('int8_from_float32', 'int8')
        """
        import re
        import warnings
        type_check = kwargs.pop("type_check", True)
        if kwargs:
            name = "Functional" if self.__dict__.get("_functional") and type(self) is Model else type(self).__name__
            raise ValueError(f"Unrecognized keyword arguments passed to {name}: {kwargs}")
        if filters is not None and not isinstance(filters, (str, list, tuple)) and not callable(filters):
            raise ValueError("The `filters` argument must be a regex string, a list of regex strings, or a "
                             f"callable. Received: {type(filters)}")
        if mode in ("gptq", "awq"):
            raise NotImplementedError(f"quantize(mode={mode!r}) calibrates on data (GPTQ/AWQ), which tapegrad "
                                      "does not implement (docs/differences.md); use 'int8' or 'int4'.")

        def chosen(layer: Any) -> bool:
            if filters is None:
                return True
            if isinstance(filters, str):
                return bool(re.search(filters, layer.name))
            if isinstance(filters, (list, tuple)):
                return any(re.search(f, layer.name) for f in filters)
            return bool(filters(layer))

        modified = False
        for layer in self._flatten_layers():
            if not chosen(layer) or len(layer._flatten_layers()) != 1:
                continue
            try:
                layer.quantize(mode, type_check=type_check, config=config)
                modified = True
            except NotImplementedError as e:
                warnings.warn(str(e), stacklevel=2)
            except AttributeError:
                pass
        if modified:
            self.__dict__.pop("_step_functions", None)

    def save(self, filepath: Any, overwrite: bool = True, zipped: bool | None = None,
             **kwargs: Any) -> None:
        """Write the whole model (config, weights, compile state, optimizer variables) to a
        ``.keras`` file; ``keras.models.load_model`` reads it back."""
        from ..saving import save_model
        save_model(self, filepath, overwrite=overwrite, zipped=zipped, **kwargs)

    def export(self, filepath: Any, format: str = "tf_saved_model", verbose: bool = True,
               input_signature: Any = None, **kwargs: Any) -> None:
        """Export the model for inference as a SavedModel whose endpoint ``serve`` calls it
        (``keras.export``), or with ``format="litert"`` as a ``.tflite`` file that
        ``tf.lite.Interpreter`` runs (tapegrad's own content, see ``tf.lite``); ONNX and OpenVINO
        are not available in tapegrad."""
        if format == "litert":
            from ...lite import export_litert
            export_litert(self, filepath, input_signature=input_signature, verbose=verbose, **kwargs)
            return
        if format != "tf_saved_model":
            raise ValueError(f"Unrecognized format={format!r}: tapegrad exports format='tf_saved_model' "
                             "or 'litert' (ONNX and OpenVINO need their own toolchains).")
        from ..export import export_saved_model
        export_saved_model(self, filepath, verbose=verbose, input_signature=input_signature, **kwargs)

    def to_json(self, **kwargs: Any) -> str:
        """The model's architecture as a JSON string (``keras.models.model_from_json``)."""
        import json
        from ..saving import serialize_keras_object
        return json.dumps(serialize_keras_object(self), **kwargs)
