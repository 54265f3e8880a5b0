"""keras.applications' MobileNet, InceptionV3, Xception, DenseNet121/169/201 and InceptionResNetV2
against Keras 3.15 (tests/fixtures/keras_applications_more.json, recorded by
tools/record_keras_applications_more.py): layers, weight paths and shapes, parameter counts,
seeded initial outputs; ``preprocess_input`` of every network on a symbolic KerasTensor; the
networks' argument checks."""
import hashlib
import json
import os

import numpy as np
import pytest

from tapegrad import keras

HERE = os.path.dirname(__file__)
with open(os.path.join(HERE, "fixtures", "keras_applications_more.json")) as _f:
    RECORD = json.load(_f)
APPS = RECORD["applications"]


def digest(rows):
    return hashlib.sha1(json.dumps(rows, separators=(",", ":")).encode()).hexdigest()


def build(ctor, kwargs):
    keras.backend.clear_session()  # (as the recorder: auto-named layers count from 0)
    keras.utils.set_random_seed(0)
    kwargs = {k: tuple(v) if isinstance(v, list) else v for k, v in kwargs.items()}
    return getattr(keras.applications, ctor)(weights=None, **kwargs)


MODULE_OF = {"MobileNet": "mobilenet", "InceptionV3": "inception_v3", "Xception": "xception",
             "DenseNet121": "densenet", "DenseNet169": "densenet", "DenseNet201": "densenet",
             "InceptionResNetV2": "inception_resnet_v2"}


@pytest.mark.parametrize("name", sorted(APPS))
def test_network_matches_keras(name):
    want = APPS[name]
    model = build(want["ctor"], want["kwargs"])
    layers = [[layer.name, type(layer).__name__] for layer in model.layers]
    weights = [[w.path, list(w.shape), bool(w.trainable)] for w in model.weights]
    if "layers" in want:  # (written out in full for some cases: a readable diff)
        assert layers == want["layers"]
        assert weights == want["weights"]
    assert (model.name, len(layers), len(weights)) == (want["name"], want["n_layers"], want["n_weights"])
    assert digest(layers) == want["layers_sha1"]
    assert digest(weights) == want["weights_sha1"]
    trainable = sum(int(np.prod(w.shape)) for w in model.trainable_weights)
    assert [model.count_params(), trainable, model.count_params() - trainable] == want["params"]
    assert list(model.output.shape) == want["output_shape"]
    assert list(model.input.shape) == want["input_shape"]

    # set_random_seed(0) draws each layer's initial weights from TF's random streams in the order
    # Keras builds the layers, so the untrained network computes Keras's outputs (the recorder's
    # images: 32 x 32 where the input size is None); then again with batch-norm statistics set at
    # random. float32 through 14 to 244 convolutions with batch norm: summation order differs from
    # TF's kernels, a few float32 ulps per layer, relative to the outputs' scale (an untrained
    # MobileNet's outputs are of order 1e-20: each Glorot-initialised layer shrinks its input).
    rows, cols = (32 if d is None else d for d in model.input.shape[1:3])
    x = np.random.default_rng(1).uniform(0, 255, (2, rows, cols, 3)).astype("float32")
    x = getattr(keras.applications, MODULE_OF[want["ctor"]]).preprocess_input(x)
    # (MobileNet's batch-norm offsets then outweigh its vanished input: both images give the same
    # outputs, which still pass through every layer after the first few)
    assert np.ptp(np.asarray(want["prediction"]), axis=0).max() > 0  # (input-dependent)
    for key in ("prediction", "prediction_bn"):
        if key == "prediction_bn":
            randomize_batch_norm(model)
        expected = np.asarray(want[key], np.float32)
        np.testing.assert_allclose(model.predict(x, verbose=0), expected, rtol=1e-4,
                                   atol=1e-4 * np.abs(expected).max(), err_msg=key)


def randomize_batch_norm(model):
    rng = np.random.default_rng(3)  # (as tools/record_keras_applications_more.py)
    for layer in model.layers:
        if isinstance(layer, keras.layers.BatchNormalization):
            n = layer.moving_mean.shape[0]
            layer.moving_mean.assign(rng.normal(0, 0.2, n).astype("float32"))
            layer.moving_variance.assign(rng.uniform(0.5, 1.5, n).astype("float32"))
            if layer.gamma is not None:
                layer.gamma.assign(rng.uniform(0.8, 1.2, n).astype("float32"))
            if layer.beta is not None:
                layer.beta.assign(rng.normal(0, 0.1, n).astype("float32"))


