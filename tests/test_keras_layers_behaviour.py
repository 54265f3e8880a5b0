"""tapegrad.keras.layers beyond the recorded numbers: the generic gradient checker on every
layer's call, output shapes, config round trips, masks carried from Embedding, dropout in the
recurrent layers, and errors for bad arguments and inputs."""
import numpy as np
import pytest

import tapegrad as tf
from tapegrad import keras
from tapegrad.keras import layers as L

from test_keras_layers import CASES, arr, close, has, make, want

# one layer on a float input; seeded dropout draws new masks at each call, so those cases are
# checked against Keras's numbers only
SINGLE = sorted(n for n, c in CASES.items() if len(c["layers"]) == 1 and c["input_dtype"] == "float32"
                and "dropout" not in n)


def _layer64(name):
    spec = CASES[name]["layers"][0]
    args = dict(spec["args"])
    if "layer" in args:
        args["layer"] = dict(args["layer"], args=dict(args["layer"]["args"], dtype="float64"))
    layer = make(spec["class"], dict(args, dtype="float64"), spec["keras_config"])
    if has(name, "adapt"):
        layer.adapt(arr(name, "adapt"))
    return layer


@pytest.mark.filterwarnings("ignore:LayerNormalization. .rms_scaling=True. is deprecated")
@pytest.mark.parametrize("name", SINGLE)
def test_gradient_checker_on_the_layer_call(name):
    case = CASES[name]
    layer = _layer64(name)
    x = arr(name, "x").astype(np.float64)
    kw = dict(case["call"])
    if has(name, "mask"):
        kw["mask"] = tf.constant(arr(name, "mask"))
    layer(x, **kw)
    if case["layers"][0]["class"] != "Normalization":
        layer.set_weights([arr(name, f"w0_{j}").astype(np.float64) for j in range(len(layer.weights))])
    states = [arr(name, f"state{k}").astype(np.float64) for k in range(2) if has(name, f"state{k}")]

    def f(x, *states):
        return layer(x, initial_state=list(states), **kw) if states else layer(x, **kw)

    order = 1 if case["layers"][0]["class"] in ("LSTM", "GRU", "Bidirectional") else 2
    tf.test.check_grads(f, [tf.constant(x)] + [tf.constant(s) for s in states], order=order)


@pytest.mark.filterwarnings("ignore:LayerNormalization. .rms_scaling=True. is deprecated")
@pytest.mark.parametrize("name", SINGLE)
def test_compute_output_shape_and_config_round_trip(name):
    case = CASES[name]
    layer = _layer64(name)
    x = arr(name, "x")
    kw = dict(case["call"])
    if has(name, "mask"):
        kw["mask"] = tf.constant(arr(name, "mask"))
    out = layer(x, **kw)
    outs = out if isinstance(out, list) else [out]
    shape = layer.compute_output_shape(x.shape)
    shapes = shape if isinstance(shape, list) else [shape]
    assert [tuple(s) for s in shapes] == [tuple(o.shape) for o in outs]
    config = layer.get_config()
    for key, value in case["layers"][0]["keras_config"].items():   # Keras's keys and plain values
        assert key in config, key
        if isinstance(value, (bool, int, float, str)) and key not in ("name", "dtype"):
            got = config[key]
            assert got == value or (isinstance(got, tuple) and list(got) == value), (key, got, value)
    clone = type(layer).from_config(config)
    clone(x, **kw)
    clone.set_weights(layer.get_weights())
    again = clone(x, **kw)
    for a, b in zip(again if isinstance(again, list) else [again], outs):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-12)


