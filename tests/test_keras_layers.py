"""tapegrad.keras.layers against Keras 3.15: every recorded case (tools/record_keras_layers.py)
gives Keras's outputs, gradients (inputs, initial states, every weight), moving statistics,
masks and regularization losses, from the same weights and inputs."""
import os

import numpy as np
import pytest

import tapegrad as tf
import tf_compare
from tapegrad import keras

FIX = os.path.join(os.path.dirname(__file__), "fixtures", "keras_layers")
CASES = tf_compare.load_fixture("keras_layers/cases.json")["cases"]
DATA = np.load(os.path.join(FIX, "layers.npz"))
RTOL, ATOL = 1e-4, 1e-5


def arr(case, key):
    return DATA[f"{case}/{key}"]


def want(case, key):
    """A recorded array for comparison: it carries TensorFlow's spread (tests/tf_compare.py)."""
    return tf_compare.recorded(arr(case, key), 'keras_layers/layers.npz', f"{case}/{key}")


def has(case, key):
    return f"{case}/{key}" in DATA.files


def make(cls, args, keras_config=None):
    args = {k: (make(v["class"], v["args"]) if isinstance(v, dict) and "class" in v else v) for k, v in args.items()}
    for k, v in (keras_config or {}).items():   # regularizers recorded in Keras's config
        if k.endswith("_regularizer") and v is not None:
            args[k] = keras.regularizers.get({"class_name": v["class_name"], "config": v["config"]})
    return getattr(keras.layers, cls)(**args)


def run_case(name):
    case = CASES[name]
    layers = [make(spec["class"], spec["args"], spec["keras_config"]) for spec in case["layers"]]
    x = tf.constant(arr(name, "x"))
    mask = tf.constant(arr(name, "mask")) if has(name, "mask") else None
    states = [tf.constant(arr(name, f"state{k}")) for k in range(2) if has(name, f"state{k}")] or None
    if has(name, "adapt"):
        layers[0].adapt(arr(name, "adapt"))

    def run():
        h, m = x, mask
        for i, layer in enumerate(layers):
            kw = dict(case["call"])
            if m is not None:
                kw["mask"] = m
            if i == len(layers) - 1 and states is not None:
                kw["initial_state"] = states
            h, m = layer(h, **kw), layer.compute_mask(h, m)
        return h, m

    run()
    for i, layer in enumerate(layers):
        n = len(case["layers"][i]["weights"])
        assert [list(w.shape) for w in layer.weights] == [w[1] for w in case["layers"][i]["weights"]]
        if case["layers"][i]["class"] != "Normalization":
            layer.set_weights([arr(name, f"w{i}_{j}") for j in range(n)])
    watched = ([] if x.dtype.is_integer else [x]) + (states or [])
    with tf.GradientTape(persistent=True) as tape:
        if watched:
            tape.watch(watched)
        out, outmask = run()
        outs = out if isinstance(out, (list, tuple)) else [out]
        loss = tf.add_n([tf.reduce_sum(o * arr(name, f"seed{k}")) for k, o in enumerate(outs)])
    return case, layers, outs, outmask, tape, loss, x, states


def close(got, want, what):
    got = np.asarray(tf.convert_to_tensor(got))
    assert got.shape == want.shape, (what, got.shape, want.shape)
    tf_compare.assert_close(got, want, rtol=RTOL, atol=ATOL, err_msg=what)


@pytest.mark.filterwarnings("ignore:LayerNormalization. .rms_scaling=True. is deprecated")
@pytest.mark.parametrize("name", sorted(CASES))
def test_layer_matches_keras(name):
    case, layers, outs, outmask, tape, loss, x, states = run_case(name)
    assert len(outs) == case["outputs"]
    for k, o in enumerate(outs):
        close(o, want(name, f"out{k}"), f"output {k}")
    if has(name, "dx"):
        close(tape.gradient(loss, x), want(name, "dx"), "d/dx")
    for k, s in enumerate(states or []):
        close(tape.gradient(loss, s), want(name, f"dstate{k}"), f"d/dstate{k}")
    for i, layer in enumerate(layers):
        for j, w in enumerate(layer.weights):
            if has(name, f"dw{i}_{j}"):
                close(tape.gradient(loss, w), want(name, f"dw{i}_{j}"), f"d/d{w.name}")
            close(w, want(name, f"after{i}_{j}"), f"{w.name} after the call")
    if isinstance(outmask, (list, tuple)):
        outmask = outmask[0]
    if has(name, "outmask"):
        np.testing.assert_array_equal(np.asarray(outmask), arr(name, "outmask"))
    else:
        assert outmask is None or name.startswith(("global", "embedding_")), outmask
    if case["losses"] is not None:
        got = sum(float(v) for layer in layers for v in layer.losses)
        tf_compare.assert_close(got, case["losses"], rtol=1e-4, err_msg="losses")
