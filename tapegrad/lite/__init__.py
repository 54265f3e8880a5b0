"""``tf.lite``: convert a model for inference (``TFLiteConverter``) and run it (``Interpreter``).

tapegrad has no TensorFlow Lite runtime. The converter packs the model as a tapegrad SavedModel
(each signature's trace as data, its weights as arrays: no code) into one ``bytes`` object, and the
interpreter runs those signatures with TFLite's API: fixed input shapes (a ``None`` dimension is 1
until ``resize_tensor_input``), ``allocate_tensors``, ``set_tensor`` / ``invoke`` /
``get_tensor`` by tensor index, and signature runners. The numbers are the float model's, as
TFLite's float kernels give them. Quantizing optimizations (``optimizations=[tf.lite.Optimize.DEFAULT]``)
are not applied: the weights stay float32, and the converter says so once (docs/differences.md).
The bytes are not a TFLite flatbuffer: TensorFlow's interpreter cannot read them, nor tapegrad's
a ``.tflite`` file made by TensorFlow.

>>> import numpy as np, tapegrad as tf
>>> m = tf.keras.Sequential([tf.keras.Input((2,), name="x"), tf.keras.layers.Dense(1)])
>>> blob = tf.lite.TFLiteConverter.from_keras_model(m).convert()
>>> it = tf.lite.Interpreter(model_content=blob)
>>> it.get_signature_list()
{'serving_default': {'inputs': ['x'], 'outputs': ['output_0']}}
>>> it.allocate_tensors()
>>> inp, out = it.get_input_details()[0], it.get_output_details()[0]
>>> it.set_tensor(inp["index"], np.ones((1, 2), np.float32)); it.invoke()
>>> bool(np.allclose(it.get_tensor(out["index"]), m(np.ones((1, 2), np.float32))))
True
"""
from __future__ import annotations

import enum
import io
import json
import os
import tempfile
import warnings
import zipfile
from typing import Any, Callable, Iterable

import numpy as np

__all__ = ["TFLiteConverter", "Interpreter", "Optimize", "OpsSet", "TargetSpec",
           "RepresentativeDataset", "experimental"]

_MAGIC = b"TGLITE\x00\x01"   # then a zip archive of a SavedModel folder and lite.json
_TFLITE = b"TFL3"            # a TensorFlow Lite flatbuffer's identifier (bytes 4 to 8)
_MAX_MEMBERS, _MAX_BYTES = 100_000, 1 << 34


class Optimize(enum.Enum):
    """``converter.optimizations`` entries (kept; tapegrad's conversion does not quantize)."""
    DEFAULT = "DEFAULT"
    OPTIMIZE_FOR_SIZE = "OPTIMIZE_FOR_SIZE"
    OPTIMIZE_FOR_LATENCY = "OPTIMIZE_FOR_LATENCY"
    EXPERIMENTAL_SPARSITY = "EXPERIMENTAL_SPARSITY"

    def __str__(self) -> str:
        return self.value


class OpsSet(enum.Enum):
    """``target_spec.supported_ops`` entries (kept; every traced op runs)."""
    TFLITE_BUILTINS = "TFLITE_BUILTINS"
    SELECT_TF_OPS = "SELECT_TF_OPS"
    TFLITE_BUILTINS_INT8 = "TFLITE_BUILTINS_INT8"
    EXPERIMENTAL_TFLITE_BUILTINS_ACTIVATIONS_INT16_WEIGHTS_INT8 = \
        "EXPERIMENTAL_TFLITE_BUILTINS_ACTIVATIONS_INT16_WEIGHTS_INT8"

    def __str__(self) -> str:
        return self.value


class TargetSpec:
    """``converter.target_spec``: the ops and types the target supports."""

    def __init__(self, supported_ops: Any = None, supported_types: Any = None,
                 experimental_select_user_tf_ops: Any = None,
                 experimental_supported_backends: Any = None) -> None:
        self.supported_ops = set(supported_ops) if supported_ops else {OpsSet.TFLITE_BUILTINS}
        self.supported_types = list(supported_types or [])
        self.experimental_select_user_tf_ops = list(experimental_select_user_tf_ops or [])
        self.experimental_supported_backends = experimental_supported_backends