def test_embedding_mask_reaches_the_lstm_without_being_passed():
    name = "embedding_lstm"
    emb = L.Embedding(9, 4, mask_zero=True)
    lstm = L.LSTM(3, return_sequences=True)
    x = arr(name, "x")
    h = emb(x)
    lstm(h)
    emb.set_weights([arr(name, "w0_0")])
    lstm.set_weights([arr(name, f"w1_{j}") for j in range(3)])
    close(lstm(emb(x)), want(name, "out0"), "output")
    pooled = L.GlobalAveragePooling1D()(emb(x))     # the mask also reaches the pooling
    e = arr(name, "w0_0")[x] * (x != 0)[..., None]
    np.testing.assert_allclose(pooled.numpy(), e.sum(1) / (x != 0).sum(1, keepdims=True), rtol=1e-6)


@pytest.mark.parametrize("cls", [L.SimpleRNN, L.LSTM, L.GRU])
def test_recurrent_dropout_only_in_training(cls):
    x = np.random.default_rng(0).standard_normal((4, 6, 5)).astype(np.float32)
    plain = cls(3, return_sequences=True)
    drop = cls(3, return_sequences=True, dropout=0.5, recurrent_dropout=0.3, seed=7)
    plain(x), drop(x)
    drop.set_weights(plain.get_weights())
    np.testing.assert_allclose(drop(x, training=False).numpy(), plain(x).numpy(), rtol=1e-6)
    np.testing.assert_allclose(drop(x).numpy(), plain(x).numpy(), rtol=1e-6)   # training defaults to off
    a, b = drop(x, training=True).numpy(), drop(x, training=True).numpy()
    assert not np.allclose(a, plain(x).numpy()) and not np.allclose(a, b)     # new masks per call
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(drop(x, training=True))
    assert all(g is not None for g in tape.gradient(y, drop.trainable_weights))


def test_batchnorm_moving_statistics_and_frozen_layer():
    bn = L.BatchNormalization(momentum=0.5)
    x = np.array([[0.0, 1.0], [2.0, 5.0]], np.float32)
    bn(x, training=True)
    np.testing.assert_allclose(bn.moving_mean.numpy(), [0.5, 1.5])
    np.testing.assert_allclose(bn.moving_variance.numpy(), [1.0, 2.5])
    assert [w.name.split(":")[0] for w in bn.non_trainable_weights] == ["moving_mean", "moving_variance"]
    bn.trainable = False                     # a frozen layer runs in inference mode, as in Keras
    y = bn(x, training=True).numpy()
    np.testing.assert_allclose(bn.moving_mean.numpy(), [0.5, 1.5])
    np.testing.assert_allclose(y, (x - [0.5, 1.5]) / np.sqrt([1.0, 2.5] + np.float32(1e-3)), rtol=1e-5)


def test_stateful_rnn_carries_its_states():
    x = np.random.default_rng(1).standard_normal((2, 4, 3)).astype(np.float32)
    rnn = L.GRU(2, stateful=True)
    ref = L.GRU(2, return_state=True)
    rnn(x), ref(x)
    rnn.reset_states()
    ref.set_weights(rnn.get_weights())
    rnn(x)
    _, h = ref(x)
    np.testing.assert_allclose(rnn(x).numpy(), ref(x, initial_state=h)[0].numpy(), rtol=1e-6)
    rnn.reset_states()
    np.testing.assert_allclose(rnn(x).numpy(), ref(x)[0].numpy(), rtol=1e-6)


def test_conv2d_transpose_with_dilation_is_the_gradient_of_a_dilated_conv2d():
    # TensorFlow's CPU kernels have no dilated transposed convolution to record: check the
    # definition instead (the transpose of Conv2D with the same kernel, dilation and padding)
    rng = np.random.default_rng(2)
    layer = L.Conv2DTranspose(2, 3, dilation_rate=2, padding="same", use_bias=False)
    y = rng.standard_normal((1, 6, 6, 3)).astype(np.float32)
    out = layer(y)
    k = layer.kernel
    x = tf.zeros(out.shape)
    with tf.GradientTape() as tape:
        tape.watch(x)
        z = tf.nn.conv2d(x, k, 1, "SAME", dilations=2)
    np.testing.assert_allclose(out.numpy(), tape.gradient(z, x, output_gradients=y).numpy(), rtol=1e-5, atol=1e-6)


