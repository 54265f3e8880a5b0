"""Recurrent cells, the generic RNN layer, attention layers and TimeDistributed against Keras
3.15's numbers (tests/fixtures/keras_rnn.json, recorded by tools/record_keras_rnn.py from the
cases in tests/keras_rnn_cases.py), plus their arguments, errors and gradients."""

import numpy as np
import pytest

import tapegrad as tf
import tf_compare
from tapegrad import keras

import keras_rnn_cases as cases

REC = tf_compare.load_fixture("keras_rnn.json")


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
        if w is not None:
            close(g, w, atol=1e-5)


@pytest.mark.parametrize("name", sorted(cases.TRAIN_CASES))
def test_training_matches_keras(name):
    want, got = REC["train"][name], cases.run_train_case(keras, tf, name)
    close(got["losses"], want["losses"], rtol=1e-5)
    for g, w in zip(got["weights"], want["weights"]):
        close(g, w, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("name", sorted(cases.TRAIN_CASES))
def test_fit_matches_keras(name):
    want, got = REC["fit"][name], cases.run_fit_case(keras, name)
    close(got["loss"], want["loss"], rtol=1e-5)
    assert got["accuracy"] == pytest.approx(want["accuracy"])
    close(got["evaluate"], want["evaluate"], rtol=1e-5)


# ---- arguments, errors, configs and modes (Keras 3.15's behaviour, checked by hand) ---------------

L = keras.layers


def test_rnn_in_functional_models_gives_keras_shapes():
    inp = keras.Input((5, 3))
    y, (h1, c1), h2 = L.RNN([L.LSTMCell(4), L.GRUCell(2)], return_state=True)(inp)
    assert (y.shape, h1.shape, c1.shape, h2.shape) == ((None, 2), (None, 4), (None, 4), (None, 2))
    assert L.RNN(L.GRUCell(4), return_sequences=True)(inp).shape == (None, 5, 4)
    assert L.TimeDistributed(L.Dense(2))(inp).shape == (None, 5, 2)
    q, v = keras.Input((4, 6)), keras.Input((5, 6))
    out, scores = L.Attention()([q, v], return_attention_scores=True)
    assert (out.shape, scores.shape) == ((None, 4, 6), (None, 4, 5))
    out, scores = L.MultiHeadAttention(2, 3)(q, v, return_attention_scores=True)
    assert (out.shape, scores.shape) == ((None, 4, 6), (None, 2, 4, 5))
    assert L.MultiHeadAttention(2, 3, output_shape=(2, 7)).compute_output_shape((1, 4, 6), (1, 5, 6)) == (1, 4, 2, 7)


@pytest.mark.parametrize("make, match", [
    (lambda: L.RNN(object()), "should have a `call` method"),
    (lambda: L.RNN(L.Dense(3)), "should have a `state_size` attribute"),
    (lambda: L.LSTMCell(0), "expected a positive integer, got 0"),
    (lambda: L.SimpleRNNCell(2, recurrent_activation="tanh"), "recurrent_activation"),
    (lambda: L.StackedRNNCells([3]), "All cells must have a `call` method"),
    (lambda: L.Attention()(np.ones((2, 3, 4), np.float32)), "must be called on a list of inputs"),
    (lambda: L.Attention()([np.ones((2, 3, 4), np.float32)]), "accepts inputs list of length 2 or 3"),
    (lambda: L.Attention(score_mode="x"), "Expected one of {'dot', 'concat'}"),
    (lambda: L.MultiHeadAttention(0, 3), "`num_heads`, expected a positive integer"),
    (lambda: L.MultiHeadAttention(2, 1.5), "`key_dim`, expected a positive integer"),
    (lambda: L.MultiHeadAttention(2, 3, sliding_window=0), "`sliding_window` must be `None` or a positive"),
    (lambda: L.MultiHeadAttention(2, 3)(np.ones((2, 3, 4), np.float32), np.ones((2, 5, 4), np.float32),
                                        np.ones((2, 6, 4), np.float32)), "of `value` and `key`, except the last"),
    (lambda: L.TimeDistributed(3), "with a `keras.layers.Layer` instance"),
    (lambda: L.TimeDistributed(L.Dense(2))(np.ones((2, 3), np.float32)), "at least 3 dimensions"),
    (lambda: L.TimeDistributed(L.Dense(2))(np.ones((2, 3, 4), np.float32), mask=np.ones((2, 4), bool)),
     "incompatible with the input shape"),
    (lambda: L.RNN(L.LSTMCell(2))(np.ones((2, 3, 4), np.float32), initial_state=[np.zeros((2, 2), np.float32)]),
     "not compatible with `cell.state_size`"),
])
def test_bad_arguments_raise_keras_errors(make, match):
    with pytest.raises(ValueError, match=match):
        make()


def test_configs_have_keras_keys_and_round_trip():
    assert sorted(L.GRUCell(3).get_config()) == sorted(
        ["name", "trainable", "dtype", "units", "activation", "recurrent_activation", "use_bias", "kernel_initializer",
         "recurrent_initializer", "bias_initializer", "kernel_regularizer", "recurrent_regularizer",
         "bias_regularizer", "kernel_constraint", "recurrent_constraint", "bias_constraint", "dropout",
         "recurrent_dropout", "reset_after", "seed"])
    assert {"unit_forget_bias", "recurrent_activation"} <= set(L.LSTMCell(3).get_config())
    assert sorted(L.MultiHeadAttention(2, 3).get_config()) == sorted(
        ["activity_regularizer", "attention_axes", "bias_constraint", "bias_initializer", "bias_regularizer",
         "dropout", "dtype", "kernel_constraint", "kernel_initializer", "kernel_regularizer", "key_dim", "name",
         "num_heads", "output_shape", "seed", "sliding_window", "trainable", "use_bias", "use_gate", "value_dim"])
    assert "score_mode" not in L.AdditiveAttention().get_config()
    rnn = L.RNN([L.LSTMCell(3), L.GRUCell(2, reset_after=False)], return_sequences=True, go_backwards=True)
    again = L.RNN.from_config(rnn.get_config())
    assert [type(c).__name__ for c in again.cell.cells] == ["LSTMCell", "GRUCell"]
    assert again.go_backwards and not again.cell.cells[1].reset_after
    x = np.ones((2, 4, 3), np.float32)
    rnn(x)
    again(x)
    again.set_weights(rnn.get_weights())
    close(again(x), rnn(x))
    td = L.TimeDistributed(L.Dense(3))
    assert type(L.TimeDistributed.from_config(td.get_config()).layer).__name__ == "Dense"
    mha = L.MultiHeadAttention.from_config(L.MultiHeadAttention(2, 3, value_dim=4, use_gate=True).get_config())
    mha(np.ones((1, 2, 5), np.float32), np.ones((1, 3, 5), np.float32))
    assert [w.path for w in mha.weights][4:6] == [f"{mha.name}/gate/kernel", f"{mha.name}/gate/bias"]
    assert tuple(mha.output_dense.kernel.shape) == (2, 4, 5)


def test_stateful_rnn_carries_states_until_reset():
    rnn = L.RNN(L.SimpleRNNCell(1, kernel_initializer="ones", recurrent_initializer="ones", use_bias=False),
                stateful=True)
    x = np.ones((2, 2, 1), np.float32)
    first = rnn(x).numpy()
    close(first, np.tanh(1 + np.tanh(1.0)) * np.ones((2, 1)))
    close(rnn(x), np.tanh(1 + np.tanh(1 + first)))
    with pytest.raises(ValueError, match="batch size of the input sequences must be the same"):
        rnn(np.ones((3, 3, 1), np.float32))
    rnn.reset_states()
    close(rnn(x), first)


def test_masks_propagate_as_keras():
    m = np.array([[True, True, False], [True, False, False]])
    x = np.ones((2, 3, 4), np.float32)
    from tapegrad.keras._keras_tensor import get_mask
    seq = L.RNN(L.GRUCell(2), return_sequences=True)(tf.constant(x), mask=m)
    np.testing.assert_array_equal(np.asarray(get_mask(seq)), m)
    assert L.RNN(L.GRUCell(2)).compute_mask(x, m) is None
    np.testing.assert_array_equal(np.asarray(L.TimeDistributed(L.Dense(2)).compute_mask(x, m)), m)
    e = L.Embedding(10, 6, mask_zero=True)(np.array([[1, 2, 0, 0, 0]]))
    np.testing.assert_array_equal(np.asarray(get_mask(L.MultiHeadAttention(2, 3)(e, e))), [[1, 1, 0, 0, 0]])
    att = L.Attention()
    out = att([np.ones((2, 3, 4), np.float32), np.ones((2, 5, 4), np.float32)],
              mask=[m, np.ones((2, 5), bool)])
    close(out.numpy()[~m], 0.0)
    np.testing.assert_array_equal(np.asarray(att.compute_mask(None, [m, None])), m)


def test_dropout_only_in_training_and_masks_kept_within_a_call():
    x = np.random.default_rng(0).normal(size=(4, 6, 3)).astype(np.float32)
    rnn = L.RNN(L.LSTMCell(5, dropout=0.4, recurrent_dropout=0.3, seed=2), return_sequences=True)
    plain = rnn(x).numpy()
    close(rnn(x, training=False), plain)
    dropped = rnn(x, training=True).numpy()
    assert not np.allclose(dropped, plain)
    assert rnn.cell._masks == {}   # (drawn anew by the next call)
    mha = L.MultiHeadAttention(2, 3, dropout=0.5, seed=1)
    q = np.ones((2, 4, 3), np.float32)
    _, scores = mha(q, q, return_attention_scores=True, training=True)
    close(scores.numpy().sum(-1), 1.0)   # (the scores returned are the weights before dropout)
    assert not np.allclose(mha(q, q, training=True).numpy(), mha(q, q).numpy())


def test_gradient_checker_on_cells_and_attention():
    rng = np.random.default_rng(1)
    x = tf.constant(rng.normal(size=(2, 3, 4)))
    for layer in (L.RNN(L.LSTMCell(3, dtype="float64"), dtype="float64"),
                  L.RNN(L.GRUCell(3, reset_after=False, dtype="float64"), dtype="float64"),
                  L.TimeDistributed(L.Dense(2, dtype="float64"), dtype="float64")):
        err = max(float(np.max(np.abs(a - n))) for a, n in zip(*tf.test.compute_gradient(layer, [x])))
        assert err < 1e-6, (layer, err)
    mha = L.MultiHeadAttention(2, 2, dtype="float64")
    err = max(float(np.max(np.abs(a - n))) for a, n in zip(*tf.test.compute_gradient(lambda q: mha(q, q), [x])))
    assert err < 1e-6, err


def test_unseeded_layers_draw_keras_seeds_in_keras_order():
    # tests/fixtures/keras_rnn_seeds.json (tools/record_keras_rnn_seeds.py): the same seeds in
    # the same order give the same weights, so float32 rounding alone (~1e-5 relative) is left
    want = tf_compare.load_fixture("keras_rnn_seeds.json")["unseeded_layers"]
    got = cases.unseeded_layers(keras)
    assert list(got) == list(want)
    for name in want:
        close(got[name], want[name])


def test_rnn_builds_its_cell_on_nested_inputs_as_keras():
    # Keras 3 builds the cell with the first input's shape alone (a cell reading the second
    # one fails in its own build, as in Keras), where a flat input of rank < 3 is refused
    want = tf_compare.load_fixture("keras_rnn_seeds.json")["nested_build_shape"]
    assert cases.nested_build_shape(keras) == want