def test_every_network_is_recorded():
    assert {c["ctor"] for c in APPS.values()} == set(MODULE_OF)


@pytest.mark.parametrize("case", sorted(RECORD["preprocess"]))
def test_symbolic_preprocess_input_matches_keras(case):
    mode, data_format = case.split("_", 1)
    want = RECORD["preprocess"][case]
    x = np.asarray(want["input"], np.float32)
    inp = keras.Input(x.shape[1:])
    out = keras.applications.imagenet_utils.preprocess_input(inp, data_format=data_format, mode=mode)
    assert isinstance(out, keras.KerasTensor) and out.shape == (None,) + x.shape[1:]
    model = keras.Model(inp, out)
    assert [type(layer).__name__ for layer in model.layers] == ["InputLayer"]  # (ops nodes: no layers)
    got = model.predict(x, verbose=0)
    # Keras's functional model puts the channel means and stds of channels_first along the last
    # axis (docs/differences.md); tapegrad's symbolic numbers are those of Keras's eager ones
    symbolic_ok = data_format == "channels_last" or mode == "tf"
    assert symbolic_ok == np.allclose(want["output"], want["eager"], rtol=1e-6, atol=1e-5)
    # (a few float32 operations on values of order 100: one or two ulps)
    np.testing.assert_allclose(got, np.asarray(want["eager"], np.float32), rtol=1e-6, atol=1e-5)
    eager = keras.applications.imagenet_utils.preprocess_input(x, data_format=data_format, mode=mode)
    np.testing.assert_allclose(got, eager, rtol=1e-6, atol=1e-5)


MODULES = {"convnext": None, "densenet": "torch", "efficientnet": None, "efficientnet_v2": None,
           "inception_resnet_v2": "tf", "inception_v3": "tf", "mobilenet": "tf", "mobilenet_v2": "tf",
           "mobilenet_v3": None, "nasnet": "tf", "resnet": "caffe", "resnet50": "caffe",
           "resnet_v2": "tf", "vgg16": "caffe", "vgg19": "caffe", "xception": "tf"}


@pytest.mark.parametrize("module", sorted(MODULES))
def test_every_networks_preprocess_input_traces_in_a_functional_model(module):
    # (the transfer-learning pattern: preprocessing inside the model, on keras.Input)
    assert set(MODULES) == set(keras.applications.NETWORKS)
    inp = keras.Input((5, 6, 3))
    out = getattr(keras.applications, module).preprocess_input(inp)
    assert isinstance(out, keras.KerasTensor) and out.shape == (None, 5, 6, 3)
    model = keras.Model(inp, keras.layers.GlobalAveragePooling2D()(out))
    x = np.random.default_rng(0).uniform(0, 255, (2, 5, 6, 3)).astype("float32")
    want = x if MODULES[module] is None else keras.applications.imagenet_utils.preprocess_input(
        x, mode=MODULES[module])
    np.testing.assert_allclose(model.predict(x, verbose=0), want.mean(axis=(1, 2)), rtol=1e-5, atol=1e-5)


def test_symbolic_preprocess_input_of_integer_images_is_float():
    inp = keras.Input((4, 4, 3), dtype="uint8")
    out = keras.applications.vgg16.preprocess_input(inp)
    assert out.dtype == "float32"
    x = np.random.default_rng(0).integers(0, 256, (1, 4, 4, 3)).astype("uint8")
    got = keras.Model(inp, out).predict(x, verbose=0)
    np.testing.assert_allclose(got, keras.applications.vgg16.preprocess_input(x), rtol=1e-6, atol=1e-5)


def test_preprocess_input_on_tensors_is_differentiable():
    import tapegrad as tf
    x = tf.Variable(np.full((1, 2, 2, 3), 100.0, np.float32))
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(keras.applications.densenet.preprocess_input(x))
    np.testing.assert_allclose(tape.gradient(y, x).numpy()[0, 0, 0],
                               1.0 / 255.0 / np.array([0.229, 0.224, 0.225]), rtol=1e-6)


