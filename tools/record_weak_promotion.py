"""Record TensorFlow's auto dtype conversion (``experimental_enable_numpy_behavior(
dtype_conversion_mode="all"/"safe")``: WeakTensor and the promotion lattice) into
tests/fixtures/weak_promotion.json.

    $TAPEGRAD_TF_PYTHON tools/record_weak_promotion.py

``table``: per mode, for every ordered pair of operand kinds (a strong tensor of each dtype, a
weak tensor of each weak dtype, a Python int, float, complex), TensorFlow's
``flexible_dtypes.result_type`` as ``[dtype name, weak]`` or the exception's type name.
``wrapped``: the public functions TensorFlow wraps (``unary``: the first input alone;
``binary``: two inputs), by name relative to ``tf``.
``ops``: per mode ("off" too: the operators' own rules), Python expressions (``tf``, ``tnp``, ``np`` in scope) and their result: dtype
name, weakness, value, or the exception's type name.
"""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _tf import quiet_tensorflow  # noqa: E402

STRONG = ["bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64", "bfloat16",
          "float16", "float32", "float64", "complex64", "complex128"]
WEAK = ["int32", "int64", "float32", "float64", "complex128"]
PYTHON = {"int": "1", "float": "1.0", "complex": "1j", "pybool": "True"}
OPS = [
    "tf.constant(10, tf.int32) + tf.constant(5.0, tf.float32)",
    "tf.constant(10, tf.int8) + tf.constant(5, tf.uint32)",
    "tf.constant(1, tf.int64) + tf.constant(3.2, tf.float16)",
    "tf.constant(1.2) + tf.constant(3.1, tf.float16)",
    "tf.constant(5)", "tf.constant([5.0, 10.0, 3])", "tf.constant(5, tf.int32)", "tf.constant(1j)",
    "tf.constant(True)", "tf.constant(np.float64(2.5))", "tf.constant(np.array([1, 2]))",
    "tf.constant(tf.constant(10, tf.int16), tf.float32)", "tf.constant(2.5, tf.int32)",
    "tf.constant(3, tf.float32)", "tf.constant(tf.constant(3))",
    "tf.math.abs([100.0, 4.0])", "tf.abs(-3)", "tf.math.abs(tf.constant(-2, tf.int8))",
    "tf.exp(1.0)", "tf.sqrt(4.0)", "tf.math.square(3)", "tf.reduce_sum([1.0, 2.0])",
    "tf.reduce_mean([1, 2, 4])", "tf.reshape([1.0, 2.0], [2, 1])", "tf.transpose([[1, 2]])",
    "tf.nn.relu([-1.0, 2.0])", "tf.identity(2.0)", "tf.zeros_like(3.0)", "tf.ones_like([1, 2])",
    "tf.add(tf.add(np.array(1, np.int8), tf.constant(1)), np.array(1, np.float16))",
    "tf.add(tf.add(tf.constant(1), np.array(1, np.int8)), np.array(1, np.float16))",
    "np.array(3.2, np.float16) + tf.constant(1, tf.int8) + tf.constant(50)",
    "-tf.constant(5)", "abs(tf.constant(-5.0))", "~tf.constant(5)",
    "tf.constant(5, tf.int16) - tf.constant(1, tf.float32)",
    "tf.constant(2.0) * 3", "tf.constant(2) * 3", "tf.constant(2) * 3.5", "3.5 * tf.constant(2)",
    "tf.constant(2, tf.uint8) + 300", "tf.constant([1, 2], tf.int8) * 2.5", "tf.constant(7) / 2",
    "tf.constant(7, tf.int16) / 2", "tf.constant(7.0, tf.float16) / 2", "tf.constant(7) // 2",
    "tf.constant(7.5) % 2", "tf.constant(2) ** 3", "tf.constant(2.0) ** tf.constant(3)",
    "tf.constant(2, tf.int64) + tf.constant(1, tf.uint64)", "tf.constant(1.0, tf.bfloat16) + tf.constant(1.0, tf.float16)",
    "tf.constant(1.0, tf.float64) + tf.constant(1, tf.complex64)", "tf.constant(1.0, tf.float32) + 1j",
    "tf.constant(1, tf.int32) + np.float32(2.5)", "np.int16(3) + tf.constant(2)",
    "tf.constant([[1, 2]]) @ tf.constant([[1.5], [2.0]])", "tf.matmul(tf.constant([[1, 2]], tf.int16), [[1.5], [2.0]])",
    "tf.constant(1) < tf.constant(2.0)", "tf.constant(1, tf.int8) == 1.0", "tf.constant(1) == tf.constant(1.0)",
    "tf.constant(1, tf.int8) != 2", "tf.maximum(tf.constant(1), 2.5)", "tf.minimum(tf.constant(1, tf.int8), 2)",
    "tf.multiply(2, 3.0)", "tf.subtract(tf.constant(5, tf.int8), 2)", "tf.divide(3, 2)", "tf.math.floordiv(7, 2)",
    "tf.math.floormod(7.5, 2)", "tf.pow(2, 0.5)", "tf.math.multiply_no_nan(tf.constant(2.0), 0)",
    "tf.math.divide_no_nan(3, tf.constant(0.0))", "tf.math.scalar_mul(2, tf.constant(3.0))",
    "tf.Variable(10, dtype=tf.int32).assign_add(tf.constant(5, tf.int16))",
    "tf.Variable(10, dtype=tf.int32).assign_add(2.5)", "tf.Variable(1.0).assign(2)",
    "tf.Variable(10, dtype=tf.int8).assign_sub(tf.constant(1))",
    "tf.Variable(1.0) + 1", "tf.Variable(1.0, dtype=tf.float64) * tf.constant(2.0)",
    "tnp.array(1)", "tnp.array(1.0)", "tnp.array([1, 2.5])", "tnp.asarray(2)", "tnp.array(1, tnp.int8)",
    "tnp.add(1, 2.0)", "tnp.add(tnp.array(1, tnp.int8), 2)", "tnp.multiply(tf.constant(2, tf.int16), 1.5)",
    "tnp.exp(1.0)", "tnp.sum([1, 2])", "tnp.mean([1.0, 2.0])", "tnp.abs(-2)", "tnp.arange(3)",
    "tnp.zeros_like(2.0)", "tnp.reshape([1.0, 2.0], [2, 1])", "tnp.square(3)", "tnp.sqrt(4)",
    "tnp.ones([2])", "tnp.array(1) + tnp.array(1.0)", "tnp.matmul([[1, 2]], [[1.5], [2.0]])",
    "tnp.result_type(1.5)", "tnp.result_type(1, 2.0)", "tnp.result_type(tf.constant(1, tf.int8), 2.5)",
    "tnp.result_type(np.int16, np.float32)", "tnp.result_type()", "tnp.zeros([1])", "tnp.arange(3.0)",
    "tnp.linspace(0, 1, 3)", "tnp.eye(2)", "tnp.mean(tnp.arange(4))", "tnp.full([2], 1.5)", "tnp.ones([2], int)",
    "tf.cast(tf.constant(1), tf.float32)", "tf.constant(1) + tf.constant(2)",
    "tf.constant(2.0)[None]", "tf.constant([1.0, 2.0])[0]", "tf.concat([tf.constant([1.0]), [2.0]], 0)",
]
BITWISE = ["tf.constant(6) & tf.constant(3)", "tf.constant(6) | 3", "3 ^ tf.constant(6)", "~tf.constant(5, tf.uint8)",
           "~tf.constant([True, False])", "~tf.constant(1.0)", "tf.constant(1.0) & tf.constant(2.0)",
           "tf.constant(True) & True", "tf.constant([True, False]) ^ tf.constant([True, True])"]


