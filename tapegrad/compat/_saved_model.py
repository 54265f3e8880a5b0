"""``tf.compat.v1.saved_model``: TF1's SavedModel of a graph's signatures, and its loader.

``Builder.add_meta_graph_and_variables(sess, tags, signature_def_map)`` (and ``simple_save``)
makes each signature a function of the session graph's program: its inputs are the signature's
placeholders, its outputs the tensors the signature names, its steps those the outputs need
(:func:`tapegrad.compat._program.prune`); ``save`` writes them with the graph's variables as a
TF2 SavedModel, so ``tf.saved_model.load`` gives an object whose ``.signatures`` run them.
``load(sess, tags, export_dir)`` loads any SavedModel into the session's graph: a placeholder
for each signature input, named ``<signature>_<input>``, and the signature's outputs built on
them; it returns a :class:`MetaGraphDef` whose ``signature_def`` names those tensors, to feed and
fetch by name in ``sess.run``.
"""
from __future__ import annotations

import os
import types
from typing import Any

from .. import _function, _nest
from .. import saved_model as _sm
from .._spec import TensorSpec
from .._tensor import Tensor, TensorShape
from ..module import Module
from . import _graph, _program

SERVING, TRAINING = _sm.SERVING, _sm.TRAINING  # (tag_constants, signature_constants: TF2's constants)
PREDICT_METHOD_NAME, CLASSIFY_METHOD_NAME, REGRESS_METHOD_NAME = (
    _sm.PREDICT_METHOD_NAME, _sm.CLASSIFY_METHOD_NAME, _sm.REGRESS_METHOD_NAME)


class TensorInfo:
    """TF1's ``TensorInfo``: a graph tensor's ``name`` (``"x:0"``), ``dtype`` and ``tensor_shape``."""

    def __init__(self, name: str, dtype: Any, tensor_shape: TensorShape, tensor: Tensor | None = None) -> None:
        self.name, self.dtype, self.tensor_shape, self._tensor = name, dtype, tensor_shape, tensor

    def __repr__(self) -> str:
        return f"TensorInfo(name={self.name!r}, dtype={self.dtype.name}, tensor_shape={self.tensor_shape})"


class SignatureDef:
    """TF1's ``SignatureDef``: ``inputs`` and ``outputs`` (dicts of :class:`TensorInfo` by key)
    and ``method_name``."""

    def __init__(self, inputs: dict, outputs: dict, method_name: str = "") -> None:
        self.inputs, self.outputs, self.method_name = dict(inputs), dict(outputs), method_name

    def __repr__(self) -> str:
        return f"SignatureDef(inputs={self.inputs}, outputs={self.outputs}, method_name={self.method_name!r})"


class MetaGraphDef:
    """What TF1's loader returns: the loaded graph's ``signature_def`` (a dict of
    :class:`SignatureDef` by key) and its tags (``meta_info_def.tags``)."""

    def __init__(self, signature_def: dict, tags: list) -> None:
        self.signature_def = signature_def
        self.meta_info_def = types.SimpleNamespace(tags=list(tags))


def build_tensor_info(tensor: Tensor) -> TensorInfo:
    """The :class:`TensorInfo` of a tensor of the default graph (named in it if it had no name)."""
    g = _graph.get_default_graph()
    return TensorInfo(g._name_of_tensor(tensor), tensor.dtype, tensor.shape, tensor)


def build_signature_def(inputs: dict | None = None, outputs: dict | None = None,
                        method_name: str | None = None, defaults: Any = None) -> SignatureDef:
    """A :class:`SignatureDef` of ``inputs`` and ``outputs``: dicts of :class:`TensorInfo` by key."""
    return SignatureDef(inputs or {}, outputs or {}, method_name or "")


def predict_signature_def(inputs: dict, outputs: dict) -> SignatureDef:
    """A prediction :class:`SignatureDef` of graph tensors: ``inputs`` and ``outputs`` are dicts of
    tensors by key.

    >>> import tapegrad as tf
    >>> with tf.Graph().as_default():
    ...     x = tf.compat.v1.placeholder(tf.float32, shape=[], name="x")
    ...     sig = tf.compat.v1.saved_model.predict_signature_def({"x": x}, {"y": x + 2.0})
    >>> sig.inputs["x"].name, sig.method_name
    ('x:0', 'tensorflow/serving/predict')
    """
    if inputs is None or not inputs:
        raise ValueError("Prediction inputs cannot be None or empty.")
    if outputs is None or not outputs:
        raise ValueError("Prediction outputs cannot be None or empty.")
    return SignatureDef({k: build_tensor_info(t) for k, t in inputs.items()},
                        {k: build_tensor_info(t) for k, t in outputs.items()}, PREDICT_METHOD_NAME)


