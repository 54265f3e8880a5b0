"""Keras mixed precision (``mixed_float16``): float16 computations on float32 weights, checked
against TensorFlow 2.21 + Keras 3.15 (tests/fixtures/mixed_precision.json, recorded by
tools/record_mixed_precision.py from the programs in tests/mixed_precision_cases.py).

float16 keeps 11 significant bits, so values are compared to 5e-3 of each array's largest
magnitude (about five float16 steps) and the per-epoch losses to 1e-3 relative; dtypes, class
names and the loss scale exactly.
"""
import json
import pathlib

import numpy as np
import pytest

import tapegrad as tf
from tapegrad import keras
from mixed_precision_cases import CASES

FIXTURE = json.loads((pathlib.Path(__file__).parent / "fixtures" / "mixed_precision.json").read_text())["cases"]


def _value(v):
    if isinstance(v, dict) and "array" in v:
        return np.asarray(v["array"], np.float64)
    return v


@pytest.fixture(autouse=True)
def _float32_policy():
    yield
    keras.mixed_precision.set_global_policy(None)


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_matches_keras(name):
    want = FIXTURE[name]
    got = CASES[name](tf, keras, [np.asarray(w["array"], w["dtype"]) for w in want["initial"]])
    assert set(want) - {"initial"} <= set(got)
    for key, w in want.items():
        if key == "initial":
            continue
        w, g = _value(w), got[key]
        if isinstance(w, np.ndarray):
            g = np.asarray(g, np.float64)
            assert g.shape == w.shape, key
            if key in ("loss", "evaluate"):
                np.testing.assert_allclose(g, w, rtol=1e-3, err_msg=key)
            else:
                np.testing.assert_allclose(g, w, rtol=0, atol=5e-3 * max(np.abs(w).max(), 1e-6),
                                           err_msg=key)
        else:
            assert g == w, key


def test_policy_dtypes():
    p = keras.mixed_precision.DTypePolicy("mixed_float16")
    assert (p.name, p.compute_dtype, p.variable_dtype) == ("mixed_float16", "float16", "float32")
    assert keras.mixed_precision.DTypePolicy("float64").compute_dtype == "float64"
    with pytest.raises(NotImplementedError, match="bfloat16"):
        keras.mixed_precision.set_global_policy("mixed_bfloat16")
    with pytest.raises(ValueError, match="floating-point"):
        keras.mixed_precision.set_global_policy("int32")
    with pytest.raises(ValueError, match="Cannot convert"):
        keras.mixed_precision.DTypePolicy("mixed_float8")


def test_weights_stay_float32_and_get_float32_gradients():
    keras.mixed_precision.set_global_policy("mixed_float16")
    layer = keras.layers.Dense(3)
    x = np.ones((2, 4), "float32")
    with tf.GradientTape() as tape:
        y = layer(x)
        loss = tf.reduce_sum(tf.cast(y, "float32"))
    assert y.dtype == tf.float16 and layer.kernel.dtype == tf.float32
    grads = tape.gradient(loss, layer.trainable_variables)
    assert [g.dtype for g in grads] == [tf.float32, tf.float32]
    # outside a layer's call a weight reads as it is stored
    assert tf.convert_to_tensor(layer.kernel).dtype == tf.float32


def test_autocast_false_weights_and_float32_layers_inside_a_mixed_model():
    keras.mixed_precision.set_global_policy("mixed_float16")
    seen = {}

    class Probe(keras.layers.Layer):
        def build(self, input_shape):
            self.a = self.add_weight(shape=(input_shape[-1],), initializer="ones", name="a")
            self.b = self.add_weight(shape=(input_shape[-1],), initializer="ones", name="b", autocast=False)

        def call(self, x):
            seen[self.name] = (x.dtype, tf.convert_to_tensor(self.a).dtype, tf.convert_to_tensor(self.b).dtype)
            return x * self.a

    inputs = keras.Input((3,))
    h = Probe(name="mixed")(inputs)
    out = Probe(name="full", dtype="float32")(h)
    model = keras.Model(inputs, out)
    model(np.ones((2, 3), "float32"))
    assert seen["mixed"] == (tf.float16, tf.float16, tf.float32)
    assert seen["full"] == (tf.float32, tf.float32, tf.float32)
    assert model.dtype_policy.name == "mixed_float16"


def test_compile_wraps_the_optimizer_in_a_loss_scale_optimizer_unless_asked_not_to():
    keras.mixed_precision.set_global_policy("mixed_float16")
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    model.compile("sgd", "mse")
    assert isinstance(model.optimizer, keras.mixed_precision.LossScaleOptimizer)
    model.compile("sgd", "mse", auto_scale_loss=False)
    assert not isinstance(model.optimizer, keras.mixed_precision.LossScaleOptimizer)


def test_a_mixed_layer_config_round_trips():
    layer = keras.layers.Dense(2, dtype="mixed_float16")
    config = layer.get_config()
    assert config["dtype"] == {"module": "keras", "class_name": "DTypePolicy",  # (Keras 3.15's form)
                               "config": {"name": "mixed_float16"}, "registered_name": None}
    again = keras.layers.Dense.from_config(config)
    assert (again.compute_dtype, again.dtype) == ("float16", "float32")
    keras_form = dict(config, dtype={"module": "keras", "class_name": "DTypePolicy",
                                     "config": {"name": "mixed_float16"}, "registered_name": None})
    assert keras.layers.Dense.from_config(keras_form).compute_dtype == "float16"


def test_a_mixed_model_saves_and_loads(tmp_path):
    keras.mixed_precision.set_global_policy("mixed_float16")
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4), keras.layers.Dense(1, dtype="float32")])
    x = np.random.default_rng(0).normal(size=(5, 3)).astype("float32")
    path = str(tmp_path / "m.keras")
    model.save(path)
    keras.mixed_precision.set_global_policy(None)
    loaded = keras.models.load_model(path)
    assert [layer.compute_dtype for layer in loaded.layers] == ["float16", "float32"]
    np.testing.assert_array_equal(loaded.predict(x, verbose=0), model.predict(x, verbose=0))


def test_a_sparse_gradient_passes_through_cast_as_rows():
    """TF's Cast gradient keeps a gather's IndexedSlices: the rows are cast to the source's dtype
    before anything sums them, so a float16 table gathered with repeated ids cannot overflow."""
    v = tf.Variable(np.ones((5, 2), "float32"))
    with tf.GradientTape() as tape:
        rows = tf.gather(tf.cast(v, tf.float16), [1, 1, 1, 2])
        loss = tf.reduce_sum(rows) * tf.constant(40000.0, tf.float16)
    g = tape.gradient(loss, v)
    assert isinstance(g, tf.IndexedSlices) and g.values.dtype == tf.float32
    np.testing.assert_array_equal(tf.convert_to_tensor(g).numpy()[1], [120000.0, 120000.0])
