"""keras.applications against Keras 3.15 (tests/fixtures/keras_surface.json, recorded by
tools/record_keras_surface.py): each network's layers, weight paths and shapes, parameter counts
and output shape, a Keras-saved weights file loaded into tapegrad's MobileNetV2 giving Keras's
prediction, and the weights / input checks."""
import hashlib
import json
import os

import numpy as np
import pytest

from tapegrad import keras

HERE = os.path.dirname(__file__)
FIXTURES = os.path.join(HERE, "fixtures")
with open(os.path.join(FIXTURES, "keras_surface.json")) as _f:
    RECORD = json.load(_f)
BUILT = {"MobileNetV2", "ResNet50", "ResNet101", "ResNet152", "ResNet50V2", "ResNet101V2",
         "ResNet152V2", "VGG16", "VGG19", "EfficientNetB0"}
CASES = {k: v for k, v in RECORD["applications"].items() if v["ctor"] in BUILT}
HEAVY = {"vgg16_default"}  # (138M parameters: half a minute to initialise on a small machine)


def digest(rows):
    return hashlib.sha1(json.dumps(rows, separators=(",", ":")).encode()).hexdigest()


def build(case):
    keras.backend.clear_session()  # (as the recorder: auto-named layers count from 0)
    kwargs = {k: tuple(v) if isinstance(v, list) else v for k, v in case["kwargs"].items()}
    return getattr(keras.applications, case["ctor"])(weights=None, **kwargs)


@pytest.mark.parametrize("name", sorted(set(CASES) - HEAVY))
def test_network_matches_keras(name):
    want = CASES[name]
    model = build(want)
    layers = [[layer.name, type(layer).__name__] for layer in model.layers]
    weights = [[w.path, list(w.shape), bool(w.trainable)] for w in model.weights]
    if "layers" in want:  # (written out in full for one case of each family: a readable diff)
        assert layers == want["layers"]
        assert weights == want["weights"]
    assert (model.name, len(layers), len(weights)) == (want["name"], want["n_layers"], want["n_weights"])
    assert digest(layers) == want["layers_sha1"]
    assert digest(weights) == want["weights_sha1"]
    trainable = sum(int(np.prod(w.shape)) for w in model.trainable_weights)
    assert [model.count_params(), trainable, model.count_params() - trainable] == want["params"]
    assert list(model.output.shape) == want["output_shape"]
    assert list(model.input.shape) == want["input_shape"]


def test_every_family_is_recorded():
    assert {c["ctor"] for c in CASES.values()} == BUILT


def test_keras_weights_file_loads_and_predicts_as_keras():
    pytest.importorskip("h5py")
    model = keras.applications.MobileNetV2(weights=os.path.join(FIXTURES, "keras_surface",
                                                                "mobilenet_v2_tiny.weights.h5"),
                                           alpha=0.1, input_shape=(32, 32, 3), include_top=False,
                                           pooling="avg")
    assert model.count_params() == RECORD["tiny"]["params"]
    data = np.load(os.path.join(FIXTURES, "keras_surface", "mobilenet_v2_tiny.npz"))
    x = keras.applications.mobilenet_v2.preprocess_input(data["input"])
    got = model.predict(x, verbose=0)
    # float32 through 52 convolution and batch-norm layers: summation order differs from
    # TensorFlow's kernels, so allow a few float32 ulps per layer on values of order 1.
    np.testing.assert_allclose(got, data["prediction"], rtol=1e-4, atol=1e-5)


def test_training_step_runs_on_a_small_network():
    # (batch norm over 2 samples at 1x1 resolution makes Keras's ResNet gradients overflow too:
    # 8 samples and a lower learning rate keep the step finite)
    model = keras.applications.MobileNetV2(weights=None, alpha=0.35, input_shape=(32, 32, 3), classes=3)
    model.compile(optimizer=keras.optimizers.SGD(1e-3), loss="sparse_categorical_crossentropy")
    x = np.random.default_rng(0).uniform(0, 255, (8, 32, 32, 3)).astype("float32")
    x = keras.applications.mobilenet_v2.preprocess_input(x)
    history = model.fit(x, np.arange(8) % 3, epochs=1, verbose=0)
    assert np.isfinite(history.history["loss"][0])
    probs = model.predict(x, verbose=0)
    np.testing.assert_allclose(probs.sum(axis=1), 1.0, rtol=1e-5)


def test_efficientnet_rescales_inside_and_trains():
    # EfficientNet takes [0, 255] pixels (Rescaling and an identity Normalization inside) and its
    # blocks drop whole samples (Dropout with noise_shape (None, 1, 1, 1)) while training
    model = keras.applications.EfficientNetB0(weights=None, input_shape=(32, 32, 3), classes=3)
    assert [type(layer).__name__ for layer in model.layers[1:3]] == ["Rescaling", "Normalization"]
    x = np.random.default_rng(0).uniform(0, 255, (4, 32, 32, 3)).astype("float32")
    np.testing.assert_allclose(model.predict(x, verbose=0).sum(axis=1), 1.0, rtol=1e-5)
    model.compile(optimizer=keras.optimizers.SGD(1e-3), loss="sparse_categorical_crossentropy")
    assert np.isfinite(model.fit(x, np.arange(4) % 3, epochs=1, verbose=0).history["loss"][0])


