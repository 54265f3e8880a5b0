"""Record Keras 3's numbers for tests/test_keras_ops_more.py (the keras.ops names of issue #24).

Run with a Python that has TensorFlow and Keras 3 (never needed by tapegrad or by CI; the tests
only read the JSON this script writes):

    $TAPEGRAD_TF_PYTHON tools/record_keras_ops_more.py

It writes ``tests/fixtures/keras_ops_more.json``: for each call of ``tests/keras_ops_more_cases.py``,
Keras's result (values and dtype; a tuple of results as a list) under ``values``, and under
``grads`` the gradient of ``sum(w * f(x))`` for the differentiable ones; under ``dtypes`` the
results of the dtype sweeps (``dtype_cases``: each op over every dtype or pair of them), with the
error type where Keras refuses. A value call that Keras refuses is recorded under ``errors``.
"""
import json
import os
import sys

import numpy as np

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURE = os.path.join(REPO, "tests", "fixtures", "keras_ops_more.json")


def encode(value, keras):
    """A result as JSON: ``{"dtype", "value"}`` (``"real"``/``"imag"`` for complex), or a list of them."""
    if isinstance(value, (tuple, list)):
        return [encode(v, keras) for v in value]
    arr = np.asarray(keras.ops.convert_to_numpy(value))
    if arr.dtype.kind == "c":
        return {"dtype": str(arr.dtype), "real": arr.real.tolist(), "imag": arr.imag.tolist()}
    return {"dtype": str(arr.dtype), "value": arr.tolist()}


def main():
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    sys.path.insert(0, os.path.join(REPO, "tests"))
    from _tf import quiet_tensorflow
    tf = quiet_tensorflow()
    import keras
    from keras_ops_more_cases import _w, dtype_cases, grad_cases, value_cases

    values, errors, grads = {}, {}, {}
    for name, call in value_cases(keras.ops).items():
        try:
            values[name] = encode(call(), keras)
        except Exception as e:  # noqa: BLE001 (recorded: the test expects tapegrad to refuse too)
            errors[name] = type(e).__name__
    for name, (f, x) in grad_cases().items():
        t = tf.constant(x)
        with tf.GradientTape() as tape:
            tape.watch(t)
            out = f(keras.ops, t)
            loss = tf.reduce_sum(tf.cast(_w(out.shape), out.dtype) * out)
        grads[name] = encode(tape.gradient(loss, t), keras)
    dtypes = {}
    for key, call in dtype_cases(keras.ops).items():
        try:
            dtypes[key] = encode(call(), keras)
        except Exception as e:  # noqa: BLE001 (the test skips what Keras refuses)
            dtypes[key] = {"error": type(e).__name__}
    with open(FIXTURE, "w", encoding="utf-8") as fh:
        json.dump({"keras_version": keras.__version__, "values": values, "errors": errors, "grads": grads,
                   "dtypes": dtypes}, fh)
        fh.write("\n")
    refused = sum("error" in v for v in dtypes.values() if isinstance(v, dict))
    print(f"wrote {FIXTURE}: {len(values)} values, {len(errors)} errors {sorted(errors)}, {len(grads)} gradients, "
          f"{len(dtypes)} dtype cases ({refused} refused by Keras)")


if __name__ == "__main__":
    main()
