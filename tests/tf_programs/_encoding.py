"""JSON encoding of program results, shared by the recorder and the test.

The encoder is duck-typed on the module under test (``tensorflow`` or
``tapegrad``): it looks up ``tf.Tensor``, ``tf.Variable`` and
``tf.IndexedSlices`` on that module, so the same code encodes both sides.

Encoded forms (every node is a dict with a ``kind``):

* tensor / Variable: ``{"kind": "tensor", "dtype": "float32", "shape": [..],
  "value": nested lists}``; NaN and infinities are the strings ``"nan"``,
  ``"inf"`` and ``"-inf"``; complex values are ``[re, im]`` pairs and the node
  carries ``"complex": true``.
* IndexedSlices: ``{"kind": "indexed_slices", "values": T, "indices": T,
  "dense_shape": T or none}``.
* ``None``: ``{"kind": "none"}``.
* Python scalars: ``{"kind": "bool" | "int" | "float" | "str", "value": v}``.
* containers: ``{"kind": "list" | "tuple", "items": [...]}``,
  ``{"kind": "dict", "items": {key: ...}}``,
  ``{"kind": "namedtuple", "name": "Pair", "fields": [...], "items": [...]}``.
* an exception (raised by the program or returned by it):
  ``{"kind": "error", "type": "InvalidArgumentError", "bases": [...],
  "message": "..."}``. ``bases`` lists the names of the class's bases
  (method resolution order, without ``object``/``BaseException``).
"""

import math
import re

import numpy as np

_SKIPPED_BASES = {"object", "BaseException"}


def encode_float(v):
    v = float(v)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return v


def decode_float(v):
    if isinstance(v, str):
        return float(v)  # float("nan"), float("inf"), float("-inf")
    return float(v)


def _map_nested(value, fn):
    if isinstance(value, list):
        return [_map_nested(v, fn) for v in value]
    return fn(value)


def encode_array(arr, dtype_name=None, shape=None):
    """Encode a NumPy array (the value of a tensor) as a tensor node."""
    arr = np.asarray(arr)
    if dtype_name is None:
        dtype_name = arr.dtype.name
    node = {"kind": "tensor", "dtype": dtype_name}
    node["shape"] = [int(d) for d in (arr.shape if shape is None else shape)]
    if arr.dtype.kind == "c":
        node["complex"] = True
        node["value"] = _map_nested(
            arr.tolist(), lambda c: [encode_float(c.real), encode_float(c.imag)]
        )
    elif arr.dtype.kind == "f" or dtype_name in ("bfloat16", "float16"):
        node["value"] = _map_nested(arr.astype(np.float64).tolist(), encode_float)
    elif arr.dtype.kind == "b":
        node["value"] = _map_nested(arr.tolist(), bool)
    elif arr.dtype.kind in "iu":
        node["value"] = _map_nested(arr.tolist(), int)
    elif arr.dtype.kind in "SUO":
        def as_text(v):
            return v.decode("utf-8", "replace") if isinstance(v, bytes) else str(v)

        node["value"] = _map_nested(arr.tolist(), as_text)
    else:
        raise TypeError(f"cannot encode array of dtype {arr.dtype}")
    return node


def _classes(tf, *names):
    found = []
    for name in names:
        cls = getattr(tf, name, None)
        if isinstance(cls, type):
            found.append(cls)
    return tuple(found)


def is_indexed_slices(obj, tf):
    classes = _classes(tf, "IndexedSlices")
    if classes and isinstance(obj, classes):
        return True
    return type(obj).__name__ == "IndexedSlices"


def is_tensor(obj, tf):
    if isinstance(obj, np.ndarray):
        return False
    classes = _classes(tf, "Tensor", "Variable")
    if classes and isinstance(obj, classes):
        return True
    return hasattr(obj, "numpy") and hasattr(obj, "dtype") and hasattr(obj, "shape")


def dtype_name(dtype):
    name = getattr(dtype, "name", None)
    if not isinstance(name, str):
        name = str(dtype)
    if name.startswith("tf."):
        name = name[3:]
    if name.startswith("<dtype: '") and name.endswith("'>"):
        name = name[len("<dtype: '"):-2]
    return name


def encode_tensor(t):
    value = np.asarray(t.numpy())
    try:
        shape = [int(d) for d in t.shape]
    except TypeError:
        shape = list(value.shape)
    node = encode_array(value, dtype_name(t.dtype), shape)
    if list(value.shape) != shape:
        # .shape and .numpy() disagree: keep both so the comparison can say so.
        node["value_shape"] = list(value.shape)
    return node


def sanitize_message(message):
    message = re.sub(r"0x[0-9a-fA-F]+", "0x?", message)
    if len(message) > 400:
        message = message[:400] + "..."
    return message


def encode_error(exc):
    cls = type(exc)
    bases = [c.__name__ for c in cls.__mro__[1:] if c.__name__ not in _SKIPPED_BASES]
    return {
        "kind": "error",
        "type": cls.__name__,
        "bases": bases,
        "message": sanitize_message(str(exc)),
    }


def encode(obj, tf):
    """Encode a program result produced with module ``tf``."""
    if isinstance(obj, BaseException):
        return encode_error(obj)
    if obj is None:
        return {"kind": "none"}
    if isinstance(obj, bool):
        return {"kind": "bool", "value": obj}
    if isinstance(obj, int):
        return {"kind": "int", "value": obj}
    if isinstance(obj, float):
        return {"kind": "float", "value": encode_float(obj)}
    if isinstance(obj, str):
        return {"kind": "str", "value": obj}
    if is_indexed_slices(obj, tf):
        dense_shape = obj.dense_shape
        return {
            "kind": "indexed_slices",
            "values": encode_tensor(obj.values),
            "indices": encode_tensor(obj.indices),
            "dense_shape": (
                {"kind": "none"} if dense_shape is None else encode_tensor(dense_shape)
            ),
        }
    if is_tensor(obj, tf):
        return encode_tensor(obj)
    if isinstance(obj, tuple) and hasattr(type(obj), "_fields"):
        return {
            "kind": "namedtuple",
            "name": type(obj).__name__,
            "fields": list(type(obj)._fields),
            "items": [encode(v, tf) for v in obj],
        }
    if isinstance(obj, tuple):
        return {"kind": "tuple", "items": [encode(v, tf) for v in obj]}
    if isinstance(obj, list):
        return {"kind": "list", "items": [encode(v, tf) for v in obj]}
    if isinstance(obj, dict):
        items = {}
        for key, value in obj.items():
            if not isinstance(key, str):
                raise TypeError(f"dict keys in results must be str, got {key!r}")
            items[key] = encode(value, tf)
        return {"kind": "dict", "items": items}
    raise TypeError(f"cannot encode result of type {type(obj).__name__}: {obj!r}")


def run_case(fn, tf):
    """Run one program with module ``tf`` and return its encoded result."""
    try:
        result = fn(tf)
    except Exception as exc:  # noqa: BLE001 - the exception is the result
        return encode_error(exc)
    return encode(result, tf)
