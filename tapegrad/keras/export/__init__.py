"""``keras.export``: ``ExportArchive`` (a SavedModel of chosen endpoints), ``model.export`` and
``keras.layers.TFSMLayer`` (a SavedModel's endpoint as a layer), on :mod:`tapegrad.saved_model`.

>>> import tempfile, tapegrad as tf
>>> keras = tf.keras
>>> model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, kernel_initializer="ones")])
>>> d = tempfile.mkdtemp()
>>> model.export(d, verbose=False)
>>> layer = keras.layers.TFSMLayer(d, call_endpoint="serve")
>>> layer(tf.constant([[1.0, 2.0]])).numpy()
array([[3.]], dtype=float32)
"""
from __future__ import annotations

from typing import Any, Callable

from .._engine import _function, _nest
from ... import saved_model
from .._engine import TensorSpec
from ...module import Module
from ..layers.layer import Layer
from ..models.model import Model

__all__ = ["ExportArchive", "TFSMLayer", "export_saved_model"]

DEFAULT_ENDPOINT_NAME = "serve"


class _Root:
    """The object an archive saves: its endpoints and tracked variables as attributes."""

    def __init__(self) -> None:
        self.variables: list = []
        self.trainable_variables: list = []
        self.non_trainable_variables: list = []


class ExportArchive:
    """A SavedModel made of chosen endpoints (Keras's ``keras.export.ExportArchive``).

    ``track`` the layers (or ``tf.Module``\\ s) whose variables the endpoints use, ``add_endpoint``
    each function with its input signature, then ``write_out``. Every endpoint is also a signature;
    ``serving_default`` is the endpoint of that name, or the first one.

    >>> import tempfile, tapegrad as tf
    >>> keras = tf.keras
    >>> model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, kernel_initializer="ones")])
    >>> archive = keras.export.ExportArchive()
    >>> archive.track(model)
    >>> _ = archive.add_endpoint("serve", model.call, input_signature=[tf.TensorSpec((None, 2), tf.float32)])
    >>> d = tempfile.mkdtemp()
    >>> archive.write_out(d, verbose=False)
    >>> tf.saved_model.load(d).serve(tf.constant([[1.0, 1.0]])).numpy()
    array([[2.]], dtype=float32)
    """

    def __init__(self) -> None:
        self._root = _Root()
        self._endpoint_names: list = []
        self._tracked: list = []

    @property
    def variables(self) -> list:
        return list(self._root.variables)

    @property
    def trainable_variables(self) -> list:
        return list(self._root.trainable_variables)

    @property
    def non_trainable_variables(self) -> list:
        return list(self._root.non_trainable_variables)

    def track(self, resource: Any) -> None:
        """Track a built Keras layer or model (its variables), or a ``tf.Module``."""
        if isinstance(resource, Layer):
            if not resource.built:
                raise ValueError("The layer provided has not yet been built. It must be built before export.")
        elif not isinstance(resource, Module):
            raise ValueError(f"Invalid resource type. Expected a Keras `Layer` or `Model` or a TensorFlow "
                             f"`Trackable` object. Received object {resource} of type '{type(resource)}'. ")
        self._tracked.append(resource)
        known = {id(v) for v in self._root.variables}
        for v in resource.variables:
            if id(v) not in known:
                known.add(id(v))
                self._root.variables.append(v)
                (self._root.trainable_variables if v.trainable else self._root.non_trainable_variables).append(v)
        self._root._tracked = list(self._tracked)  # (its tf.functions and submodules are saved too)

    def add_endpoint(self, name: str, fn: Callable | None = None, input_signature: Any = None,
                     **kwargs: Any) -> Any:
        """Add ``fn`` as the endpoint ``name``: traced for ``input_signature`` (a list of
        ``tf.TensorSpec``), or a ``tf.function`` already called (its traces)."""
        if name in self._endpoint_names:
            raise ValueError(f"Endpoint name '{name}' is already taken.")
        if not isinstance(name, str) or not name.isidentifier():
            raise ValueError(f"The endpoint name must be a Python identifier; got {name!r}.")
        if fn is None:
            raise ValueError("add_endpoint needs fn, the function to export.")
        if input_signature:
            specs = _nest.map_structure(_as_spec, list(input_signature))
            decorated = _function.function(getattr(fn, "python_function", fn), input_signature=specs)
        elif isinstance(fn, _function.Function):
            if fn.input_signature is None and not any(e.programs for e in fn._cache.values()):
                raise ValueError(f"The provided tf.function '{fn}' has never been called. To specify the "
                                 "expected shape and dtype of the function's arguments, you must either "
                                 "provide a function that has been called at least once, or alternatively "
                                 "pass an `input_signature` argument in `add_endpoint()`.")
            decorated = fn
        else:
            raise ValueError("If the `fn` argument provided is not a `tf.function`, you must provide an "
                             "`input_signature` argument to specify the shape and dtype of the function "
                             "arguments. Example: export_archive.add_endpoint(name='call', fn=model.call, "
                             "input_signature=[tf.TensorSpec(shape=(None, 224, 224, 3), dtype=tf.float32)])")
        setattr(self._root, name, decorated)
        self._endpoint_names.append(name)
        return decorated

    def track_and_add_endpoint(self, name: str, resource: Any, input_signature: Any = None,
                               **kwargs: Any) -> Any:
        """``track(resource)``, then ``add_endpoint(name, ...)`` calling it (inference mode)."""
        self.track(resource)

        def call(inputs: Any) -> Any:
            return resource(inputs, training=False) if isinstance(resource, Layer) else resource(inputs)
        call.__name__ = name
        return self.add_endpoint(name, call, input_signature, **kwargs)

    def add_variable_collection(self, name: str, variables: Any) -> None:
        """Save ``variables`` (a list of Variables) as the attribute ``name``."""
        variables = list(variables)
        if not all(hasattr(v, "assign") for v in variables):
            raise ValueError(f"Expected all elements in `variables` to be `tf.Variable` instances. Found "
                             f"instead the following types: {sorted({type(v).__name__ for v in variables})}")
        setattr(self._root, name, variables)

    def _signature(self, name: str) -> Any:
        fn = getattr(self._root, name)
        if fn.input_signature is not None:
            return fn
        prog = next(e.programs[0] for e in fn._cache.values() if e.programs)
        a, kw = prog.inputs
        return _function.ConcreteFunction(fn, (tuple(a), kw), None)

    def write_out(self, filepath: str, options: Any = None, verbose: bool = True) -> None:
        """Write the SavedModel to the folder ``filepath``; the Variables the endpoints use are
        saved with them, tracked or not (as Keras does)."""
        if not self._endpoint_names:
            raise ValueError("No endpoints have been set yet. Call add_endpoint().")
        tracked = {id(v) for v in self._root.variables}
        self._root._misc_variables = [v for name in self._endpoint_names
                                      for v in saved_model.variables_used(getattr(self._root, name))
                                      if id(v) not in tracked]
        signatures = {name: self._signature(name) for name in self._endpoint_names}
        if "serving_default" not in signatures:
            signatures["serving_default"] = self._signature(self._endpoint_names[0])
        saved_model.save(self._root, filepath, signatures=signatures, options=options)
        if verbose:
            lines = []
            for name in self._endpoint_names:
                sig = getattr(self._root, name).input_signature
                lines.append(f"* Endpoint '{name}'\n  Args:\n    " + "\n    ".join(
                    repr(s) for s in _nest.flatten(list(sig or [])) if isinstance(s, TensorSpec)))
            print(f"Saved artifact at '{filepath}'. The following endpoints are available:\n\n" + "\n\n".join(lines))


