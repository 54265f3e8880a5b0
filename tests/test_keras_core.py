"""tapegrad.keras's Layer, core layers, initializers, activations, regularizers, backend and
random against Keras 3.15's numbers (tests/fixtures/keras_core.json, tools/record_keras_core.py)."""

import numpy as np
import pytest

import tapegrad as tf
import tf_compare
from tapegrad import keras

import keras_core_cases as cases

REC = tf_compare.load_fixture("keras_core.json")

RTOL, ATOL = 1e-4, 1e-6


def close(got, want, rtol=RTOL):
    tf_compare.assert_close(np.asarray(got, np.float64), want, rtol=rtol, atol=ATOL, broadcast=True)


def forward_and_grads(layer, inputs, training=False):
    xs = [tf.constant(x) for x in inputs]
    with tf.GradientTape() as tape:
        tape.watch(xs)
        out = layer(xs if len(xs) > 1 else xs[0], training=training)
        outs = out if isinstance(out, (list, tuple)) else [out]
        loss = tf.add_n([tf.reduce_sum(o * cases.weights_for(o.shape)) for o in outs])
    return outs, tape.gradient(loss, list(layer.trainable_weights) + xs)


# ---- initializers and random ---------------------------------------------------------------------

@pytest.mark.parametrize("name", [n for n in cases.INITIALIZERS if n not in ("constant", "identity")])
def test_seeded_initializers_give_keras_weights(name):
    cls, kwargs, shape = cases.INITIALIZERS[name]
    close(getattr(keras.initializers, cls)(**kwargs)(shape), REC["initializers"][name])


@pytest.mark.parametrize("name", ["constant", "identity"])
def test_deterministic_initializers(name):
    cls, kwargs, shape = cases.INITIALIZERS[name]
    close(getattr(keras.initializers, cls)(**kwargs)(shape), REC["initializers"][name])


def test_keras_random_draws_match_keras():
    r = REC["random"]
    close(keras.random.normal((2, 3), seed=3), r["normal_seed3"])
    close(keras.random.uniform((2, 3), minval=-1.0, maxval=2.0, seed=3), r["uniform_seed3"])
    close(keras.random.truncated_normal((2, 3), seed=3), r["truncated_seed3"])
    g = keras.random.SeedGenerator(5)
    for want in r["generator_draws"]:
        close(keras.random.uniform((3,), seed=g), want)
    close(keras.layers.Dropout(0.4, seed=7)(np.ones((3, 5), np.float32), training=True),
          r["dropout_seed7"])


def test_initializer_statistics_and_seeds():
    w = keras.initializers.GlorotUniform(seed=11)((200, 300)).numpy()
    limit = np.sqrt(6 / 500)
    assert w.dtype == np.float32 and np.abs(w).max() <= limit
    assert abs(w.std() - limit / np.sqrt(3)) < 0.01 * limit
    h = keras.initializers.HeNormal(seed=1)((400, 100)).numpy()
    assert np.abs(h).max() <= 2 * np.sqrt(2 / 400) / 0.87962566103423978 + 1e-6
    assert abs(h.std() - np.sqrt(2 / 400)) < 0.05 * np.sqrt(2 / 400)
    init = keras.initializers.RandomNormal(seed=3)
    np.testing.assert_array_equal(init((3,)).numpy(), init((3,)).numpy())  # an int seed repeats
    gen = keras.initializers.RandomNormal(seed=keras.random.SeedGenerator(3))
    assert not np.array_equal(gen((3,)).numpy(), gen((3,)).numpy())  # a generator moves on
    q = keras.initializers.Orthogonal(seed=2)((4, 6)).numpy()
    np.testing.assert_allclose(q @ q.T, np.eye(4), atol=1e-5)
    assert keras.initializers.get("zeros")((2,), dtype="int32").numpy().dtype == np.int32
    assert isinstance(keras.initializers.get("glorot_uniform"), keras.initializers.GlorotUniform)
    assert isinstance(keras.initializers.get({"class_name": "HeNormal", "config": {"seed": 1}}),
                      keras.initializers.HeNormal)
    with pytest.raises(ValueError, match="glorot_uniform"):
        keras.initializers.get("glorot_unifrom")