class RepresentativeDataset:
    """A generator of input samples, for post-training quantization's calibration."""

    def __init__(self, input_gen: Callable[[], Iterable]) -> None:
        self.input_gen = input_gen


_warned_quantize = False


class TFLiteConverter:
    """Converts a SavedModel, a Keras model or concrete functions; ``convert()`` gives the bytes
    an :class:`Interpreter` runs (write them to a ``.tflite`` file as TF's users do)."""

    def __init__(self, make: Callable[[str], list], what: str,
                 outputs: str = "StatefulPartitionedCall") -> None:
        self._make, self._what, self._outputs = make, what, outputs
        self.optimizations: list = []
        self.target_spec = TargetSpec()
        self.representative_dataset: Any = None
        self.inference_type: Any = None
        self.inference_input_type: Any = None
        self.inference_output_type: Any = None
        self.allow_custom_ops = False
        self.exclude_conversion_metadata = False
        self.experimental_new_converter = True
        self.experimental_new_quantizer = True
        self.experimental_enable_resource_variables = True
        self._experimental_lower_tensor_list_ops = True

    @classmethod
    def from_saved_model(cls, saved_model_dir: Any, signature_keys: Any = None,
                         tags: Any = None) -> "TFLiteConverter":
        """From a SavedModel folder (``tf.saved_model.save`` / ``model.export``); ``signature_keys``
        picks signatures (default: all of them)."""
        from .. import saved_model
        src = os.fspath(saved_model_dir)
        if not saved_model.contains_saved_model(src):
            raise OSError(f"SavedModel file does not exist at: {src}")

        def make(folder: str) -> list:
            loaded = saved_model.load(src)
            keys = sorted(loaded.signatures) if signature_keys is None else list(signature_keys)
            missing = [k for k in keys if k not in loaded.signatures]
            if missing:
                raise ValueError(f"Invalid signature key {missing[0]!r} found. Valid keys are "
                                 f"'{','.join(sorted(loaded.signatures))}'.")
            if not keys:
                raise ValueError("Only support at least one signature key.")
            _copy_tree(src, folder)
            return keys
        return cls(make, f"the SavedModel at {src}")

    @classmethod
    def from_keras_model(cls, model: Any, input_signature: Any = None) -> "TFLiteConverter":
        """From a Keras model: its call, with the batch dimension free, as ``serving_default``
        (inputs named after the model's inputs, outputs ``output_0``... or the output dict's keys)."""
        def make(folder: str) -> list:
            from ..keras.export import export_saved_model
            export_saved_model(model, folder, verbose=False, input_signature=input_signature)
            return ["serving_default"]
        return cls(make, f"the Keras model {getattr(model, 'name', model)!r}",
                   "StatefulPartitionedCall_1")   # (TF's output tensors' names there)

    @classmethod
    def from_concrete_functions(cls, funcs: Any, trackable_obj: Any = None) -> "TFLiteConverter":
        """From concrete functions (``f.get_concrete_function(...)``): one signature each, the
        first ``serving_default``, the others named after their function."""
        funcs = list(funcs)
        if not funcs:
            raise ValueError("No ConcreteFunction is specified.")

        def make(folder: str) -> list:
            from .. import saved_model
            from ..module import Module
            holder = trackable_obj if trackable_obj is not None else Module()
            names = ["serving_default"] + [getattr(f, "name", f"f{i}") for i, f in enumerate(funcs[1:], 1)]
            saved_model.save(holder, folder, signatures=dict(zip(names, funcs)))
            return names
        return cls(make, "the concrete functions")

    @classmethod
    def from_session(cls, *args: Any, **kwargs: Any) -> "TFLiteConverter":
        raise NotImplementedError("TFLiteConverter.from_session is TensorFlow 1's API (sessions); "
                                  "tapegrad converts from_saved_model, from_keras_model and "
                                  "from_concrete_functions.")

    def convert(self) -> bytes:
        """The converted model as bytes (see the module's docstring for what they hold)."""
        global _warned_quantize
        from .. import dtypes
        for attr in ("inference_input_type", "inference_output_type", "inference_type"):
            t = getattr(self, attr)
            if t is not None and dtypes.as_dtype(t) != dtypes.float32:
                raise ValueError(
                    f"converter.{attr}={dtypes.as_dtype(t).name}: tapegrad's TFLite conversion "
                    "makes float models only; integer-only quantization is not available. Leave "
                    f"{attr} unset (float32) to convert.")
        quantize = (bool(self.optimizations) or self.representative_dataset is not None
                    or OpsSet.TFLITE_BUILTINS_INT8 in self.target_spec.supported_ops)
        if quantize and not _warned_quantize:
            _warned_quantize = True
            warnings.warn("tapegrad's TFLite conversion keeps the weights in float32: the "
                          "quantization that converter.optimizations / representative_dataset ask "
                          "TensorFlow for is not applied, so the interpreter gives the float "
                          "model's numbers (TensorFlow's quantized model gives slightly other "
                          "ones). See docs/differences.md, tf.lite.", stacklevel=2)
        with tempfile.TemporaryDirectory() as tmp:
            folder = os.path.join(tmp, "model")
            keys = self._make(folder)
            buf = io.BytesIO()
            with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
                for root, _, files in os.walk(folder):
                    for f in sorted(files):
                        full = os.path.join(root, f)
                        z.write(full, os.path.relpath(full, folder).replace(os.sep, "/"))
                z.writestr("lite.json", json.dumps({"signatures": keys, "source": self._what,
                                                    "outputs": self._outputs}))
        return _MAGIC + buf.getvalue()


