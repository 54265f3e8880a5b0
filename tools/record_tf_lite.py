"""Record what tf.lite's converter and interpreter give under TensorFlow 2.21 (development only).

    $TAPEGRAD_TF_PYTHON tools/record_tf_lite.py

Writes tests/fixtures/tf_lite.json: for a seeded Keras model and a tf.Module saved with two
signatures, the signature lists, the input and output details (names, shapes, shape signatures,
dtypes), the outputs of the runner and of set_tensor/invoke after a resize, and the error types of
misuse. tests/test_lite.py compares tapegrad's tf.lite with them.
"""
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _tf import one_thread_tensorflow  # noqa: E402

FIXTURE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests",
                       "fixtures", "tf_lite.json")


def details(ds):
    return [{"name": d["name"], "shape": d["shape"].tolist(),
             "shape_signature": d["shape_signature"].tolist(), "dtype": d["dtype"].__name__}
            for d in ds]


def error(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 (the type is the record)
        return type(e).__name__
    return None


def main():
    tf = one_thread_tensorflow()
    import keras
    import numpy as np
    out = {"versions": {"tensorflow": tf.__version__, "keras": keras.__version__}}
    keras.utils.set_random_seed(0)
    m = keras.Sequential([keras.Input((4,), name="feat"), keras.layers.Dense(3, activation="relu"),
                          keras.layers.Dense(2)])
    x = (np.arange(8, dtype=np.float32).reshape(2, 4) / 8)
    it = tf.lite.Interpreter(model_content=tf.lite.TFLiteConverter.from_keras_model(m).convert())
    rec = {"signatures": it.get_signature_list(),
           "set_before_allocate": error(lambda: it.set_tensor(0, x[:1]))}
    it.allocate_tensors()
    rec["inputs"], rec["outputs"] = details(it.get_input_details()), details(it.get_output_details())
    i, o = it.get_input_details()[0]["index"], it.get_output_details()[0]["index"]
    rec["set_wrong_shape"] = error(lambda: it.set_tensor(i, x))
    rec["set_wrong_dtype"] = error(lambda: it.set_tensor(i, x[:1].astype(np.float64)))
    it.resize_tensor_input(i, [2, 4])
    it.allocate_tensors()
    it.set_tensor(i, x)
    it.invoke()
    rec["invoke"] = it.get_tensor(o).tolist()
    rec["outputs_after_resize"] = details(it.get_output_details())
    rec["runner"] = {k: v.tolist() for k, v in it.get_signature_runner()(feat=x).items()}
    rec["model"] = m(x).numpy().tolist()
    out["keras"] = rec

    class M(tf.Module):
        def __init__(self):
            self.w = tf.Variable([[1.0, 2.0], [3.0, 4.0]])

        @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32, name="a")])
        def f(self, a):
            return {"y": tf.matmul(a, self.w), "z": tf.reduce_sum(a, axis=1)}

    mod = M()
    d = tempfile.mkdtemp()
    tf.saved_model.save(mod, d, signatures={"serving_default": mod.f, "other": mod.f})
    it2 = tf.lite.Interpreter(model_content=tf.lite.TFLiteConverter.from_saved_model(d).convert())
    it2.allocate_tensors()
    out["module"] = {
        "signatures": it2.get_signature_list(),
        "inputs": details(it2.get_input_details()), "outputs": details(it2.get_output_details()),
        "runner": {k: v.tolist() for k, v in it2.get_signature_runner("serving_default")(
            a=np.ones((3, 2), np.float32)).items()},
        "runner_without_key": error(lambda: it2.get_signature_runner()),
        "only_other": tf.lite.Interpreter(model_content=tf.lite.TFLiteConverter.from_saved_model(
            d, signature_keys=["other"]).convert()).get_signature_list(),
        "concrete": tf.lite.Interpreter(model_content=tf.lite.TFLiteConverter.from_concrete_functions(
            [mod.f.get_concrete_function()], mod).convert()).get_signature_list(),
    }
    with open(FIXTURE, "w", encoding="utf-8") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