def test_draw_seed_and_seed_generator_state():
    g = keras.random.SeedGenerator(42)
    assert keras.random.draw_seed(g).numpy().tolist() == [42, 0]
    assert keras.random.draw_seed(g).numpy().tolist() == [42, 1]
    assert keras.random.draw_seed(9).numpy().tolist() == [9, 0]
    with pytest.raises(ValueError, match="SeedGenerator"):
        keras.random.draw_seed("1")


# ---- layers --------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(cases.LAYERS))
def test_layer_forward_and_gradients_match_keras(name):
    cls, kwargs, in_shapes = cases.LAYERS[name]
    layer = getattr(keras.layers, cls)(**kwargs)
    inputs = [cases.fixed(s, i + 1) for i, s in enumerate(in_shapes)]
    layer(inputs if len(inputs) > 1 else inputs[0])
    layer.set_weights([cases.fixed(w.shape, 10 + i) for i, w in enumerate(layer.weights)])
    outs, grads = forward_and_grads(layer, inputs)
    want = REC["layers"][name]
    for o, w in zip(outs, want["outputs"]):
        close(o, w)
    assert len(grads) == len(want["grads"])
    for g, w in zip(grads, want["grads"]):
        close(g, w)


@pytest.mark.parametrize("name", sorted(cases.ACTIVATIONS))
def test_activation_values_and_gradients_match_keras(name):
    x = tf.constant(cases.ACT_X)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = getattr(keras.activations, name)(x, **cases.ACTIVATIONS[name])
        loss = tf.reduce_sum(y * cases.weights_for(y.shape))
    close(y, REC["activations"][name]["y"])
    close(tape.gradient(loss, x), REC["activations"][name]["dx"])
    assert keras.activations.get(name) is getattr(keras.activations, name)


def test_dense_passes_the_generic_gradient_checker():
    layer = keras.layers.Dense(3, activation="tanh", dtype="float64")
    x = tf.constant(cases.fixed((2, 4), 1).astype(np.float64))
    layer(x)
    theoretical, numerical = tf.test.compute_gradient(lambda x: layer(x), [x])
    np.testing.assert_allclose(theoretical[0], numerical[0], rtol=1e-6, atol=1e-8)
    tf.test.check_grads(lambda x: layer(x), [x], order=2)
    # the weights: tape gradients against central differences of the same scalar loss
    coeffs = cases.weights_for((2, 3)).astype(np.float64)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(layer(x) * coeffs)
    grads = tape.gradient(loss, layer.trainable_weights)
    for v, g in zip(layer.trainable_weights, grads):
        base, num = v.numpy(), np.zeros(v.shape)
        for idx in np.ndindex(*base.shape):
            for sign in (1, -1):
                bumped = base.copy()
                bumped[idx] += sign / 1024
                v.assign(bumped)
                num[idx] += sign * float(tf.reduce_sum(layer(x) * coeffs)) * 512
        v.assign(base)
        np.testing.assert_allclose(g.numpy(), num, rtol=1e-5, atol=1e-8)


def test_dropout_training_flag_and_scaling():
    layer = keras.layers.Dropout(0.25, seed=3)
    x = np.ones((50, 40), np.float32)
    np.testing.assert_array_equal(layer(x).numpy(), x)
    y = layer(x, training=True).numpy()
    assert set(np.unique(y)) <= {0.0, np.float32(1 / 0.75)}
    assert 0.15 < (y == 0).mean() < 0.35
    assert not np.array_equal(y, layer(x, training=True).numpy())  # the seed generator moves on


# ---- Layer behaviour ------------------------------------------------------------------------------

