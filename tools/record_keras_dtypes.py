"""Record Keras 3's result dtypes (and values) for tests/test_keras_dtypes.py.

Development only (tapegrad and CI never import Keras). Run with the TensorFlow + Keras venv:

    $TAPEGRAD_TF_PYTHON tools/record_keras_dtypes.py

It writes tests/fixtures/keras_dtypes.json (sorted keys): for every case of
tests/keras_dtype_cases.py (keras.ops ops over every dtype and pair of dtypes, Python scalars
included, and layers over every input dtype), the result's dtype, shape and values, or the type of the
error Keras raised; and ``keras.backend.result_type`` of every pair of dtypes and Python types.
"""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))
from _tf import quiet_tensorflow  # noqa: E402

tf = quiet_tensorflow()
import keras  # noqa: E402

import keras_dtype_cases as cases  # noqa: E402

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures", "keras_dtypes.json")


def record(fn):
    try:
        out = fn()
    except Exception as e:  # noqa: BLE001 (the error's type is the record)
        return {"error": type(e).__name__}
    out = keras.ops.convert_to_numpy(out)
    return {"dtype": out.dtype.name, "shape": list(out.shape), "value": out.astype(np.float64).ravel().tolist()}


def main():
    def tensor(d, k):
        return keras.ops.convert_to_tensor(cases.array(d, k))

    rec = {key: record(lambda fn=fn: fn(keras.ops, tensor)) for key, fn in cases.cases()}
    for a in cases.PROMOTION:
        for b in cases.PROMOTION:
            try:
                rec[f"result_type/{a}/{b}"] = {"dtype": keras.backend.result_type(
                    cases.promotion_type(a), cases.promotion_type(b))}
            except ValueError as e:
                rec[f"result_type/{a}/{b}"] = {"error": type(e).__name__}
    for name, build in cases.LAYERS.items():
        shape = cases.LAYER_INPUT.get(name, lambda a: a)
        for d in cases.DTYPES:
            rec[f"layer/{name}/{d}"] = record(lambda: build(keras)(tensor(d, 0) if name not in cases.LAYER_INPUT
                                                                    else shape(tensor(d, 0))))
    with open(OUT, "w", encoding="utf-8") as fh:
        json.dump(rec, fh, sort_keys=True, separators=(",", ":"))
        fh.write("\n")
    print(f"{len(rec)} cases, {sum('error' in r for r in rec.values())} errors -> {OUT}")


if __name__ == "__main__":
    main()
