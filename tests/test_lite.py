"""tf.lite: TFLiteConverter and Interpreter against TensorFlow 2.21's (tests/fixtures/tf_lite.json,
written by tools/record_tf_lite.py), and the converted bytes' safety."""
import io
import os
import zipfile

import numpy as np
import pytest

import tapegrad as tf
import tf_compare

DATA = tf_compare.load_fixture("tf_lite.json")
X = np.arange(8, dtype=np.float32).reshape(2, 4) / 8


def _details(ds):
    return [{"name": d["name"], "shape": d["shape"].tolist(),
             "shape_signature": d["shape_signature"].tolist(), "dtype": d["dtype"].__name__}
            for d in ds]


def _keras_model():
    tf.keras.utils.set_random_seed(0)
    return tf.keras.Sequential([tf.keras.Input((4,), name="feat"),
                                tf.keras.layers.Dense(3, activation="relu"), tf.keras.layers.Dense(2)])


def _error(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001
        return type(e).__name__
    return None


def test_a_keras_model_converts_and_runs_as_in_tensorflow():
    want = DATA["keras"]
    m = _keras_model()
    it = tf.lite.Interpreter(model_content=tf.lite.TFLiteConverter.from_keras_model(m).convert())
    assert it.get_signature_list() == want["signatures"]
    assert _error(lambda: it.set_tensor(0, X[:1])) == want["set_before_allocate"]
    it.allocate_tensors()
    assert _details(it.get_input_details()) == want["inputs"]
    assert _details(it.get_output_details()) == want["outputs"]
    i, o = it.get_input_details()[0]["index"], it.get_output_details()[0]["index"]
    assert _error(lambda: it.set_tensor(i, X)) == want["set_wrong_shape"]
    assert _error(lambda: it.set_tensor(i, X[:1].astype(np.float64))) == want["set_wrong_dtype"]
    it.resize_tensor_input(i, [2, 4])
    it.allocate_tensors()
    it.set_tensor(i, X)
    it.invoke()
    tf_compare.assert_close(it.get_tensor(o), np.array(want["invoke"], np.float32), rtol=1e-5, atol=1e-6)
    assert _details(it.get_output_details()) == want["outputs_after_resize"]
    got = it.get_signature_runner()(feat=X)
    assert list(got) == list(want["runner"])
    tf_compare.assert_close(got["output_0"], np.array(want["runner"]["output_0"], np.float32),
                            rtol=1e-5, atol=1e-6)
    tf_compare.assert_close(m(X).numpy(), np.array(want["model"], np.float32), rtol=1e-5, atol=1e-6)


def test_a_saved_model_with_two_signatures(tmp_path):
    want = DATA["module"]

    class M(tf.Module):
        def __init__(self):
            self.w = tf.Variable([[1.0, 2.0], [3.0, 4.0]])

        @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32, name="a")])
        def f(self, a):
            return {"y": tf.matmul(a, self.w), "z": tf.reduce_sum(a, axis=1)}

    mod = M()
    tf.saved_model.save(mod, str(tmp_path), signatures={"serving_default": mod.f, "other": mod.f})
    it = tf.lite.Interpreter(model_content=tf.lite.TFLiteConverter.from_saved_model(str(tmp_path)).convert())
    it.allocate_tensors()
    assert it.get_signature_list() == want["signatures"]
    assert _details(it.get_input_details()) == want["inputs"]
    assert _details(it.get_output_details()) == want["outputs"]
    got = it.get_signature_runner("serving_default")(a=np.ones((3, 2), np.float32))
    assert {k: v.tolist() for k, v in got.items()} == want["runner"]
    assert _error(lambda: it.get_signature_runner()) == want["runner_without_key"]
    only = tf.lite.TFLiteConverter.from_saved_model(str(tmp_path), signature_keys=["other"])
    assert tf.lite.Interpreter(model_content=only.convert()).get_signature_list() == want["only_other"]
    conc = tf.lite.TFLiteConverter.from_concrete_functions([mod.f.get_concrete_function()], mod)
    assert tf.lite.Interpreter(model_content=conc.convert()).get_signature_list() == want["concrete"]
    with pytest.raises(ValueError, match="Invalid signature key"):
        tf.lite.TFLiteConverter.from_saved_model(str(tmp_path), signature_keys=["nope"]).convert()


def test_keras_export_litert_writes_a_file_the_interpreter_reads(tmp_path, capsys):
    m = _keras_model()
    path = os.path.join(tmp_path, "m.tflite")
    m.export(path, format="litert")
    assert "Saved artifact" in capsys.readouterr().out
    it = tf.lite.Interpreter(model_path=path)
    np.testing.assert_allclose(it.get_signature_runner()(feat=X)["output_0"], m(X).numpy(), rtol=1e-6)
    with pytest.raises(ValueError, match=".tflite"):
        m.export(os.path.join(tmp_path, "m.bin"), format="litert")


def test_quantizing_options_warn_once_and_integer_io_is_refused():
    m = _keras_model()
    c = tf.lite.TFLiteConverter.from_keras_model(m)
    c.optimizations = [tf.lite.Optimize.DEFAULT]
    tf.lite._warned_quantize = False
    with pytest.warns(UserWarning, match="float32"):
        blob = c.convert()
    it = tf.lite.Interpreter(model_content=blob)
    np.testing.assert_allclose(it.get_signature_runner()(feat=X)["output_0"], m(X).numpy(), rtol=1e-6)
    c.inference_input_type = tf.int8
    with pytest.raises(ValueError, match="integer-only"):
        c.convert()


def test_invoke_before_allocate_and_bad_indices():
    it = tf.lite.Interpreter(model_content=tf.lite.TFLiteConverter.from_keras_model(_keras_model()).convert())
    with pytest.raises(RuntimeError, match="allocate_tensors"):
        it.invoke()
    it.allocate_tensors()
    with pytest.raises(ValueError, match="not one of"):
        it.set_tensor(99, X[:1])
    with pytest.raises(ValueError, match="not set"):
        it.invoke()
    with pytest.raises(ValueError, match="Invalid Input name"):
        it.get_signature_runner()(other=X)


def test_foreign_or_damaged_bytes_are_refused_without_running_anything(tmp_path):
    with pytest.raises(ValueError, match="TensorFlow Lite flatbuffer"):
        tf.lite.Interpreter(model_content=b"\x1c\x00\x00\x00TFL3" + b"\x00" * 32)
    with pytest.raises(ValueError, match="not a model converted"):
        tf.lite.Interpreter(model_content=b"hello")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("../escape.txt", "x")
        z.writestr("lite.json", '{"signatures": ["serving_default"]}')
    with pytest.raises(ValueError, match="damaged"):
        tf.lite.Interpreter(model_content=tf.lite._MAGIC + buf.getvalue())
    assert not os.path.exists(os.path.join(os.path.dirname(str(tmp_path)), "escape.txt"))
    with pytest.raises(ValueError, match="either model_path or model_content"):
        tf.lite.Interpreter()