def _signature_function(sess: Any, key: str, sig: SignatureDef) -> Any:
    """``sig`` as a concrete function of the session graph's program (keyword inputs by key,
    a dict of outputs by key)."""
    g = sess.graph
    tr = g._tracer
    feeds = {}
    for k, info in sig.inputs.items():
        feed = _graph._feed_of(tr, info._tensor)
        if feed is None:
            raise ValueError(f"Signature {key!r}: input {k!r} ({info.name}) is not a placeholder of the session's "
                             "graph; tapegrad's TF1 signatures take placeholders as inputs.")
        feeds[k] = feed
    outs = [tr.slot_of(info._tensor) for info in sig.outputs.values()]
    steps = _program.prune(tr, set(outs), g._deps, {f: None for f in feeds.values()})

    def run(**kwargs: Any) -> dict:
        got = _program.execute(tr, steps, {feeds[k]: kwargs[k] for k in feeds}, outs)
        return dict(zip(sig.outputs, got))
    specs = {k: TensorSpec(f.shape, f.stand_in.dtype, k) for k, f in feeds.items()}
    return _function.function(run).get_concrete_function(**specs)


class _GraphRoot(Module):
    """The object a TF1 graph's SavedModel saves: the graph's variables."""

    def __init__(self, variables: list) -> None:
        super().__init__()
        self.graph_variables = list(variables)


class SavedModelBuilder:
    """TF1's ``tf.compat.v1.saved_model.Builder``: ``add_meta_graph_and_variables(sess, tags,
    signature_def_map)`` takes the session graph's signatures and variables, ``save()`` writes them
    to ``export_dir`` (which must not exist) as a SavedModel that ``tf.saved_model.load`` and
    ``tf.compat.v1.saved_model.load`` read.

    >>> import tempfile, os, tapegrad as tf
    >>> tf1 = tf.compat.v1
    >>> d = os.path.join(tempfile.mkdtemp(), "m")
    >>> with tf.Graph().as_default(), tf1.Session() as sess:
    ...     x = tf1.placeholder(tf.float32, shape=[])
    ...     b = tf1.saved_model.Builder(d)
    ...     b.add_meta_graph_and_variables(sess, ["serve"], signature_def_map={
    ...         "serving_default": tf1.saved_model.predict_signature_def({"x": x}, {"y": x * 3.0})})
    ...     path = b.save()
    >>> tf.saved_model.load(d).signatures["serving_default"](x=tf.constant(2.0))["y"].numpy()
    np.float32(6.0)

    Only one meta graph is saved: ``add_meta_graph`` (a second set of tags) raises NotImplementedError.
    """

    def __init__(self, export_dir: str) -> None:
        self._dir = os.fspath(export_dir)
        if os.path.exists(self._dir):
            if os.listdir(self._dir):
                raise AssertionError(f"Export directory already exists, and isn't empty. Please choose a "
                                     f"different export directory, or delete all the contents of the specified "
                                     f"directory: {self._dir}")
        self._root: _GraphRoot | None = None
        self._signatures: dict = {}

    def add_meta_graph_and_variables(self, sess: Any, tags: Any, signature_def_map: dict | None = None,
                                     assets_collection: Any = None, legacy_init_op: Any = None,
                                     clear_devices: bool = False, main_op: Any = None,
                                     strip_default_attrs: bool = False, saver: Any = None) -> None:
        """Take ``sess``'s graph's signatures (``signature_def_map``: :class:`SignatureDef` by key)
        and its global variables' values now."""
        if self._root is not None:
            raise AssertionError("Graph state including variables and assets has already been saved. Please "
                                 "invoke `add_meta_graph()` instead.")
        root = _GraphRoot(sess.graph.get_collection(_graph.GraphKeys.GLOBAL_VARIABLES))
        with _graph._Default(None):  # (traced as eager tf.functions, off the graph's recorder)
            self._signatures = {k: _signature_function(sess, k, s) for k, s in (signature_def_map or {}).items()}
        self._root = root

    def add_meta_graph(self, tags: Any, signature_def_map: dict | None = None, **kwargs: Any) -> None:
        raise NotImplementedError("tapegrad's SavedModelBuilder saves one meta graph "
                                  "(add_meta_graph_and_variables); save the other tags' graph to its own folder.")

    def save(self, as_text: bool = False) -> str:
        """Write the SavedModel; returns the path of its ``saved_model.pb``."""
        if self._root is None:
            raise AssertionError("add_meta_graph_and_variables() must be called before save().")
        with _graph._Default(None):
            _sm.save(self._root, self._dir, signatures=self._signatures)
        return os.path.join(self._dir, _sm.SAVED_MODEL_FILENAME_PB)


