"""The layers of the keraslayers task against Keras 3.15: every case recorded by
tools/record_keras_more_layers.py gives Keras's outputs, gradients (every input and weight),
masks and regularization losses from the same weights and inputs; the seeded noise layers draw
Keras's exact numbers in training. Then argument errors, masks and shapes."""
import os

import numpy as np
import pytest

import tapegrad as tf
import tf_compare
from tapegrad import keras

FIX = os.path.join(os.path.dirname(__file__), "fixtures", "keras_more_layers")
CASES = tf_compare.load_fixture("keras_more_layers.json")["cases"]
DATA = np.load(FIX + ".npz")
RTOL, ATOL = 1e-4, 1e-5
# TensorFlow's gradient of ImageProjectiveTransformV3 resamples the cotangent with the inverse
# transform, an approximation of the sampling's adjoint; tapegrad's is the exact adjoint
# (checked below with the dot-product test instead of against TensorFlow's numbers)
RESAMPLING = {"RandomRotation", "RandomTranslation", "RandomZoom"}


def arr(case, key):
    return DATA[f"{case}/{key}"]


def want(case, key):
    """A recorded array for comparison: it carries TensorFlow's spread (tests/tf_compare.py)."""
    return tf_compare.recorded(arr(case, key), 'keras_more_layers.npz', f"{case}/{key}")


def has(case, key):
    return f"{case}/{key}" in DATA.files


def close(got, want, what):
    got = np.asarray(tf.convert_to_tensor(got))
    assert got.shape == want.shape, (what, got.shape, want.shape)
    tf_compare.assert_close(got, want, rtol=RTOL, atol=ATOL, err_msg=what)


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
        if xs[0].dtype.is_floating:
            tape.watch(xs)
        out, outmask = run()
        loss = tf.reduce_sum(tf.cast(out, tf.float32) * arr(name, "seed0"))
    assert out.dtype.name == arr(name, "out0").dtype.name
    close(out, want(name, "out0"), "output")
    if not has(name, "dx0" if n_in else "dx"):   # a forward-only case
        return
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
        close(tf.zeros_like(x) if g is None else g, want(name, key), f"d/d{key[1:]}")
    for i, layer in enumerate(layers):
        for j, w in enumerate(layer.weights):
            if has(name, f"dw{i}_{j}"):
                close(tape.gradient(loss, w), want(name, f"dw{i}_{j}"), f"d/d{w.name}")
    if has(name, "outmask"):
        np.testing.assert_array_equal(np.asarray(outmask), arr(name, "outmask"))
    if case["losses"] is not None:
        got = sum(float(v) for layer in layers for v in layer.losses)
        tf_compare.assert_close(got, case["losses"], rtol=1e-4, err_msg="losses")


# ---------------------------------------------------------------------------- masks in models
def test_masking_reaches_lstm_in_a_sequential_model():
    case = "masking_lstm"
    model = keras.Sequential([keras.Input((5, 2)), keras.layers.Masking(), keras.layers.LSTM(3, return_sequences=True)])
    model.layers[1].set_weights([arr(case, f"w1_{j}") for j in range(3)])
    close(model(tf.constant(arr(case, "x"))), want(case, "out0"), "Sequential output")


def test_masking_reaches_gru_in_a_functional_model():
    case = "masking_value_gru"
    inp = keras.Input((4, 3))
    out = keras.layers.GRU(2)(keras.layers.Masking(mask_value=0.0)(inp))
    model = keras.Model(inp, out)
    model.layers[-1].set_weights([arr(case, f"w1_{j}") for j in range(3)])
    close(model(tf.constant(arr(case, "x"))), want(case, "out0"), "functional output")


# ---------------------------------------------------------------------------- symbolic shapes
@pytest.mark.parametrize("layer, shapes, want", [
    (lambda: keras.layers.Dot(axes=(2, 2)), [(3, 4), (5, 4)], (None, 3, 5)),
    (lambda: keras.layers.Dot(axes=1), [(4,), (4,)], (None, 1)),
    (lambda: keras.layers.Subtract(), [(3,), (3,)], (None, 3)),
    (lambda: keras.layers.Average(), [(2, 3), (2, 3), (2, 3)], (None, 2, 3)),
])
def test_merge_layers_in_functional_models(layer, shapes, want):
    inputs = [keras.Input(s) for s in shapes]
    out = layer()(inputs)
    assert tuple(out.shape) == want
    model = keras.Model(inputs, out)
    ys = model([np.ones((2,) + s, np.float32) for s in shapes])
    assert tuple(ys.shape) == (2,) + want[1:]