def test_preprocessing_inside_the_model_trains():
    # tut_transfer_learning: base network on preprocessed keras.Input, frozen, a new head
    inp = keras.Input((32, 32, 3))
    x = keras.applications.mobilenet.preprocess_input(inp)
    base = keras.applications.MobileNet(weights=None, alpha=0.25, include_top=False,
                                        input_shape=(32, 32, 3))
    base.trainable = False
    out = keras.layers.Dense(2)(keras.layers.GlobalAveragePooling2D()(base(x, training=False)))
    model = keras.Model(inp, out)
    model.compile(optimizer="adam", loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    data = np.random.default_rng(0).uniform(0, 255, (4, 32, 32, 3)).astype("float32")
    loss = model.fit(data, np.array([0, 1, 0, 1]), epochs=1, verbose=0).history["loss"][0]
    assert np.isfinite(loss)
    assert len(model.trainable_weights) == 2


def test_mobilenet_arguments():
    with pytest.raises(ValueError, match="depth multiplier must be 1"):
        keras.applications.MobileNet(depth_multiplier=2)
    with pytest.raises(ValueError, match=r"alpha can be one of.*Received alpha=0.3"):
        keras.applications.MobileNet(alpha=0.3)
    with pytest.raises(ValueError, match="at least 32x32"):
        keras.applications.MobileNet(weights=None, input_shape=(16, 16, 3), include_top=False)
    model = keras.applications.MobileNet(weights=None, input_shape=(160, 160, 3), include_top=False)
    assert model.name == "mobilenet_1.00_160"


def test_imagenet_weights_name_keras_files(tmp_path, monkeypatch):
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    cases = [
        (lambda: keras.applications.MobileNet(alpha=0.5, input_shape=(128, 128, 3), include_top=False),
         "mobilenet_5_0_128_tf_no_top.h5"),
        (lambda: keras.applications.MobileNet(alpha=0.25), "mobilenet_2_5_224_tf.h5"),
        (lambda: keras.applications.DenseNet121(include_top=False, input_shape=(32, 32, 3)),
         "densenet121_weights_tf_dim_ordering_tf_kernels_notop.h5"),
    ]
    for make, file_name in cases:
        with pytest.raises(FileNotFoundError, match=file_name):
            make()
    with pytest.warns(UserWarning, match=r"Weights for input shape \(224, 224\)"), \
            pytest.raises(FileNotFoundError, match="mobilenet_1_0_224_tf_no_top.h5"):
        keras.applications.MobileNet(include_top=False, input_shape=(100, 100, 3))
    with pytest.raises(ValueError, match="only for the blocks of DenseNet121"):
        keras.applications.densenet.DenseNet([1, 1, 1, 1], include_top=False, input_shape=(32, 32, 3))


@pytest.mark.parametrize("ctor, size", [("InceptionV3", 75), ("Xception", 71), ("InceptionResNetV2", 75)])
def test_minimum_and_default_input_sizes(ctor, size):
    with pytest.raises(ValueError, match=f"at least {size}x{size}"):
        getattr(keras.applications, ctor)(weights=None, include_top=False, input_shape=(size - 1, size, 3))
    with pytest.raises(ValueError, match=r"should be \(299, 299, 3\)"):
        getattr(keras.applications, ctor)(input_shape=(224, 224, 3))


def test_densenet_is_channels_last_only():
    keras.backend.set_image_data_format("channels_first")
    try:
        with pytest.raises(ValueError, match="does not support the `channels_first`"):
            keras.applications.DenseNet121(weights=None)
    finally:
        keras.backend.set_image_data_format("channels_last")


def test_inception_resnet_block_type_is_checked():
    inp = keras.Input((8, 8, 4))
    with pytest.raises(ValueError, match="Unknown Inception-ResNet block type"):
        keras.applications.inception_resnet_v2.inception_resnet_block(inp, 0.1, "block9", 1)


def test_channels_first_networks_have_the_same_weights():
    # (TF's CPU kernels cannot run channels_first convolutions, so Keras records nothing here:
    # the weights are those of the channels_last network, the outputs transposed)
    shapes = lambda m: [tuple(w.shape) for w in m.weights]  # noqa: E731
    kwargs = dict(weights=None, alpha=0.25, classes=4, classifier_activation=None)
    last = keras.applications.MobileNet(input_shape=(32, 32, 3), **kwargs)
    keras.backend.set_image_data_format("channels_first")
    try:
        first = keras.applications.MobileNet(input_shape=(3, 32, 32), dropout=0.5, **kwargs)
        assert shapes(first) == shapes(last)
        first.set_weights(last.get_weights())
        x = np.random.default_rng(0).uniform(-1, 1, (2, 32, 32, 3)).astype("float32")
        want = last.predict(x, verbose=0)  # (logits of order 1e-17: compared relative to their scale)
        np.testing.assert_allclose(first.predict(x.transpose(0, 3, 1, 2), verbose=0), want, rtol=1e-4,
                                   atol=1e-4 * np.abs(want).max())
    finally:
        keras.backend.set_image_data_format("channels_last")