def export_litert(model: Any, filepath: Any, input_signature: Any = None,
                  verbose: Any = None, **kwargs: Any) -> None:
    """``model.export(filepath, format="litert")``: the converted model written to ``filepath``,
    which must end with ``.tflite`` (as Keras requires)."""
    filepath = os.fspath(filepath)
    if not str(filepath).endswith(".tflite"):
        raise ValueError("The LiteRT export requires the filepath to end with '.tflite'. "
                         f"Got: {filepath}")
    if kwargs:
        raise TypeError(f"Unexpected arguments for the LiteRT export: {sorted(kwargs)}.")
    blob = TFLiteConverter.from_keras_model(model, input_signature).convert()
    with open(filepath, "wb") as f:
        f.write(blob)
    if verbose is None or verbose:
        print(f"Saved artifact at '{filepath}'.")


def _copy_tree(src: str, dst: str) -> None:
    import shutil
    shutil.copytree(src, dst)


def _open(content: bytes, folder: str) -> tuple:
    """Unpack converted bytes into ``folder``; the signature keys they hold and the name of
    their output tensors."""
    if content[4:8] == _TFLITE:
        raise ValueError("This is a TensorFlow Lite flatbuffer written by TensorFlow's converter; "
                         "tapegrad's Interpreter runs the models tapegrad's TFLiteConverter makes "
                         "(convert the model with tapegrad, from its SavedModel or Keras model).")
    if not content.startswith(_MAGIC):
        raise ValueError("Could not read the model: these bytes are not a model converted by "
                         "tapegrad's tf.lite.TFLiteConverter (pass convert()'s result, or the file "
                         "it was written to).")
    try:
        z = zipfile.ZipFile(io.BytesIO(content[len(_MAGIC):]))
        infos = z.infolist()
    except zipfile.BadZipFile as e:
        raise ValueError(f"The converted model is damaged: {e}") from None
    if len(infos) > _MAX_MEMBERS or sum(i.file_size for i in infos) > _MAX_BYTES:
        raise ValueError("The converted model is damaged: too many or too large members.")
    meta = None
    for info in infos:
        name = info.filename
        parts = name.split("/")
        if name.startswith("/") or ".." in parts or "\\" in name or ":" in name:
            raise ValueError(f"The converted model is damaged: a member named {name!r}.")
        if name == "lite.json":
            meta = json.loads(z.read(info).decode("utf-8"))
            continue
        if name.endswith("/"):
            continue
        path = os.path.join(folder, *parts)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(z.read(info))
    if not isinstance(meta, dict) or not isinstance(meta.get("signatures"), list):
        raise ValueError("The converted model is damaged: lite.json is missing.")
    return [str(k) for k in meta["signatures"]], str(meta.get("outputs", "StatefulPartitionedCall"))