@pytest.mark.parametrize("layer, shape", [
    (keras.layers.Conv3D(4, 3, strides=2, padding="same"), (None, 5, 6, 7, 2)),
    (keras.layers.Conv3DTranspose(3, 2, strides=2), (None, 2, 3, 4, 2)),
    (keras.layers.Conv1DTranspose(3, 3, strides=2, padding="same"), (None, 5, 2)),
    (keras.layers.MaxPooling3D(), (None, 4, 4, 4, 2)),
    (keras.layers.GlobalAveragePooling3D(), (None, 4, 4, 4, 2)),
    (keras.layers.UpSampling3D(2), (None, 2, 3, 4, 1)),
    (keras.layers.Cropping3D(1), (None, 4, 4, 4, 1)),
    (keras.layers.ZeroPadding1D(2), (None, 3, 2)),
    (keras.layers.Permute((2, 1)), (None, 3, 4)),
    (keras.layers.RepeatVector(4), (None, 3)),
    (keras.layers.EinsumDense("abc,cd->abd", output_shape=(None, 6)), (None, 3, 4)),
    (keras.layers.Resizing(3, 5), (None, 6, 7, 3)),
    (keras.layers.RandomCrop(3, 2), (None, 6, 7, 3)),
    (keras.layers.GroupNormalization(2), (None, 3, 4)),
])
def test_symbolic_shape_matches_eager(layer, shape):
    symbolic = layer.compute_output_shape(shape)
    eager = layer(np.random.default_rng(0).standard_normal((2,) + shape[1:]).astype(np.float32), training=True)
    assert len(symbolic) == eager.shape.rank
    assert all(s in (None, e) for s, e in zip(tuple(symbolic)[1:], tuple(eager.shape)[1:]))


# ---------------------------------------------------------------------------- gradients (generic checker)
@pytest.mark.parametrize("make, shape", [
    (lambda: keras.layers.Dot(axes=-1, normalize=True, dtype="float64"), None),
    (lambda: keras.layers.UnitNormalization(dtype="float64"), (3, 4)),
    (lambda: keras.layers.GroupNormalization(2, dtype="float64"), (2, 3, 4)),
    (lambda: keras.layers.PReLU(alpha_initializer="ones", dtype="float64"), (2, 3)),
    (lambda: keras.layers.RandomRotation(0.3, seed=1, dtype="float64"), (2, 4, 5, 1)),
    (lambda: keras.layers.RandomZoom(0.3, fill_mode="constant", seed=2, dtype="float64"), (1, 5, 4, 2)),
])
def test_check_grads(make, shape):
    rng = np.random.default_rng(1)
    if shape is None:
        a, b = (tf.constant(rng.standard_normal((3, 4)) + 0.5) for _ in range(2))
        tf.test.check_grads(lambda x, y: make()([x, y]), [a, b], order=1, modes=("rev", "fwd"))
    else:
        tf.test.check_grads(lambda x: make()(x), [tf.constant(rng.standard_normal(shape) + 0.5)], order=1,
                            modes=("rev", "fwd"))


# ---------------------------------------------------------------------------- training flag
def test_augmentation_applies_unless_training_is_false():
    x = tf.reshape(tf.range(24.0), [2, 3, 4, 1])
    flip = keras.layers.RandomFlip("horizontal", seed=3)
    assert np.array_equal(flip(x, training=False).numpy(), x.numpy())
    model = keras.Sequential([keras.Input((3, 4, 1)), keras.layers.RandomRotation(0.5, seed=1)])
    assert np.array_equal(model.predict(x.numpy(), verbose=0), x.numpy())
    assert not np.array_equal(keras.layers.RandomRotation(0.5, seed=1)(x).numpy(), x.numpy())


def test_noise_layers_pass_through_outside_training():
    x = np.ones((4, 5), np.float32)
    for layer in (keras.layers.GaussianNoise(0.5), keras.layers.GaussianDropout(0.5), keras.layers.AlphaDropout(0.5),
                  keras.layers.SpatialDropout1D(0.5)):
        inp = x[:, :, None] if isinstance(layer, keras.layers.SpatialDropout1D) else x
        assert np.array_equal(layer(inp).numpy(), inp)


def test_noise_distributions():
    x = np.ones((200, 500), np.float32)
    y = keras.layers.GaussianDropout(0.2, seed=1)(x, training=True).numpy()
    assert abs(y.mean() - 1) < 0.01 and abs(y.std() - 0.5) < 0.01
    z = keras.layers.AlphaDropout(0.3, seed=2)(np.random.default_rng(0).standard_normal((200, 500)).astype(np.float32),
                                               training=True).numpy()
    assert abs(z.mean()) < 0.02 and abs(z.std() - 1) < 0.02   # self-normalizing: mean 0, variance 1 kept
    s = keras.layers.SpatialDropout2D(0.5, seed=3)(np.ones((8, 3, 3, 16), np.float32), training=True).numpy()
    assert set(np.unique(s)) <= {0.0, 2.0} and all(len(np.unique(s[b, :, :, c])) == 1 for b in range(8)
                                                   for c in range(16))