def test_input_tensor_builds_on_a_keras_tensor():
    inp = keras.Input((32, 32, 3))
    x = keras.layers.Rescaling(1 / 255.0)(inp)
    model = keras.applications.VGG16(weights=None, include_top=False, input_tensor=x, pooling="avg")
    assert model.inputs[0] is inp
    assert type(model.layers[1]).__name__ == "Rescaling"
    assert model.output.shape == (None, 512)


def test_imagenet_weights_not_downloaded(tmp_path, monkeypatch):
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    with pytest.raises(FileNotFoundError, match=r"downloads and tapegrad does not.*weights=None.*"
                                                r"load_weights"):
        keras.applications.VGG16(include_top=False, input_shape=(32, 32, 3))
    with pytest.raises(FileNotFoundError, match="mobilenet_v2_weights_tf_dim_ordering_tf_kernels_1.0_96_no_top.h5"):
        keras.applications.MobileNetV2(include_top=False, input_shape=(96, 96, 3))


def test_imagenet_weights_read_from_the_keras_cache(tmp_path, monkeypatch):
    pytest.importorskip("h5py")
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    os.makedirs(tmp_path / "models")
    src = os.path.join(FIXTURES, "keras_surface", "mobilenet_v2_tiny.weights.h5")
    name = "mobilenet_v2_weights_tf_dim_ordering_tf_kernels_0.35_96_no_top.h5"
    with open(src, "rb") as f, open(tmp_path / "models" / name, "wb") as g:
        g.write(f.read())
    # (a file of the wrong network in the cache: found, read, and refused for its layout)
    with pytest.raises(ValueError):
        keras.applications.MobileNetV2(alpha=0.35, include_top=False, input_shape=(96, 96, 3))


@pytest.mark.parametrize("kwargs, match", [
    ({"weights": "nowhere.h5"}, "The `weights` argument should be either"),
    ({"weights": "imagenet", "classes": 10}, "`classes` should be 1000"),
    ({"weights": None, "input_shape": (16, 16, 3), "include_top": False}, "at least 32x32"),
    ({"weights": None, "input_shape": (32, 3), "include_top": False}, "tuple of three integers"),
    ({"weights": "imagenet", "input_shape": (64, 64, 3)}, r"should be \(224, 224, 3\)"),
    ({"weights": "imagenet", "include_top": False, "input_shape": (64, 64, 1)}, "3 channels"),
    ({"weights": None, "include_top": True, "input_shape": (None, None, 3)}, "static `input_shape`"),
    ({"weights": None, "include_top": False, "input_tensor": np.zeros((1, 32, 32, 3))}, "must be a KerasTensor"),
])
def test_bad_arguments_raise_keras_errors(kwargs, match):
    with pytest.raises(ValueError, match=match):
        keras.applications.ResNet50(**kwargs)


def test_pretrained_weights_allow_only_softmax_or_logits(tmp_path, monkeypatch):
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    with pytest.raises(ValueError, match="Only `None` and `softmax` activations"):
        keras.applications.MobileNetV2(classifier_activation="sigmoid")


def test_mobilenet_v2_alpha_checks():
    with pytest.raises(ValueError, match="alpha must be one of"):
        keras.applications.MobileNetV2(alpha=0.2, weights="imagenet")
    with pytest.warns(UserWarning, match="1 or 3 input channels"):
        model = keras.applications.MobileNetV2(weights=None, include_top=False, input_shape=(32, 32, 4))
    assert model.name == "mobilenetv2_1.00_32"


def test_decode_predictions(tmp_path, monkeypatch):
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    preds = np.zeros((2, 1000), np.float32)
    preds[0, [3, 7]] = [0.5, 0.9]
    preds[1, [5, 999]] = [0.2, 1.0]
    with pytest.raises(FileNotFoundError, match="imagenet_class_index.json"):
        keras.applications.resnet50.decode_predictions(preds)
    with pytest.raises(ValueError, match=r"\(samples, 1000\)"):
        keras.applications.resnet50.decode_predictions(preds[:, :10])
    os.makedirs(tmp_path / "models")
    index = {str(i): [f"n{i:08d}", f"class_{i}"] for i in range(1000)}
    path = tmp_path / "models" / "imagenet_class_index.json"
    with open(path, "w") as f:
        json.dump(index, f)
    with pytest.raises(FileNotFoundError):  # (not Keras's file: its MD5 differs, so it is not used)
        keras.applications.resnet50.decode_predictions(preds)
    utils = keras.applications.imagenet_utils
    monkeypatch.setattr(utils, "cached_file", lambda name, file_hash: str(path))
    got = keras.applications.resnet50.decode_predictions(preds, top=2)
    assert [[r[:2] for r in row] for row in got] == [[("n00000007", "class_7"), ("n00000003", "class_3")],
                                                     [("n00000999", "class_999"), ("n00000005", "class_5")]]
    assert got[0][0][2] == pytest.approx(0.9)


def test_unknown_network_names_the_ones_there():
    with pytest.raises(AttributeError, match="MobileNetV2"):
        keras.applications.NoSuchNet  # noqa: B018
    assert "ResNet50" in dir(keras.applications)