def _describe(v, tf, weak_cls):
    if isinstance(v, tf.DType):
        return {"dtype": v.name, "weak": False, "value": 0.0, "result_type": True}
    if isinstance(v, tf.Variable):
        return {"dtype": v.dtype.name, "weak": False, "value": np.asarray(v.numpy()).tolist(), "variable": True}
    weak = isinstance(v, weak_cls)
    value = np.asarray(v.numpy())
    if value.dtype.kind == "c":
        value = np.stack([value.real, value.imag], -1)
    return {"dtype": v.dtype.name, "weak": weak, "value": value.astype(np.float64).tolist()}


def main():
    tf = quiet_tensorflow()
    import tensorflow.experimental.numpy as tnp
    from tensorflow.python.framework import flexible_dtypes, weak_tensor

    from tensorflow.python.ops import weak_tensor_ops

    W = weak_tensor.WeakTensor
    out = {"strong": STRONG, "weak": WEAK, "python": list(PYTHON), "table": {}, "ops": {}, "wrapped": {}}
    for kind, fns in (("unary", weak_tensor_ops._TF_UNARY_APIS), ("binary", weak_tensor_ops._TF_BINARY_APIS)):
        ids = {id(f) for f in fns}
        out["wrapped"][kind] = sorted(
            f"{prefix}{name}" for prefix, module in (("", tf), ("math.", tf.math), ("nn.", tf.nn),
                                                     ("linalg.", tf.linalg), ("image.", tf.image),
                                                     ("debugging.", tf.debugging),
                                                     ("experimental.numpy.", tnp))
            for name in dir(module) if id(getattr(module, name, None)) in ids)
    for mode in ("all", "safe"):
        tnp.experimental_enable_numpy_behavior(dtype_conversion_mode=mode)
        kinds = {s: tf.constant(True if s == "bool" else 1, getattr(tf, s)) for s in STRONG}
        kinds.update({w + "w": W.from_tensor(tf.constant(1, getattr(tf, w))) for w in WEAK})
        kinds.update({k: eval(v) for k, v in PYTHON.items()})
        table = {}
        for a, x in kinds.items():
            for b, y in kinds.items():
                try:
                    dt, weak = flexible_dtypes.result_type(x, y)
                    table[f"{a},{b}"] = [dt.name, bool(weak)]
                except Exception as e:  # noqa: BLE001 (the recorded outcome)
                    table[f"{a},{b}"] = type(e).__name__
        out["table"][mode] = table
    for mode in ("all", "safe", "legacy", "off"):
        ops = {}
        for src in OPS + BITWISE:
            tnp.experimental_enable_numpy_behavior(dtype_conversion_mode=mode)
            try:
                ops[src] = _describe(eval(src), tf, W)
            except Exception as e:  # noqa: BLE001
                ops[src] = {"error": type(e).__name__}
        out["ops"][mode] = ops
    tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="legacy")
    path = os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures", "weak_promotion.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=0, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
