"""Record TensorFlow's dtype promotion of tensor operators under
``tf.experimental.numpy.experimental_enable_numpy_behavior`` into tests/fixtures/numpy_behavior.json.

    $TAPEGRAD_TF_PYTHON tools/record_numpy_behavior.py

Each case is an operator on two operands written as Python source (``tf``, ``np`` in scope), in
one of the modes (``legacy``/``legacy_f32``: enabled with prefer_float32 False/True; ``off``:
enabled with dtype_conversion_mode="off", tnp's inference only), with the
result's dtype and value, or the exception's type. ``tnp`` cases record the dtypes tnp infers;
``random`` cases, tnp.random's draws in order after ``tnp.random.seed(7)``.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _tf import quiet_tensorflow  # noqa: E402

OPERANDS = ["tf.constant([3, 4], tf.int32)", "tf.constant([3, 4], tf.int64)", "tf.constant([3, 4], tf.uint8)",
            "tf.constant([1.5, 2.5], tf.float32)", "tf.constant([1.5, 2.5], tf.float64)",
            "tf.constant([1.5, 2.5], tf.float16)", "tf.constant([True, False])",
            "tf.Variable([3, 4], dtype=tf.int32)", "tf.Variable([1.5, 2.5], dtype=tf.float32)"]
SCALARS = ["2", "2.5", "True", "np.float32(2.5)", "np.int64(2)", "np.array([2, 3], np.int16)",
           "np.array([2.0, 3.0])", "[2, 3]"]
OPS = ["+", "-", "*", "/", "//", "%", "**", "<", "=="]  # (& | ^ ~: tools/record_weak_promotion.py)
MATMUL = [("tf.constant([[1, 2]], tf.int32)", "tf.constant([[3], [4]], tf.int64)"),
          ("tf.constant([[1, 2]], tf.int32)", "tf.constant([[3.0], [4.0]], tf.float32)"),
          ("tf.constant([[1.0, 2.0]], tf.float32)", "tf.constant([[3.0], [4.0]], tf.float64)")]
TNP = ["tnp.asarray(1).dtype", "tnp.asarray(1.).dtype", "tnp.asarray([1.5, 2]).dtype", "tnp.add(1., 2.).dtype",
       "tnp.ones([2]).dtype", "tnp.zeros([2]).dtype", "tnp.arange(3.).dtype", "tnp.asarray(1j).dtype",
       "(tnp.ones([2], tnp.int32) + 1.5).dtype", "tnp.multiply(tnp.ones([2], tnp.int32), 2.5).dtype",
       "tnp.result_type(1.5).dtype if hasattr(tnp.result_type(1.5), 'dtype') else tnp.result_type(1.5)",
       "tnp.mean(tnp.arange(4)).dtype", "tnp.linspace(0, 1, 3).dtype", "tnp.eye(2).dtype",
       "tnp.sqrt(tnp.arange(3)).dtype"]
X = "tnp.arange(24).reshape(2, 3, 4)"
INDEX = [f"{X}[{k}]" for k in ("1, tnp.newaxis, 1:3, ...", ":, (True, False, True)", "1, (0, 0, 1), tnp.asarray([0, 1, 1])",
                               "[0, 1]", "[[1], [0]], 1:, [0, 3]", "..., tnp.asarray([3, 0])", "tnp.asarray(5) > 3",
                               f"{X} % 5 == 0", "::-1, [2, 0], 1", "(1, 2)", "[]", "1, [True, False, True], ::2",
                               "tf.constant([1, 0]), tf.constant(2)", "5", "0, 0, 4", "1.5", "[0, 2]")]
RANDOM = ["tnp.random.randn(2, 3)", "tnp.random.standard_normal(4)", "tnp.random.uniform(-1.0, [1.0, 2.0])",
          "tnp.random.rand(3)", "tnp.random.random((2,))", "tnp.random.randint(10, size=5)",
          "tnp.random.randint(3, 9, size=(2, 2), dtype=np.int32)", "tnp.random.uniform(size=(2,)).dtype"]


def pairs(ops):
    for op in ops:
        for i, a in enumerate(OPERANDS):
            for b in OPERANDS[i:]:
                yield a, op, b
            for s in SCALARS:
                yield a, op, s
                yield s, op, a
    for a, b in MATMUL:
        yield a, "@", b


def main() -> None:
    tf = quiet_tensorflow()
    import numpy as np
    tnp = tf.experimental.numpy
    env = {"tf": tf, "np": np, "tnp": tnp}

    def run(src):
        try:
            r = eval(src, env)
        except Exception as e:  # noqa: BLE001
            return {"error": type(e).__name__}
        if isinstance(r, tf.DType):
            return {"dtype": r.name}
        if isinstance(r, np.dtype) or isinstance(r, type):
            return {"dtype": tf.as_dtype(r).name}
        if isinstance(r, bool):
            return {"python": r}
        if isinstance(r, np.ndarray):  # (NumPy's operator took the tensor as an array)
            return {"ndarray": r.dtype.name, "value": r.tolist()}
        return {"dtype": r.dtype.name, "value": np.asarray(r.numpy()).tolist()}

    cases = []
    tnp.random.seed(7)  # (then the draws in order: mode "random")
    for src in RANDOM:
        cases.append({"mode": "random", "src": src, **run(src)})
    modes = [("legacy", dict(prefer_float32=False)),
             ("legacy_f32", dict(prefer_float32=True)),
             ("off", dict(prefer_float32=False, dtype_conversion_mode="off"))]
    for mode, kwargs in modes:
        tnp.experimental_enable_numpy_behavior(**kwargs)
        for a, op, b in pairs(OPS if mode == "legacy" else ["+", "/", "<"] if mode == "legacy_f32" else []):
            src = f"{a} {op} {b}"
            cases.append({"mode": mode, "src": src, **run(src)})
        for src in TNP + (INDEX if mode == "legacy" else []):
            cases.append({"mode": mode, "src": src, **run(src)})
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests", "fixtures",
                        "numpy_behavior.json")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(json.dumps({"tensorflow": tf.__version__, "numpy": np.__version__, "cases": []})[:-2])
        fh.write(",\n".join(json.dumps(c, separators=(",", ":")) for c in cases) + "]}\n")
    print(len(cases), "cases")


if __name__ == "__main__":
    main()