def _as_spec(x: Any) -> Any:
    if isinstance(x, TensorSpec):
        return x
    shape, dtype = getattr(x, "shape", None), getattr(x, "dtype", None)
    if dtype is None:
        raise ValueError(f"Each input_signature entry must be a tf.TensorSpec (or an InputSpec or KerasTensor "
                         f"with a shape and dtype); got {x!r}.")
    return TensorSpec(shape, dtype, getattr(x, "name", None))


def _input_signature(model: Any) -> list:
    """Keras's ``get_input_signature``: a functional model's input structure (one argument), a
    Sequential model's inputs, or the shapes a subclassed model was built with; the batch
    dimension is always None, so the export serves batches of any size."""
    if not isinstance(model, Model):
        raise TypeError(f"The model provided should be an instance of keras.Model, but got {type(model).__name__}.")
    if not model.built:
        raise ValueError("The model provided has not yet been built. It must be built before export.")
    if model.__dict__.get("_functional"):
        return [_nest.map_structure(_batchless_spec, model._inputs_struct)]
    try:
        inputs = model.inputs   # (a Sequential model's one input)
    except AttributeError:
        inputs = None
    if inputs:
        return [_batchless_spec(x) for x in inputs]
    shapes = model.__dict__.get("_build_shapes_dict") or {}
    shapes = list(shapes.values()) or [model.__dict__.get("_build_input_shape")]
    if shapes[0] is None:
        raise ValueError("The model provided has never been called. It must be called at least once "
                         "(or built with build(input_shape)) before export; or pass input_signature=.")
    dtype = getattr(model, "input_dtype", None) or "float32"
    return [_spec_from_shapes(s, dtype) for s in shapes]


