"""The layers of the keraslayers task against Keras 3.15: every case recorded by
tools/record_keras_more_layers.py gives Keras's outputs, gradients (every input and weight),
masks and regularization losses from the same weights and inputs; the seeded noise layers draw
Keras's exact numbers in training. Then argument errors, masks and shapes."""
import json
import os

import numpy as np
import pytest

import tapegrad as tf
from tapegrad import keras

FIX = os.path.join(os.path.dirname(__file__), "fixtures", "keras_more_layers")
with open(FIX + ".json", encoding="utf-8") as _f:
    CASES = json.load(_f)["cases"]
DATA = np.load(FIX + ".npz")
RTOL, ATOL = 1e-4, 1e-5
# TensorFlow's gradient of ImageProjectiveTransformV3 resamples the cotangent with the inverse
# transform, an approximation of the sampling's adjoint; tapegrad's is the exact adjoint
# (checked below with the dot-product test instead of against TensorFlow's numbers)
RESAMPLING = {"RandomRotation", "RandomTranslation", "RandomZoom"}


def arr(case, key):
    return DATA[f"{case}/{key}"]


def has(case, key):
    return f"{case}/{key}" in DATA.files


def close(got, want, what):
    got = np.asarray(tf.convert_to_tensor(got))
    assert got.shape == want.shape, (what, got.shape, want.shape)
    np.testing.assert_allclose(got, want, rtol=RTOL, atol=ATOL * max(1.0, np.abs(want).max()), err_msg=what)


@pytest.mark.parametrize("name", sorted(CASES))
def test_layer_matches_keras(name):
    case = CASES[name]
    layers = [getattr(keras.layers, s["class"])(**s["args"]) for s in case["layers"]]
    n_in = case.get("inputs")
    xs = [tf.constant(arr(name, f"x{k}")) for k in range(n_in)] if n_in else [tf.constant(arr(name, "x"))]

    def run():
        h, m = (xs if n_in else xs[0]), None
        for layer in layers:
            kw = dict(case["call"])
            if m is not None:
                kw["mask"] = m
            h, m = layer(h, **kw), layer.compute_mask(h, m)
        return h, m

    run()
    for i, layer in enumerate(layers):
        spec = case["layers"][i]
        assert [list(w.shape) for w in layer.weights] == [w[1] for w in spec["weights"]]
        assert [w.name for w in layer.weights] == [w[0] for w in spec["weights"]]
        layer.set_weights([arr(name, f"w{i}_{j}") for j in range(len(spec["weights"]))])
        missing = set(spec["keras_config"]) - set(layer.get_config()) - {
            "dtype", "trainable", "quantization_config", "lora_rank", "lora_alpha", "gptq_unpacked_column_size"}
        assert not missing, f"get_config lacks {missing}"
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(xs)
        out, outmask = run()
        loss = tf.reduce_sum(out * arr(name, "seed0"))
    close(out, arr(name, "out0"), "output")
    if case["layers"][0]["class"] in RESAMPLING:
        v = np.random.default_rng(0).standard_normal(xs[0].shape).astype(np.float32)

        def again(z):  # a new layer's second call draws what the case's second call drew
            fresh = getattr(keras.layers, case["layers"][0]["class"])(**case["layers"][0]["args"])
            fresh(tf.constant(z), **case["call"])
            return fresh(tf.constant(z), **case["call"]).numpy()
        jv = again(v) - again(np.zeros_like(v))   # minus the fill_value's constant part
        np.testing.assert_allclose(np.sum(tape.gradient(loss, xs[0]).numpy() * v),
                                   np.sum(arr(name, "seed0") * jv), rtol=1e-4)
        return
    for k, x in enumerate(xs):
        key = f"dx{k}" if n_in else "dx"
        g = tape.gradient(loss, x)
        close(tf.zeros_like(x) if g is None else g, arr(name, key), f"d/d{key[1:]}")
    for i, layer in enumerate(layers):
        for j, w in enumerate(layer.weights):
            if has(name, f"dw{i}_{j}"):
                close(tape.gradient(loss, w), arr(name, f"dw{i}_{j}"), f"d/d{w.name}")
    if has(name, "outmask"):
        np.testing.assert_array_equal(np.asarray(outmask), arr(name, "outmask"))
    if case["losses"] is not None:
        got = sum(float(v) for layer in layers for v in layer.losses)
        np.testing.assert_allclose(got, case["losses"], rtol=1e-4)