def test_a_small_cnn_trains():
    rng = np.random.default_rng(3)
    x = rng.random((32, 8, 8, 1)).astype(np.float32)
    y = (x.mean(axis=(1, 2, 3)) > 0.5).astype(np.int32)
    net = [L.Conv2D(4, 3, activation="relu", kernel_initializer=keras.initializers.GlorotUniform(seed=1)),
           L.BatchNormalization(momentum=0.5), L.MaxPooling2D(), L.GlobalAveragePooling2D(),
           keras.layers.Dense(2, kernel_initializer=keras.initializers.GlorotUniform(seed=2))]

    def loss_fn():
        h = x
        for layer in net:
            h = layer(h, training=True)
        return tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(y, h))

    losses = []
    for _ in range(30):
        with tf.GradientTape() as tape:
            loss = loss_fn()
        losses.append(float(loss))
        ws = [w for layer in net for w in layer.trainable_weights]
        for w, g in zip(ws, tape.gradient(loss, ws)):
            w.assign_sub(0.1 * g)
    assert losses[-1] < 0.8 * losses[0], losses


# --------------------------------------------------------------------------- bad input
@pytest.mark.parametrize("make_layer, words", [
    (lambda: L.Conv2D(4, 0), ["Conv2D", "kernel_size", "> 0"]),
    (lambda: L.Conv2D(4, (3, -1)), ["Conv2D", "kernel_size"]),
    (lambda: L.Conv1D(0, 3), ["Conv1D", "filters"]),
    (lambda: L.Conv2D(4, 3, padding="causal"), ["Conv2D", "padding", "'valid', 'same'"]),
    (lambda: L.Conv2D(4, 3, padding="SAMEE"), ["Conv2D", "padding"]),
    (lambda: L.Conv2D(4, 3, data_format="NHWC"), ["Conv2D", "data_format", "channels_last"]),
    (lambda: L.Conv2D(4, 3, strides=2, dilation_rate=2), ["Conv2D", "strides", "dilation_rate"]),
    (lambda: L.Conv2D(5, 3, groups=2), ["Conv2D", "groups"]),
    (lambda: L.Conv2DTranspose(2, 3, strides=2, output_padding=2), ["Conv2DTranspose", "output_padding"]),
    (lambda: L.MaxPooling2D(pool_size=0), ["MaxPooling2D", "pool_size"]),
    (lambda: L.MaxPooling2D(2, strides=0), ["MaxPooling2D", "strides"]),
    (lambda: L.AveragePooling1D(2, padding="full"), ["AveragePooling1D", "padding"]),
    (lambda: L.Embedding(0, 3), ["Embedding", "input_dim"]),
    (lambda: L.LSTM(0), ["LSTM", "units"]),
    (lambda: L.Bidirectional(L.Dense(3)), ["Bidirectional", "LSTM"]),
    (lambda: L.Bidirectional(L.GRU(2), merge_mode="max"), ["Bidirectional", "merge mode"]),
    (lambda: L.UpSampling2D(interpolation="bicubic"), ["UpSampling2D", "interpolation"]),
    (lambda: L.ZeroPadding2D((1, 2, 3)), ["ZeroPadding2D", "padding"]),
    (lambda: L.Normalization(mean=1.0), ["Normalization", "variance"]),
])
def test_bad_arguments_name_the_layer_and_argument(make_layer, words):
    with pytest.raises(ValueError) as e:
        make_layer()
    for w in words:
        assert w in str(e.value), (w, str(e.value))




def test_what_tapegrad_does_not_implement_says_so():
    with pytest.raises(NotImplementedError, match="renorm"):
        L.BatchNormalization(renorm=True)
    with pytest.raises(NotImplementedError, match="lora_rank"):
        L.Embedding(5, 2, lora_rank=2)
    with pytest.raises(ValueError, match="quantization_config"):  # (a config, or a saved config's dict)
        L.Embedding(5, 2, quantization_config={"mode": "int8"})


