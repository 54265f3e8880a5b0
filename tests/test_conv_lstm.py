"""ConvLSTM1D/2D/3D against Keras 3.15's numbers (tests/fixtures/keras_conv_lstm.json, recorded by
tools/record_keras_conv_lstm.py from tests/conv_lstm_cases.py): outputs and gradients, seeded
weights, a next-frame model's fit, configs; plus masks, states, dropout and errors."""
import os

import numpy as np
import pytest

import tapegrad as tf
import tf_compare
from tapegrad import keras

import conv_lstm_cases as cases

REC = tf_compare.load_fixture("keras_conv_lstm.json")
L = keras.layers


def close(got, want, rtol=1e-5, atol=1e-6):
    tf_compare.assert_close(np.asarray(got, np.float64), want, rtol=rtol, atol=atol, broadcast=True)


@pytest.mark.parametrize("name", sorted(cases.LAYER_CASES))
def test_layer_matches_keras(name):
    want, got = REC["layers"][name], cases.run_layer_case(keras, tf, name)
    assert got["weights"] == want["weights"]
    assert got["paths"] == want["paths"]
    assert len(got["outs"]) == len(want["outs"])
    for g, w in zip(got["outs"], want["outs"]):
        close(g, w)
    assert len(got["grads"]) == len(want["grads"])
    for i, (g, w) in enumerate(zip(got["grads"], want["grads"])):
        assert (g is None) == (w is None), i
        if w is not None:   # sums over windows, gates and steps: float32 sums in another order
            close(g, w, atol=1e-5)