class _Tensor:
    """One input or output tensor of the interpreter."""

    def __init__(self, index: int, name: str, signature_shape: tuple, dtype: np.dtype) -> None:
        self.index, self.name, self.dtype = index, name, dtype
        self.signature = tuple(-1 if d is None else int(d) for d in signature_shape)
        self.shape = tuple(1 if d == -1 else d for d in self.signature)
        self.value: np.ndarray | None = None

    def details(self) -> dict:
        return {"name": self.name, "index": self.index,
                "shape": np.array(self.shape, np.int32),
                "shape_signature": np.array(self.signature, np.int32),
                "dtype": self.dtype.type, "quantization": (0.0, 0),
                "quantization_parameters": {"scales": np.zeros(0, np.float32),
                                            "zero_points": np.zeros(0, np.int32),
                                            "quantized_dimension": 0, "block_size": 0},
                "sparsity_parameters": {}}


class _Signature:
    """A signature's tensors and its restored function."""

    def __init__(self, key: str, fn: Any, first: int, out_name: str) -> None:
        self.key, self.fn = key, fn
        specs = fn.structured_input_signature[1]
        outs = fn.structured_outputs
        index = first
        self.inputs: dict[str, _Tensor] = {}
        for name in sorted(specs):
            s = specs[name]
            self.inputs[name] = _Tensor(index, f"{key}_{name}:0", tuple(s.shape.as_list()),
                                        np.dtype(s.dtype.as_numpy_dtype))
            index += 1
        self.outputs: dict[str, _Tensor] = {}
        for i, name in enumerate(sorted(outs)):
            s = outs[name]
            shape = tuple(s.shape.as_list()) if s is not None and s.shape.rank is not None else ()
            dt = np.dtype(s.dtype.as_numpy_dtype) if s is not None else np.dtype(np.float32)
            self.outputs[name] = _Tensor(index, f"{out_name}:{i}", shape, dt)
            index += 1
        self.end = index

    def run(self) -> None:
        missing = [t.name for t in self.inputs.values() if t.value is None]
        if missing:
            raise ValueError(f"Input tensors {missing} were not set: call set_tensor(index, "
                             "value) for each input before invoke().")
        result = self.fn(**{n: t.value for n, t in self.inputs.items()})
        for name, t in self.outputs.items():
            v = np.asarray(result[name])
            t.value, t.shape = v, v.shape


