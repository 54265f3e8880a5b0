"""What the unseen holdout2 programs found in tf.keras (issue #24): Keras's version, the conv
layers' ``convolution_op`` hook, and the ``serialize``/``deserialize`` functions of Keras 3.15's
namespaces."""
from __future__ import annotations

import numpy as np
import pytest

import tapegrad as tf

keras = tf.keras


def test_keras_version_is_the_keras_release_mirrored():
    assert keras.__version__ == keras.version() == "3.15.1"
    assert int(keras.__version__.split(".")[0]) == 3


@pytest.mark.parametrize("data_format", ["channels_last", "channels_first"])
def test_convolution_op_is_the_hook_call_uses(data_format):
    # Keras 3's BaseConv.call is convolution_op(inputs, self.kernel), then bias and activation.
    class Scaled(keras.layers.Conv2D):
        def convolution_op(self, inputs, kernel):
            return super().convolution_op(inputs, 2.0 * kernel)

    x = np.random.default_rng(0).normal(size=(2, 5, 5, 3) if data_format == "channels_last" else (2, 3, 5, 5))
    x = x.astype("float32")
    plain = keras.layers.Conv2D(4, 3, strides=2, padding="same", data_format=data_format,
                                bias_initializer="ones", activation="relu")
    scaled = Scaled(4, 3, strides=2, padding="same", data_format=data_format, bias_initializer="ones",
                    activation="relu")
    y = plain(x)
    scaled(x)
    scaled.set_weights(plain.get_weights())
    direct = plain.convolution_op(x, plain.kernel).numpy()
    bias = 1.0 if data_format == "channels_last" else np.ones((4, 1, 1))
    np.testing.assert_allclose(y.numpy(), np.maximum(direct + bias, 0), rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(scaled(x).numpy(), np.maximum(2 * direct + bias, 0), rtol=1e-5, atol=1e-5)


def test_layers_serialize_and_deserialize_as_keras():
    layer = keras.layers.Dense(3, activation="relu", name="d3")
    config = keras.layers.serialize(layer)
    assert config == keras.saving.serialize_keras_object(layer)
    assert config["class_name"] == "Dense" and config["config"]["units"] == 3
    new = keras.layers.deserialize(config)
    assert type(new) is keras.layers.Dense and new.units == 3 and new.activation is keras.activations.relu

    @keras.saving.register_keras_serializable(package="h2fix")
    class Twice(keras.layers.Layer):
        def call(self, x):
            return 2 * x

    custom = keras.layers.deserialize(keras.layers.serialize(Twice()))
    assert type(custom) is Twice
    with pytest.raises(ValueError, match="not a `keras.layers.Layer`"):
        keras.layers.deserialize(keras.saving.serialize_keras_object(keras.initializers.Zeros()))


def test_every_namespace_serializes_through_keras_saving_with_custom_objects():
    k = keras
    for ns, obj in [(k.initializers, k.initializers.GlorotUniform(seed=1)), (k.regularizers, k.regularizers.L2(0.1)),
                    (k.constraints, k.constraints.MaxNorm(2.0)), (k.optimizers, k.optimizers.Adam(0.01))]:
        config = ns.serialize(obj)
        assert config == k.saving.serialize_keras_object(obj) and config["registered_name"] is None
        assert type(ns.deserialize(config)) is type(obj)

    class Half(k.regularizers.Regularizer):
        def __call__(self, w):
            return 0.5 * tf.reduce_sum(w)

        def get_config(self):
            return {}

    config = k.regularizers.serialize(Half())
    assert type(k.regularizers.deserialize(config, custom_objects={"Half": Half})) is Half
    with pytest.raises(ValueError, match="Could not interpret regularizer"):
        k.regularizers.deserialize(k.constraints.serialize(k.constraints.MaxNorm(2.0)),
                                   custom_objects={"MaxNorm": k.constraints.MaxNorm})

    def scaled_relu(x):
        return 2.0 * k.activations.relu(x)

    assert k.activations.deserialize("scaled_relu", custom_objects={"scaled_relu": scaled_relu}) is scaled_relu
    assert k.activations.deserialize(k.activations.serialize(k.activations.gelu)) is k.activations.gelu


def test_keras_3_15_constructor_arguments():
    # Keras 3.15: the variance-scaling presets take input_axes/output_axes (in their config);
    # Dense and EinsumDense take quantization_config (a config, or a saved config's dict).
    init = keras.initializers.GlorotUniform(seed=3, input_axes=[0, 1], output_axes=[2])
    assert init.get_config() == {"seed": 3, "input_axes": [0, 1], "output_axes": [2]}
    w = init((2, 3, 4)).numpy()
    limit = np.sqrt(6.0 / (2 * 3 + 4))
    assert np.all(np.abs(w) <= limit) and np.abs(w).max() > limit / 2
    assert keras.initializers.HeNormal().get_config() == {"seed": None, "input_axes": None, "output_axes": None}
    assert keras.layers.Dense(2, quantization_config=None).units == 2
    with pytest.raises(ValueError, match="quantization_config"):
        keras.layers.Dense(2, quantization_config={"mode": "int8"})
    config = keras.quantizers.Int8QuantizationConfig(activation_quantizer=None)
    assert keras.layers.Dense(2, quantization_config=config).quantization_config is config


def test_l1_holds_its_factor_in_floatx_as_keras():
    # Keras 3.15: L1 converts l1 to a floatx tensor, so its config reads back float32's value
    # (0.004999999888241291); L1L2 and L2 keep the Python float.
    assert keras.regularizers.L1(0.005).get_config() == {"l1": float(np.float32(0.005))}
    assert keras.regularizers.L1L2(0.005).get_config() == {"l1": 0.005, "l2": 0.0}
    assert keras.regularizers.L2(0.005).get_config() == {"l2": 0.005}
    x = tf.constant([1.0, -2.0], tf.float64)
    np.testing.assert_allclose(float(keras.regularizers.L1(0.005)(x)), 3 * float(np.float32(0.005)), rtol=1e-15)


def test_a_class_of_the_running_script_is_serialized_without_a_module():
    # Keras 3.15 (record_object_after_serialization): module "__main__" becomes None
    import types
    main = types.ModuleType("__main__")
    exec("import tapegrad as tf\n"  # noqa: S102  (a class defined as a script would define it)
         "@tf.keras.saving.register_keras_serializable(package='h2fix_main')\n"
         "class Scaled(tf.keras.layers.Layer):\n"
         "    def call(self, x):\n"
         "        return 3 * x\n", main.__dict__)
    config = keras.layers.serialize(main.Scaled())
    assert config["module"] is None and config["registered_name"] == "h2fix_main>Scaled"
    assert type(keras.layers.deserialize(config)) is main.Scaled
    assert keras.layers.serialize(keras.layers.Dense(1))["module"] == "keras.layers"


def _sparse_rows():
    return tf.sparse.SparseTensor(indices=[(0, 0), (0, 1), (0, 2), (4, 3), (5, 0), (5, 1)],
                                  values=[1, 2, 3, 4, 5, 6], dense_shape=(6, 4))


def test_a_sparse_input_takes_sparse_tensors_through_dense_as_keras():
    # Keras 3 (TF backend): Input(sparse=True) keeps the SparseTensor (values cast to the input's
    # dtype); Dense multiplies it with a sparse-dense matmul; predict and fit batch its rows.
    x = keras.Input(shape=(4,), sparse=True)
    assert x.sparse and x._node.layer.get_config()["sparse"] is True
    model = keras.Model(x, keras.layers.Dense(3)(x))
    sp = _sparse_rows()
    dense = tf.sparse.to_dense(tf.sparse.map_values(tf.cast, sp, "float32")).numpy()
    want = dense @ model.layers[1].kernel.numpy() + model.layers[1].bias.numpy()
    # (float32 sums of four products of size <= 6: absolute rounding below 1e-5, whatever the draw)
    np.testing.assert_allclose(model(sp).numpy(), want, rtol=1e-6, atol=1e-5)
    np.testing.assert_allclose(model.predict(sp, batch_size=4, verbose=0), want, rtol=1e-6, atol=1e-5)

    twin = keras.Model.from_config(model.get_config())
    twin.set_weights(model.get_weights())
    y = np.arange(18, dtype="float32").reshape(6, 3)
    for m, data in ((model, sp), (twin, dense)):
        m.compile(optimizer=keras.optimizers.SGD(0.01), loss="mse")
        m.fit(data, y, batch_size=4, epochs=2, shuffle=False, verbose=0)
    for a, b in zip(model.get_weights(), twin.get_weights()):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)


def test_keras_ops_matmul_with_a_sparse_operand():
    sp = _sparse_rows()
    dense = tf.sparse.to_dense(sp).numpy()
    w = np.arange(12, dtype="float32").reshape(4, 3)
    got = keras.ops.matmul(sp, w)
    assert got.dtype == tf.float32  # (int32 by float32: float32, as Keras's result_type)
    np.testing.assert_allclose(got.numpy(), dense @ w)
    np.testing.assert_allclose(keras.ops.matmul(w.T, tf.sparse.transpose(sp)).numpy(), w.T @ dense.T)
    with pytest.raises(NotImplementedError, match="two SparseTensors"):
        keras.ops.matmul(sp, tf.sparse.transpose(sp))