def test_layer_builds_on_first_call_and_tracks_weights_losses_and_sublayers():
    class Block(keras.Layer):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.inner = [keras.layers.Dense(3, kernel_regularizer=keras.regularizers.L2(0.5),
                                                 name="inner")]

        def build(self, input_shape):
            self.scale = self.add_weight(shape=(input_shape[-1],), initializer="ones", name="scale")
            self.count = self.add_weight(shape=(), initializer="zeros", trainable=False, name="count")

        def call(self, x, training=None):
            self.add_loss(tf.reduce_sum(x) * 0.0 + 1.5)
            return self.inner[0](x * self.scale)

    b = Block(name="block")
    assert not b.built
    y = b(np.ones((2, 4)))
    assert b.built and y.shape == (2, 3) and y.dtype == tf.float32
    assert [w.name for w in b.weights] == ["scale", "count", "kernel", "bias"]  # Keras 3's names
    assert [w.path for w in b.weights] == ["block/scale", "block/count", "block/inner/kernel",
                                          "block/inner/bias"]
    assert [w.name for w in b.trainable_weights] == ["scale", "kernel", "bias"]
    assert [w.name for w in b.non_trainable_weights] == ["count"]
    assert b._flatten_layers(include_self=False, recursive=False) == [b.inner[0]]
    assert not hasattr(b, "layers")   # (Keras 3: only models have layers)
    losses = b.losses
    assert len(losses) == 2 and float(losses[0]) == 1.5
    close(losses[1], 0.5 * np.sum(b.inner[0].kernel.numpy() ** 2))
    b(np.ones((2, 4)))
    assert len(b.losses) == 2  # add_loss losses are those of the last call
    b.trainable = False
    assert b.trainable_weights == [] and len(b.non_trainable_weights) == 4
    assert not b.inner[0].trainable
    assert b.count_params() == 4 + 1 + 12 + 3


def test_training_flag_reaches_nested_layers():
    seen = []

    class Probe(keras.Layer):
        def call(self, x, training=None):
            seen.append(training)
            return x

    class Outer(keras.Layer):
        def __init__(self):
            super().__init__()
            self.p = Probe()

        def call(self, x):
            return self.p(x)
    o = Outer()
    o(np.ones((1, 2)), training=True)
    o(np.ones((1, 2)))
    o.p(np.ones((1, 2)), training=False)
    assert seen == [None, True, None, False]  # (as Keras 3: the first call builds Outer by tracing
    # its call, outside any training context, before the call itself)


def test_inputs_are_cast_to_the_compute_dtype():
    layer = keras.layers.Dense(2)
    assert layer(np.ones((1, 3), np.float64)).dtype == tf.float32
    assert layer(tf.ones((1, 3), tf.float64)).dtype == tf.float32
    assert keras.layers.Dense(2, dtype="float64")(np.ones((1, 3))).dtype == tf.float64


def test_set_floatx_and_backend_settings():
    assert keras.backend.floatx() == "float32" and keras.backend.epsilon() == 1e-7
    keras.backend.set_floatx("float64")
    try:
        layer = keras.layers.Dense(2)
        assert layer(np.ones((1, 3), np.float32)).dtype == tf.float64
        assert layer.kernel.dtype == tf.float64
    finally:
        keras.backend.set_floatx("float32")
    with pytest.raises(ValueError, match="floatx"):
        keras.backend.set_floatx("int3")
    keras.backend.set_epsilon(1e-5)
    assert keras.backend.epsilon() == 1e-5
    keras.backend.set_epsilon(1e-7)
    assert keras.backend.image_data_format() == "channels_last"


def test_clear_session_restarts_layer_names():
    keras.backend.clear_session()
    assert [keras.layers.Dense(1).name for _ in range(3)] == ["dense", "dense_1", "dense_2"]
    assert keras.layers.LeakyReLU().name == "leaky_re_lu"
    keras.backend.clear_session()
    assert keras.layers.Dense(1).name == "dense"