def _batchless_spec(x: Any) -> TensorSpec:
    shape = tuple(x.shape)
    return TensorSpec((None,) + shape[1:] if shape else shape, x.dtype, getattr(x, "name", None))


def _spec_from_shapes(shapes: Any, dtype: Any) -> Any:
    """A recorded build shape (or a dict/list/tuple of them) as TensorSpecs with batch None."""
    if isinstance(shapes, dict):
        return {k: _spec_from_shapes(v, dtype) for k, v in shapes.items()}
    if isinstance(shapes, (list, tuple)) and all(d is None or isinstance(d, int) for d in shapes):
        return TensorSpec((None,) + tuple(shapes)[1:] if shapes else (), dtype)
    if isinstance(shapes, (list, tuple)):
        return type(shapes)(_spec_from_shapes(s, dtype) for s in shapes)
    raise ValueError(f"Unsupported build shape {shapes!r} for an input signature; pass input_signature=.")


def export_saved_model(model: Any, filepath: str, verbose: bool | None = None, input_signature: Any = None,
                       **kwargs: Any) -> None:
    """Keras's ``model.export(filepath, format="tf_saved_model")``: an archive whose endpoint
    ``serve`` calls the model (inference) on ``input_signature`` (by default the model's inputs)."""
    sig = list(input_signature) if input_signature is not None else _input_signature(model)
    archive = ExportArchive()
    archive.track_and_add_endpoint(DEFAULT_ENDPOINT_NAME, model, sig, **kwargs)
    archive.write_out(filepath, verbose=True if verbose is None else verbose)


class TFSMLayer(Layer):
    """A SavedModel's endpoint as a Keras layer (Keras's ``keras.layers.TFSMLayer``), for
    inference: ``call_endpoint`` names a restored function or signature; the layer's weights are
    the SavedModel's ``trainable_variables`` and ``non_trainable_variables`` when it has them."""

    def __init__(self, filepath: str, call_endpoint: str = "serve", call_training_endpoint: str | None = None,
                 trainable: bool = True, name: str | None = None, dtype: Any = None) -> None:
        super().__init__(trainable=trainable, name=name, dtype=dtype)
        self.filepath = filepath
        self.call_endpoint = call_endpoint
        self.call_training_endpoint = call_training_endpoint
        self._reloaded = saved_model.load(filepath)
        self._call_fn = self._endpoint(call_endpoint)
        self._training_fn = None if call_training_endpoint is None else self._endpoint(call_training_endpoint)
        for v in list(getattr(self._reloaded, "trainable_variables", [])) + \
                list(getattr(self._reloaded, "non_trainable_variables", [])):
            if all(v is not w for w in self._own_weights):
                self._own_weights.append(v)
        self.built = True

    def _endpoint(self, name: str) -> Any:
        fn = getattr(self._reloaded, name, None)
        if fn is not None and callable(fn):
            return fn
        sigs = getattr(self._reloaded, "signatures", {})
        if name in sigs:
            return sigs[name]
        raise ValueError(f"The endpoint '{name}' is neither an attribute of reloaded SavedModel, nor an "
                         f"entry in the `signatures` field of the reloaded SavedModel. Select another "
                         f"endpoint via the `call_endpoint` argument. Available endpoints for this "
                         f"SavedModel: {sorted(k for k, v in vars(self._reloaded).items() if callable(v))}")

    def call(self, inputs: Any, training: bool = False, **kwargs: Any) -> Any:
        fn = self._training_fn if training and self._training_fn is not None else self._call_fn
        return fn(inputs, **kwargs)

    def get_config(self) -> dict:
        config = super().get_config()
        config.update({"filepath": self.filepath, "call_endpoint": self.call_endpoint,
                       "call_training_endpoint": self.call_training_endpoint})
        return config