class Interpreter:
    """Runs a model converted by :class:`TFLiteConverter`, with TFLite's API.

    ``model_path`` (a file holding ``convert()``'s bytes) or ``model_content`` (the bytes).
    ``num_threads``, delegates and the experimental options are accepted and have no effect.
    """

    def __init__(self, model_path: Any = None, model_content: bytes | None = None,
                 experimental_delegates: Any = None, num_threads: int | None = None,
                 experimental_op_resolver_type: Any = None,
                 experimental_preserve_all_tensors: bool = False,
                 experimental_disable_delegate_clustering: bool = False,
                 experimental_default_delegate_latest_features: bool = False) -> None:
        if (model_path is None) == (model_content is None):
            raise ValueError("Can't both provide `model_path` and `model_content`" if model_path
                             is not None else "Must specify either model_path or model_content.")
        if num_threads is not None and (not isinstance(num_threads, int) or num_threads < -1):
            raise ValueError("num_threads should >= 1 or just -1 to let TFLite runtime set the "
                             "value.")
        if model_path is not None:
            with open(os.fspath(model_path), "rb") as f:
                model_content = f.read()
        if not isinstance(model_content, (bytes, bytearray, memoryview)):
            raise TypeError(f"model_content must be bytes, got {type(model_content).__name__}.")
        from .. import saved_model
        self._dir = tempfile.TemporaryDirectory(prefix="tapegrad-lite-")
        keys, out_name = _open(bytes(model_content), self._dir.name)
        loaded = saved_model.load(self._dir.name)
        self._signatures: dict[str, _Signature] = {}
        first = 0
        for key in sorted(keys):
            sig = _Signature(key, loaded.signatures[key], first, out_name)
            self._signatures[key] = sig
            first = sig.end
        self._main = self._signatures[sorted(keys)[0]]
        self._by_index = {t.index: t for s in self._signatures.values()
                          for t in [*s.inputs.values(), *s.outputs.values()]}
        self._allocated = False

    # -- the main signature, by tensor index -------------------------------------------------
    def allocate_tensors(self) -> None:
        """Make the tensors for the current input shapes (needed before ``set_tensor``)."""
        self._allocated = True

    def get_input_details(self) -> list:
        return [t.details() for t in self._main.inputs.values()]

    def get_output_details(self) -> list:
        return [t.details() for t in self._main.outputs.values()]

    def get_tensor_details(self) -> list:
        return [{k: v for k, v in t.details().items() if k not in ("shape_signature",)}
                for t in sorted(self._by_index.values(), key=lambda t: t.index)]

    def _tensor(self, index: Any) -> _Tensor:
        t = self._by_index.get(int(index)) if isinstance(index, (int, np.integer)) else None
        if t is None:
            raise ValueError(f"Tensor with no shape found: tensor index {index!r} is not one of "
                             f"this model's tensors ({sorted(self._by_index)}).")
        return t

    def _input(self, index: Any) -> _Tensor:
        t = self._tensor(index)
        if not any(t is x for s in self._signatures.values() for x in s.inputs.values()):
            raise ValueError(f"Tensor {index} ({t.name}) is an output; set_tensor and "
                             "resize_tensor_input take an input's index.")
        return t

    def set_tensor(self, tensor_index: int, value: Any) -> None:
        """Copy ``value`` into the input tensor ``tensor_index``: its dtype and shape must be the
        tensor's (``resize_tensor_input`` changes the shape)."""
        t = self._input(tensor_index)
        if not self._allocated:
            raise ValueError("Cannot set tensor: Tensor is unallocated. Try calling "
                             "allocate_tensors() first")
        a = np.asarray(value)
        if a.dtype != t.dtype:
            raise ValueError(f"Cannot set tensor: Got value of type {_tfl_type(a.dtype)} but "
                             f"expected type {_tfl_type(t.dtype)} for input {t.index}, name: "
                             f"{t.name} ")
        if a.ndim != len(t.shape):
            raise ValueError(f"Cannot set tensor: Dimension mismatch. Got {a.ndim} but expected "
                             f"{len(t.shape)} for input {t.index}.")
        for i, (got, want) in enumerate(zip(a.shape, t.shape)):
            if got != want:
                raise ValueError(f"Cannot set tensor: Dimension mismatch. Got {got} but expected "
                                 f"{want} for dimension {i} of input {t.index}.")
        t.value = a.copy()

    def resize_tensor_input(self, input_index: int, tensor_size: Any, strict: bool = False) -> None:
        """Give an input tensor another shape (then ``allocate_tensors()`` again); with
        ``strict``, only the dimensions the signature leaves free (-1) may change."""
        t = self._input(input_index)
        shape = tuple(int(d) for d in np.asarray(tensor_size).reshape(-1))
        if len(shape) != len(t.signature) or any(
                d < 0 or (s != -1 and d != s and strict) for d, s in zip(shape, t.signature)):
            raise ValueError(f"ResizeInputTensor{'Strict' if strict else ''} failed: the shape "
                             f"{list(shape)} does not fit input {t.index} ({t.name}), whose "
                             f"signature is {list(t.signature)}.")
        if any(s != -1 and d != s for d, s in zip(shape, t.signature)):
            raise ValueError(f"Cannot resize input {t.index} ({t.name}) to {list(shape)}: the "
                             f"model was traced for {list(t.signature)} (-1: any size).")
        t.shape, t.value = shape, None
        self._allocated = False

    def invoke(self) -> None:
        """Run the model on the inputs set."""
        if not self._allocated:
            raise RuntimeError("Invoke called on model that is not ready: call "
                               "allocate_tensors() first.")
        self._main.run()

    def get_tensor(self, tensor_index: int, subgraph_index: int = 0) -> np.ndarray:
        """A copy of the tensor's value (an output after ``invoke``, or an input set)."""
        t = self._tensor(tensor_index)
        if t.value is None:
            raise ValueError(f"Tensor {t.index} ({t.name}) has no value yet: "
                             + ("call invoke() first." if t in self._main.outputs.values()
                                else "set it with set_tensor()."))
        return t.value.copy()

    def tensor(self, tensor_index: int) -> Callable[[], np.ndarray]:
        """A function returning the tensor's current value (TFLite's view of its buffer)."""
        t = self._tensor(tensor_index)
        return lambda: t.value if t.value is not None else np.zeros(t.shape, t.dtype)

    def reset_all_variables(self) -> None:
        """No variables are kept between invocations: nothing to reset."""

    # -- signatures --------------------------------------------------------------------------
    def get_signature_list(self) -> dict:
        return {k: {"inputs": list(s.inputs), "outputs": list(s.outputs)}
                for k, s in self._signatures.items()}

    def get_signature_runner(self, signature_key: str | None = None) -> "SignatureRunner":
        """A callable running one signature by keyword inputs; ``signature_key`` may be left out
        when the model has one signature."""
        if signature_key is None:
            if len(self._signatures) != 1:
                raise ValueError("SignatureDef signature_key is None and model has "
                                 f"{len(self._signatures)} Signatures. None is only allowed when "
                                 "the model has 1 SignatureDef")
            signature_key = next(iter(self._signatures))
        if signature_key not in self._signatures:
            raise ValueError(f"Invalid signature_key provided: {signature_key!r}; the model's "
                             f"signatures are {sorted(self._signatures)}.")
        return SignatureRunner(self, self._signatures[signature_key])