# ---------------------------------------------------------------------------- bad input
@pytest.mark.parametrize("make, match", [
    (lambda: keras.layers.Dot(axes=(1, 2, 3)), "two elements"),
    (lambda: keras.layers.Dot(axes="x"), "list or an int"),
    (lambda: keras.layers.Permute((1, 3)), "consecutive and start from 1"),
    (lambda: keras.layers.RepeatVector(2.5), "integer value for `n`"),
    (lambda: keras.layers.GroupNormalization(groups=0), "invalid value for argument `groups`"),
    (lambda: keras.layers.GaussianNoise(2.0), "between 0 and 1"),
    (lambda: keras.layers.AlphaDropout(-0.1), "between 0 and 1"),
    (lambda: keras.layers.UpSampling1D(0), "positive integer"),
    (lambda: keras.layers.ZeroPadding3D((1, 2)), "tuple of 3"),
    (lambda: keras.layers.Resizing(2, 2, interpolation="cubic"), "interpolation"),
    (lambda: keras.layers.Resizing(2, 2, crop_to_aspect_ratio=True, pad_to_aspect_ratio=True), "Only one"),
    (lambda: keras.layers.RandomRotation(2.0), "range"),
    (lambda: keras.layers.RandomZoom(-1.0), r"\(-1.0, 1.0\]"),
    (lambda: keras.layers.RandomContrast(1.5), "range"),
    (lambda: keras.layers.RandomFlip("diagonal"), "unknown mode"),
])
def test_constructor_errors(make, match):
    with pytest.raises((ValueError, TypeError, NotImplementedError), match=match):
        make()


def test_rotation_fill_mode_error():
    with pytest.raises(NotImplementedError, match="fill_mode"):
        keras.layers.RandomRotation(0.1, fill_mode="mirror")


@pytest.mark.parametrize("call, match", [
    (lambda: keras.layers.Subtract()([tf.ones([2, 3])] * 3), "exactly 2 inputs"),
    (lambda: keras.layers.Dot(axes=1)([tf.ones([2, 3]), tf.ones([2, 4])]), "Incompatible input shapes"),
    (lambda: keras.layers.GroupNormalization(3)(tf.ones([2, 4])), "multiple"),
    (lambda: keras.layers.GroupNormalization(8)(tf.ones([2, 4])), "cannot be more than"),
    (lambda: keras.layers.Cropping1D((2, 2))(tf.ones([1, 4, 2])), "smaller than"),
    (lambda: keras.layers.Conv3D(2, 2)(tf.ones([1, 4, 4, 2])), "ndim=5"),
    (lambda: keras.layers.RandomFlip()(tf.ones([4, 4])), "rank 3"),
    (lambda: keras.layers.EinsumDense("abc,cd->abd", (None, 2), bias_axes="x")(tf.ones([2, 3, 4])),
     "Bias dimension 'x'"),
    (lambda: keras.layers.EinsumDense("ab,bc->ad", 3)(tf.ones([2, 4])), "Dimension 'd'"),
    (lambda: keras.layers.EinsumDense("ab->b", 3)(tf.ones([2, 4])), "Invalid einsum equation"),
])
def test_call_errors(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_get_config_round_trip():
    for layer in (keras.layers.Dot(axes=(1, 2), normalize=True), keras.layers.GroupNormalization(4, epsilon=1e-5),
                  keras.layers.EinsumDense("ab,bc->ac", 4, bias_axes="c"), keras.layers.RandomZoom(0.2, 0.3, seed=1),
                  keras.layers.Resizing(3, 4, interpolation="nearest"), keras.layers.Conv3D(2, 3, groups=1),
                  keras.layers.SpatialDropout2D(0.3, data_format="channels_first")):
        cfg = layer.get_config()
        assert type(layer).from_config(cfg).get_config() == cfg


def test_einsum_dense_initializer_fans_from_the_equation():
    # Keras gives VarianceScaling the kernel's input axes (c) and output axes (d, e): fans 5 and 8
    layer = keras.layers.EinsumDense("abc,cde->abde", output_shape=(None, 4, 2),
                                     kernel_initializer=keras.initializers.GlorotUniform(seed=1))
    layer(np.ones((2, 3, 5), np.float32))
    k = layer.kernel.numpy()
    assert 0.6 < np.abs(k).max() <= np.sqrt(6 / 13)
    np.testing.assert_allclose(k.ravel()[:3], [0.51426, -0.05438, 0.13627], atol=1e-5)  # Keras 3.15's draws