def test_get_set_weights_and_config():
    layer = keras.layers.Dense(2, activation="relu", name="d")
    layer(np.ones((1, 3)))
    w = [np.full((3, 2), 0.5, np.float32), np.array([1.0, -1.0], np.float32)]
    layer.set_weights(w)
    for a, b in zip(layer.get_weights(), w):
        np.testing.assert_array_equal(a, b)
    config = layer.get_config()
    assert config["units"] == 2 and config["activation"] == "relu" and config["name"] == "d"
    clone = keras.layers.Dense.from_config({**config, "name": "d2"})
    assert clone.units == 2 and clone.activation is keras.activations.relu
    with pytest.raises(ValueError, match="expecting 2 weights"):
        layer.set_weights(w[:1])
    with pytest.raises(ValueError, match=r"weight shape \(3, 2\) is not compatible"):
        layer.set_weights([np.ones((2, 2)), w[1]])


def test_compute_output_shape():
    assert keras.layers.Dense(4).compute_output_shape((None, 7)) == (None, 4)
    assert keras.layers.Flatten().compute_output_shape((None, 3, 4)) == (None, 12)
    assert keras.layers.Reshape((2, -1)).compute_output_shape((None, 3, 4)) == (None, 2, 6)
    assert keras.layers.Concatenate().compute_output_shape([(None, 3), (None, 4)]) == (None, 7)

    class Twice(keras.Layer):  # no compute_output_shape: found by running call
        def call(self, x):
            return tf.concat([x, x], axis=1)
    assert Twice().compute_output_shape((None, 5, 2)) == (None, 10, 2)


def test_masks_flow_to_layers_that_take_them():
    class MaskFirst(keras.Layer):
        def __init__(self):
            super().__init__()
            self.supports_masking = True

        def compute_mask(self, inputs, previous_mask=None):
            return tf.constant([[True, False, True]])

        def call(self, x):
            return x
    masked = MaskFirst()(np.array([[1.0, 2.0, 3.0]]))
    np.testing.assert_allclose(keras.layers.Softmax()(masked).numpy(),
                               [[0.11920292, 0.0, 0.8807971]], rtol=1e-6)


def test_regularizers():
    x = np.array([[1.0, -2.0], [0.5, 0.0]], np.float32)
    close(keras.regularizers.L1(0.1)(x), 0.35)
    close(keras.regularizers.L2(0.1)(x), 0.525)
    close(keras.regularizers.l1_l2(l1=0.1, l2=0.1)(x), 0.875)
    assert isinstance(keras.regularizers.get("l2"), keras.regularizers.L2)
    with pytest.raises(ValueError, match="l2"):
        keras.regularizers.L2(-1.0)


# ---- bad input ------------------------------------------------------------------------------------

def test_unknown_constructor_argument_names_it_and_suggests():
    with pytest.raises(TypeError, match=r"Dense: 'activaton' \(did you mean 'activation'\?\)"):
        keras.layers.Dense(3, activaton="relu")
    with pytest.raises(ValueError, match="Unrecognized keyword argument"):  # Keras raises ValueError
        keras.layers.Flatten(units=3)


def test_wrong_input_shape_for_a_built_layer():
    layer = keras.layers.Dense(2, name="head")
    layer(np.ones((1, 4)))
    with pytest.raises(ValueError, match=r'layer "head" is incompatible with the layer: expected '
                                         r"axis -1 of input shape to have value 4, but received "
                                         r"input with shape \(1, 3\)"):
        layer(np.ones((1, 3)))
    with pytest.raises(ValueError, match="expected min_ndim=2, found ndim=1"):
        keras.layers.Dense(2)(np.ones(3))


def test_bad_names_and_identifiers():
    with pytest.raises(ValueError, match="relu"):
        keras.activations.get("rleu")
    with pytest.raises(ValueError, match="units"):
        keras.layers.Dense(0)
    with pytest.raises(ValueError, match="rate"):
        keras.layers.Dropout(1.5)
    with pytest.raises(AttributeError, match="Dense"):
        keras.layers.Dnese


def test_namespaces_load_lazily_and_everywhere():
    import importlib
    import sys
    import tapegrad.keras as k2
    from tapegrad.keras import layers
    assert tf.keras is k2 is keras and layers is keras.layers
    assert importlib.import_module("tapegrad.keras.layers").Dense is layers.Dense
    assert "tapegrad.keras" in sys.modules
    assert keras.optimizers.Adam is tf.optimizers.Adam
    assert keras.optimizers.schedules is tf.optimizers.schedules