@pytest.mark.parametrize("name", sorted(cases.INIT_CASES))
def test_seeded_weights_equal_keras(name):
    want, got = REC["init"][name], cases.run_init_case(keras, tf, name)
    assert len(got["weights"]) == len(want["weights"])
    for g, w in zip(got["weights"], want["weights"]):   # the same draws; orthogonal goes through a QR
        close(g, w, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", sorted(cases.FIT_CASES))
def test_fit_of_a_next_frame_model_matches_keras(name):
    want, got = REC["fit"][name], cases.run_fit_case(keras, name)
    # two epochs of Adam (lr 0.01) from the same seeded weights: float32 differences grow
    close(got["loss"], want["loss"], rtol=1e-4)
    for g, w in zip(got["weights"], want["weights"]):
        close(g, w, rtol=1e-4, atol=1e-5)
    close(got["predict"], want["predict"], rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("name", sorted(cases.CONFIG_CASES))
def test_configs_equal_keras_and_round_trip(name):
    want = REC["configs"][name]
    got = cases.run_config_case(keras, name)
    assert got["class_name"] == want["class_name"] and got["module"] == want["module"]
    cfg, kcfg = got["config"], want["config"]
    assert set(cfg) == set(kcfg)
    for key in kcfg:
        if key in ("dtype",):
            continue
        g = list(cfg[key]) if isinstance(cfg[key], tuple) else cfg[key]
        if isinstance(kcfg[key], dict):   # initializers, regularizers, constraints by name and arguments
            assert g["class_name"] == kcfg[key]["class_name"], key
            assert {k: v for k, v in g["config"].items() if k in kcfg[key]["config"]} == kcfg[key]["config"], key
        else:
            assert g == kcfg[key], key
    layer = keras.layers.deserialize(want)   # Keras's own config builds tapegrad's layer
    assert type(layer).__name__ == want["class_name"]
    again = keras.layers.deserialize(got)
    assert again.get_config() == layer.get_config()


def test_saved_model_reloads_with_the_same_outputs(tmp_path):
    model = cases.next_frame_model(keras)
    x = cases._frames()[0]
    path = str(tmp_path / "next_frame.keras")
    model.save(path)
    again = keras.models.load_model(path)
    np.testing.assert_allclose(again.predict(x, verbose=0), model.predict(x, verbose=0), rtol=1e-6, atol=1e-7)


def test_shapes_states_and_functional_models():
    inp = keras.Input((None, 6, 5, 2))
    y, h, c = L.ConvLSTM2D(3, (3, 2), strides=(2, 1), return_state=True)(inp)
    assert tuple(y.shape) == tuple(h.shape) == tuple(c.shape) == (None, 2, 4, 3)
    layer = L.ConvLSTM2D(3, 3, padding="same", return_sequences=True)
    assert layer.compute_output_shape((2, 4, 6, 5, 2)) == (2, 4, 6, 5, 3)
    assert (layer.filters, layer.kernel_size, layer.padding, layer.unit_forget_bias) == (3, (3, 3), "same", True)
    out = L.ConvLSTM1D(2, 3, data_format="channels_first", return_state=True)(tf.ones([2, 4, 3, 7]))
    assert [tuple(o.shape) for o in out] == [(2, 2, 5)] * 3


def test_masked_steps_keep_states_and_repeat_outputs():
    layer = L.ConvLSTM2D(2, 3, padding="same", return_sequences=True, return_state=True)
    x = np.random.default_rng(0).normal(size=(2, 4, 4, 4, 1)).astype(np.float32)
    mask = np.array([[True, True, False, False], [True, True, True, True]])
    seq, h, c = layer(x, mask=mask)
    seq2, h2, c2 = layer(x[:, :2])
    np.testing.assert_allclose(seq.numpy()[0, 2], seq.numpy()[0, 1], rtol=0, atol=0)   # repeated
    np.testing.assert_allclose(h.numpy()[0], h2.numpy()[0], rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(c.numpy()[0], c2.numpy()[0], rtol=1e-6, atol=1e-7)


def test_stateful_layer_carries_states_until_reset():
    layer = L.ConvLSTM1D(2, 3, padding="same", stateful=True)
    x = np.ones((2, 3, 5, 1), np.float32)
    first = layer(x).numpy()
    second = layer(x).numpy()
    assert not np.allclose(first, second)
    layer.reset_states()
    np.testing.assert_allclose(layer(x).numpy(), first, rtol=1e-6, atol=1e-7)
    with pytest.raises(ValueError, match="batch size"):
        layer(np.ones((3, 3, 5, 1), np.float32))


def test_dropout_masks_apply_in_training_only_and_differ_between_calls():
    layer = L.ConvLSTM2D(2, 3, padding="same", dropout=0.5, recurrent_dropout=0.5, seed=1)
    x = np.ones((2, 3, 4, 4, 1), np.float32)
    plain = layer(x).numpy()
    np.testing.assert_allclose(layer(x, training=False).numpy(), plain, rtol=1e-6, atol=1e-7)
    a, b = layer(x, training=True).numpy(), layer(x, training=True).numpy()
    assert not np.allclose(a, plain) and not np.allclose(a, b)


def test_gradient_checker_on_a_small_layer():
    layer = L.ConvLSTM1D(2, 2, padding="same", dtype="float64", return_sequences=True)
    x = tf.constant(np.random.default_rng(2).normal(size=(1, 3, 4, 2)))
    layer(x)
    tf.test.check_grads(layer, [x], order=1, modes=["rev", "fwd"])


@pytest.mark.parametrize("make, error, match", [
    (lambda: L.ConvLSTM2D(2, 3, strides=2, dilation_rate=2), ValueError, "not compatible with `dilation_rate"),
    (lambda: L.ConvLSTM2D(2, 3, padding="causal"), ValueError, "padding"),
    (lambda: L.ConvLSTM2D(0, 3), ValueError, "filters"),
    (lambda: L.ConvLSTM2D(2, (3, 3, 3)), ValueError, "kernel_size"),
])
def test_bad_arguments_raise_keras_errors(make, error, match):
    with pytest.raises(error, match=match):
        make()


def test_bad_inputs_raise_clear_errors():
    with pytest.raises(ValueError, match="expected ndim=5"):
        L.ConvLSTM2D(2, 3)(tf.ones([2, 3, 4, 4]))
    with pytest.raises(ValueError, match="static input shapes for the spatial dimension"):
        L.ConvLSTM2D(2, 3)(keras.Input((3, None, 4, 1)))


def test_regularizers_and_bidirectional():
    layer = L.ConvLSTM2D(2, 3, padding="same", kernel_regularizer="l2", activity_regularizer="l1")
    layer(tf.ones([2, 3, 4, 4, 1]))
    assert len(layer.losses) == 2
    bi = L.Bidirectional(L.ConvLSTM2D(2, 3, padding="same", return_sequences=True))
    y = bi(tf.ones([2, 3, 4, 4, 1]), mask=np.array([[True, True, False], [True, True, True]]))
    assert tuple(y.shape) == (2, 3, 4, 4, 4) and len(bi.weights) == 6


def test_a_model_keras_saved_loads_with_keras_outputs():
    pytest.importorskip("h5py")   # Keras's archives keep their weights in HDF5
    model = keras.models.load_model(os.path.join(tf_compare.FIXTURES, "keras_conv_lstm.keras"))
    _, x = cases.saved_model(keras)
    assert [type(layer).__name__ for layer in model.layers][1:] == ["ConvLSTM2D", "Reshape", "ConvLSTM1D"]
    assert model.layers[3].go_backwards
    close(model.predict(x, verbose=0), REC["saved_predict"])
