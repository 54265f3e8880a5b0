"""Encode a program's result (tensors, None, Python values, nests; or the exception it raised)
as JSON-able data with either TensorFlow or tapegrad as ``tf``, and compare two encodings."""
from __future__ import annotations

import numpy as np


def encode(obj, tf):
    if obj is None or isinstance(obj, (bool, int, float, str)):
        return {"py": type(obj).__name__, "v": obj}
    if isinstance(obj, (list, tuple)):
        return {"seq": type(obj).__name__, "items": [encode(o, tf) for o in obj]}
    if isinstance(obj, dict):
        return {"dict": {str(k): encode(v, tf) for k, v in obj.items()}}
    if isinstance(obj, np.ndarray):
        return {"ndarray": obj.dtype.name, "shape": list(obj.shape), "v": obj.tolist()}
    if hasattr(obj, "numpy") and hasattr(obj, "dtype"):
        a = np.asarray(obj.numpy())
        if getattr(obj, "values", None) is not None and hasattr(obj, "indices"):  # IndexedSlices
            a = np.asarray(tf.convert_to_tensor(obj).numpy())
        return {"tensor": obj.dtype.name, "shape": list(a.shape), "v": a.tolist()}
    if type(obj).__name__ == "IndexedSlices":
        a = np.asarray(tf.convert_to_tensor(obj).numpy())
        return {"tensor": obj.dtype.name, "shape": list(a.shape), "v": a.tolist()}
    raise TypeError(f"cannot encode {type(obj)}")


def encode_value(v, tf):
    """A result as plain JSON-able data (the surface-names fixture's format): tensors as
    ``{"dtype", "shape", "value"}`` (``"imag"`` too for complex), TensorShapes, nests, else repr."""
    if isinstance(v, tf.Tensor):
        a = v.numpy()
        if a.dtype.kind == "c":  # (JSON has no complex numbers)
            return {"dtype": v.dtype.name, "shape": list(a.shape), "value": a.real.tolist(), "imag": a.imag.tolist()}
        return {"dtype": v.dtype.name, "shape": list(a.shape), "value": a.tolist()}
    if isinstance(v, tf.TensorShape):
        return {"shape_object": v.as_list()}
    if isinstance(v, (list, tuple)):
        return [encode_value(x, tf) for x in v]
    return {"python": repr(v)}


def run(fn, tf):
    try:
        return encode(fn(tf), tf)
    except Exception as e:  # noqa: BLE001  (the exception is the result)
        return {"error": type(e).__name__}


def compare(want, got, path="result"):
    """Assert that two encodings agree (float32 values to rtol 1e-5)."""
    assert want.keys() == got.keys(), f"{path}: TF gave {want}, tapegrad {got}"
    if "error" in want:
        assert want == got, f"{path}: TF raised {want['error']}, tapegrad gave {got}"
    elif "py" in want:
        assert want["py"] == got["py"], f"{path}: TF gave {want}, tapegrad {got}"
        if isinstance(want["v"], float):
            np.testing.assert_allclose(got["v"], want["v"], rtol=1e-6, err_msg=path)
        else:
            assert want["v"] == got["v"], f"{path}: TF gave {want}, tapegrad {got}"
    elif "seq" in want:
        assert want["seq"] == got["seq"] and len(want["items"]) == len(got["items"]), \
            f"{path}: TF gave a {want['seq']} of {len(want['items'])}, tapegrad {got['seq']} of {len(got['items'])}"
        for i, (w, g) in enumerate(zip(want["items"], got["items"])):
            compare(w, g, f"{path}[{i}]")
    elif "dict" in want:
        assert want["dict"].keys() == got["dict"].keys(), f"{path}: keys differ"
        for k in want["dict"]:
            compare(want["dict"][k], got["dict"][k], f"{path}[{k!r}]")
    else:
        kind = "tensor" if "tensor" in want else "ndarray"
        assert want[kind] == got[kind], f"{path}: dtype {want[kind]} (TF) vs {got[kind]}"
        assert want["shape"] == got["shape"], f"{path}: shape {want['shape']} (TF) vs {got['shape']}"
        w, g = np.asarray(want["v"]), np.asarray(got["v"])
        if w.dtype.kind == "f":
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6, err_msg=path)
        else:
            np.testing.assert_array_equal(g, w, err_msg=path)


def recorded() -> dict:
    """The fixture's cases: program name -> TensorFlow's encoded result."""
    import json
    import pathlib
    path = pathlib.Path(__file__).parent / "fixtures" / "tf_control_flow.json"
    return json.loads(path.read_text(encoding="utf-8"))["cases"]