class SignatureRunner:
    """``interpreter.get_signature_runner(key)``: ``runner(**inputs)`` gives the outputs by name."""

    def __init__(self, interpreter: Interpreter, sig: _Signature) -> None:
        self._interpreter, self._sig = interpreter, sig

    def __call__(self, **kwargs: Any) -> dict:
        sig = self._sig
        unknown = sorted(set(kwargs) - set(sig.inputs))
        if unknown:
            raise ValueError(f"Invalid Input name ({unknown[0]}) for SignatureDef")
        if len(kwargs) != len(sig.inputs):
            raise ValueError(f"Invalid number of inputs provided for running a SignatureDef, "
                             f"expected {len(sig.inputs)} vs provided {len(kwargs)}")
        for name, value in kwargs.items():
            t = sig.inputs[name]
            a = np.asarray(value)
            if a.shape != t.shape:
                self._interpreter.resize_tensor_input(t.index, a.shape)
            self._interpreter._allocated = True
            self._interpreter.set_tensor(t.index, a)
        sig.run()
        return {name: t.value.copy() for name, t in sig.outputs.items()}

    def get_input_details(self) -> dict:
        return {n: t.details() for n, t in self._sig.inputs.items()}

    def get_output_details(self) -> dict:
        return {n: t.details() for n, t in self._sig.outputs.items()}


def _tfl_type(dt: np.dtype) -> str:
    return {"float32": "FLOAT32", "float64": "FLOAT64", "int32": "INT32", "int64": "INT64",
            "uint8": "UINT8", "int8": "INT8", "int16": "INT16", "bool": "BOOL",
            "float16": "FLOAT16"}.get(np.dtype(dt).name, np.dtype(dt).name.upper())


class experimental:  # noqa: N801  (tf.lite.experimental's names)
    """``tf.lite.experimental``: ``load_delegate`` (no delegates exist in tapegrad)."""

    @staticmethod
    def load_delegate(library: str, options: Any = None) -> Any:
        raise ValueError(f"Failed to load delegate from {library}: tapegrad's Interpreter runs "
                         "without TFLite delegates (pass no experimental_delegates).")
