"""Record TensorFlow's DType facts: DataType enum numbers, ``str``/``repr``, and what ``as_dtype`` accepts.

Run with a Python that has TensorFlow installed (development only; tapegrad and CI never use it):

    $TAPEGRAD_TF_PYTHON tools/record_tf_dtypes.py

It writes ``tests/fixtures/tf_dtypes.json``, which ``tests/test_dtypes.py`` replays.
"""
import json
import os

from _tf import quiet_tensorflow

tf = quiet_tensorflow()
OUT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests", "fixtures",
                   "tf_dtypes.json")


def _as_dtype(value):
    try:
        return tf.as_dtype(value).name
    except TypeError as e:
        return {"error": type(e).__name__, "message": str(e)}


def main() -> None:
    names = ["float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
             "uint64", "bool", "complex64", "complex128", "string"]
    dtypes = {n: {"enum": tf.as_dtype(n).as_datatype_enum, "str": str(tf.as_dtype(n)),
                  "repr": repr(tf.as_dtype(n))} for n in names}
    enums = {str(i): _as_dtype(i) for i in range(0, 30)}
    python_types = {t.__name__: _as_dtype(t) for t in (float, bool, object, int, complex, str)}
    makers = {"zeros(1, 1)": tf.zeros(1, 1).dtype.name, "zeros([2], 3)": tf.zeros([2], 3).dtype.name,
              "constant(1.0, dtype=2)": tf.constant(1.0, dtype=2).dtype.name,
              "cast([1, 2], 2)": tf.cast([1, 2], 2).dtype.name, "float32 == 1": tf.float32 == 1}
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump({"tf_version": tf.__version__, "dtypes": dtypes, "enums": enums, "python_types": python_types,
                   "makers": makers}, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