Builder = SavedModelBuilder


def simple_save(session: Any, export_dir: str, inputs: dict, outputs: dict, legacy_init_op: Any = None) -> None:
    """Save ``session``'s graph as a SavedModel of one prediction signature, ``"serving_default"``,
    of ``inputs`` and ``outputs`` (dicts of tensors by key), with the tag ``"serve"``."""
    b = SavedModelBuilder(export_dir)
    b.add_meta_graph_and_variables(session, [SERVING], signature_def_map={
        _sm.DEFAULT_SERVING_SIGNATURE_DEF_KEY: predict_signature_def(inputs, outputs)})
    b.save()


def load(sess: Any, tags: Any, export_dir: str, import_scope: str | None = None, **saver_kwargs: Any) -> MetaGraphDef:
    """Load the SavedModel in ``export_dir`` into ``sess``'s graph: each signature's inputs become
    placeholders named ``<signature>_<input>`` (``"serving_default_x:0"``) and its outputs tensors
    computed from them; returns the :class:`MetaGraphDef` naming them, to use in ``sess.run``.

    >>> import tempfile, tapegrad as tf
    >>> tf1 = tf.compat.v1
    >>> class M(tf.Module):
    ...     @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
    ...     def __call__(self, x):
    ...         return {"y": x + 1.0}
    >>> d = tempfile.mkdtemp()
    >>> tf.saved_model.save(M(), d)
    >>> with tf.Graph().as_default(), tf1.Session() as sess:
    ...     meta = tf1.saved_model.load(sess, ["serve"], d)
    ...     sig = meta.signature_def["serving_default"]
    ...     sess.run(sig.outputs["y"].name, feed_dict={sig.inputs["x"].name: 4.0})
    np.float32(5.0)
    """
    if not _sm.contains_saved_model(export_dir):
        raise OSError(f"SavedModel file does not exist at: {os.fspath(export_dir)}")
    with _graph._Default(None):
        loaded = _sm.load(export_dir)
    g = sess.graph
    defs = {}
    with _graph._Default(g):
        for key, fn in loaded.signatures.items():
            inputs = {}
            for spec in fn.structured_input_signature[1].values():
                p = _graph.placeholder(spec.dtype, spec.shape, name=f"{key}_{spec.name}")
                inputs[spec.name] = build_tensor_info(p)
            outs = fn(**{k: info._tensor for k, info in inputs.items()})
            outputs = {k: build_tensor_info(t) for k, t in sorted(outs.items())}
            defs[key] = SignatureDef(inputs, outputs, PREDICT_METHOD_NAME)
    return MetaGraphDef(defs, _nest.flatten(tags))


loader = types.SimpleNamespace(load=load, maybe_saved_model_directory=_sm.contains_saved_model)
tag_constants = types.SimpleNamespace(SERVING=SERVING, TRAINING=TRAINING, GPU="gpu", TPU="tpu")
signature_constants = types.SimpleNamespace(
    DEFAULT_SERVING_SIGNATURE_DEF_KEY=_sm.DEFAULT_SERVING_SIGNATURE_DEF_KEY, PREDICT_METHOD_NAME=PREDICT_METHOD_NAME,
    CLASSIFY_METHOD_NAME=CLASSIFY_METHOD_NAME, REGRESS_METHOD_NAME=REGRESS_METHOD_NAME,
    PREDICT_INPUTS="inputs", PREDICT_OUTPUTS="outputs")