def test_unroll_and_use_cudnn_change_nothing():
    x = np.random.default_rng(4).standard_normal((2, 3, 4)).astype(np.float32)
    a, b = L.LSTM(2), L.LSTM(2, unroll=True, use_cudnn=False)
    a(x), b(x)
    b.set_weights(a.get_weights())
    np.testing.assert_array_equal(a(x).numpy(), b(x).numpy())


def test_unknown_keyword_arguments():
    for make_layer in (lambda: L.Conv2D(4, 3, kernel_sizes=3), lambda: L.LSTM(3, return_sequence=True),
                       lambda: L.BatchNormalization(momentun=0.9)):
        with pytest.raises(TypeError, match="Unrecognized keyword argument"):
            make_layer()


def test_built_layers_reject_inputs_of_the_wrong_rank_or_channels():
    conv = L.Conv2D(4, 3)
    conv(np.zeros((1, 5, 5, 3), np.float32))
    with pytest.raises(ValueError, match=r"Conv2D.*expected axis 3 of input shape to have value 3"):
        conv(np.zeros((1, 5, 5, 2), np.float32))
    with pytest.raises(ValueError, match=r"Conv2D.*expected ndim=4, found ndim=3"):
        conv(np.zeros((5, 5, 3), np.float32))
    lstm = L.LSTM(2)
    lstm(np.zeros((1, 4, 3), np.float32))
    with pytest.raises(ValueError, match=r"LSTM: expected an input of shape \(batch, timesteps, 3\)"):
        lstm(np.zeros((1, 4, 5), np.float32))
    with pytest.raises(ValueError, match=r"LSTM: `initial_state` must be 2 tensor"):
        lstm(np.zeros((1, 4, 3), np.float32), initial_state=[np.zeros((1, 2), np.float32)])
    bn = L.BatchNormalization()
    bn(np.zeros((2, 3), np.float32))
    with pytest.raises(ValueError, match="BatchNormalization"):
        bn(np.zeros((2, 4), np.float32))
    with pytest.raises(ValueError, match="Cropping2D: values in `cropping`"):
        L.Cropping2D(3)(np.zeros((1, 5, 8, 1), np.float32))
    with pytest.raises(ValueError, match=r"Conv2D .*computed output size would be negative.*kernel_size=\(5, 5\)"):
        L.Conv2D(1, 5)(np.zeros((1, 3, 3, 1), np.float32))


@pytest.mark.filterwarnings("ignore:LayerNormalization. .rms_scaling=True. is deprecated")
@pytest.mark.parametrize("name", sorted(n for n, c in CASES.items() if len(c["layers"]) == 1))
def test_symbolic_call_with_an_unknown_batch_size(name):
    # the path keras.Input / Sequential take: shapes from compute_output_shape, batch left unknown
    from tapegrad.keras._keras_tensor import KerasTensor
    case = CASES[name]
    spec = case["layers"][0]
    layer = make(spec["class"], spec["args"], spec["keras_config"])
    out = layer(KerasTensor((None,) + tuple(case["input_shape"][1:]), case["input_dtype"]))
    outs = out if isinstance(out, list) else [out]
    assert [tuple(o.shape) for o in outs] == [(None,) + arr(name, f"out{k}").shape[1:] for k in range(len(outs))]


def test_layers_in_a_sequential_model_keep_kerass_numbers_and_masks():
    name = "embedding_lstm"
    model = keras.Sequential([keras.Input((6,), dtype="int32"), L.Embedding(9, 4, mask_zero=True),
                              L.LSTM(3, return_sequences=True)])
    model.set_weights([arr(name, "w0_0")] + [arr(name, f"w1_{j}") for j in range(3)])
    close(model(arr(name, "x")), want(name, "out0"), "Sequential output")
    assert [tuple(w.shape) for w in model.weights] == [(9, 4), (4, 12), (3, 12), (12,)]