# ---- constraints, TF's initializers, inputs of the wrong dtype -----------------------------------

@pytest.mark.parametrize("name", sorted(cases.CONSTRAINTS))
def test_constraints_project_like_keras(name):
    cls, kwargs = cases.CONSTRAINTS[name]
    close(getattr(keras.constraints, cls)(**kwargs)(tf.constant(cases.fixed((3, 4), 5) * 3)),
          REC["constraints"][name])


def test_constraints_by_name_and_config():
    assert isinstance(keras.constraints.get("max_norm"), keras.constraints.MaxNorm)
    assert isinstance(keras.constraints.get("NonNeg"), keras.constraints.NonNeg)
    assert keras.constraints.get(None) is None
    unit = keras.constraints.deserialize(keras.constraints.serialize(keras.constraints.UnitNorm(axis=1)))
    assert unit.get_config() == {"axis": 1}
    with pytest.raises(ValueError, match="max_nrm"):
        keras.constraints.get("max_nrm")
    layer = keras.layers.Dense(2, kernel_constraint="non_neg")
    layer.build((None, 3))
    assert isinstance(layer.kernel.constraint, keras.constraints.NonNeg)


@pytest.mark.parametrize("name", sorted(cases.TF_INITIALIZERS))
def test_tf_initializers_give_tf_values(name):
    fn, kwargs, shape, dtype = cases.TF_INITIALIZERS[name]
    out = getattr(tf, fn)(**kwargs)(shape, **({} if dtype is None else {"dtype": dtype}))
    want = REC["tf_initializers"][name]
    assert out.dtype.name == want["dtype"]
    close(out, want["value"])


def test_tf_initializers_reject_wrong_dtypes():
    with pytest.raises(ValueError, match="floating"):
        tf.random_normal_initializer()([2], tf.int32)
    with pytest.raises(TypeError, match="Invalid type"):
        tf.constant_initializer(object())


def test_layer_inputs_of_inconsistent_dtypes_name_the_layer():
    class TfMatmul(keras.layers.Layer):  # tf.* ops do not promote, also inside a layer
        def build(self, input_shape):
            self.w = self.add_weight(shape=(input_shape[-1], 2))

        def call(self, x):
            return tf.matmul(x, self.w)

    with pytest.raises(tf.errors.InvalidArgumentError, match=r"'mm' \(TfMatmul\).*int32.*float32.*tf.cast"):
        TfMatmul(name="mm")(tf.ones((2, 3), tf.int32))
    # Keras's own layers compute with keras.ops, which promote (tests/test_keras_dtypes.py)
    add = keras.layers.Add(name="merge")
    assert add([tf.ones((2, 3), tf.float64), tf.ones((2, 3), tf.int32)]).dtype == tf.float32
    assert keras.layers.Dense(2, name="dense_in")(tf.ones((2, 3), tf.int32)).dtype == tf.float32
    with pytest.raises(ValueError, match=r"Layer 'd' \(Dense\).*<U1.*string"):
        keras.layers.Dense(2, name="d")(np.array([["a", "b", "c"]]))
    # float inputs are still cast to the layer's dtype, as Keras autocasts them
    out = add([tf.ones((2, 3), tf.float64), np.ones((2, 3), np.float32)])
    assert out.dtype == tf.float32


def test_a_regularizer_class_is_made_with_its_defaults_as_keras_does():
    # Raschka ch. 14: Dense(..., kernel_regularizer=tf.keras.regularizers.l1) (the class)
    d = keras.layers.Dense(3, kernel_regularizer=keras.regularizers.l1)
    d.build((None, 2))
    assert isinstance(d.kernel_regularizer, keras.regularizers.L1)
    np.testing.assert_allclose(float(d.losses[0]), 0.01 * np.abs(d.kernel.numpy()).sum(), rtol=1e-6)
