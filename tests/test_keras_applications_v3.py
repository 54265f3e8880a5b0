"""MobileNetV3, ConvNeXt, EfficientNetV2 and NASNet against Keras 3.15
(tests/fixtures/keras_applications_v3.json and .npz, recorded by
tools/record_keras_applications_v3.py): each network's layers and operations in order, weight
paths, shapes and trainability, parameter counts and input/output shapes, the predictions of
seeded weights=None networks, and the argument checks."""
import hashlib
import json
import os

import numpy as np
import pytest

from tapegrad import keras

HERE = os.path.dirname(__file__)
FIXTURES = os.path.join(HERE, "fixtures")
with open(os.path.join(FIXTURES, "keras_applications_v3.json")) as _f:
    RECORD = json.load(_f)
CASES = RECORD["applications"]
# (20M to 350M parameters: seconds to minutes each to initialise on a small machine; they pass,
# run them with `HEAVY=` emptied)
HEAVY = {"convnext_small_avg", "convnext_base_gray_max", "convnext_large_nopre", "convnext_xlarge_avg",
         "efficientnetv2_s_32", "efficientnetv2_m_top", "efficientnetv2_l_avg", "nasnet_large_64_top"}


def digest(rows):
    return hashlib.sha1(json.dumps(rows, separators=(",", ":")).encode()).hexdigest()


def build(ctor, kwargs, **extra):
    keras.backend.clear_session()  # (as the recorder: auto-named layers count from 0)
    kwargs = {k: tuple(v) if isinstance(v, list) else v for k, v in kwargs.items()}
    return getattr(keras.applications, ctor)(weights=None, **kwargs, **extra)


def operations(model):
    # (a keras.ops call on KerasTensors, `x + y`, is an operation but no layer: named by its class)
    return [[op.name if isinstance(op, keras.layers.Layer) else None, type(op).__name__]
            for op in model.operations]


@pytest.mark.parametrize("name", sorted(set(CASES) - HEAVY))
def test_network_matches_keras(name):
    want = CASES[name]
    model = build(want["ctor"], want["kwargs"])
    ops = operations(model)
    weights = [[w.path, list(w.shape), bool(w.trainable)] for w in model.weights]
    if "operations" in want:  # (written out in full for one case of each family: a readable diff)
        assert ops == want["operations"]
        assert weights == want["weights"]
    assert (model.name, len(model.layers), len(ops), len(weights)) == (want["name"], want["n_layers"],
                                                             want["n_operations"], want["n_weights"])
    assert digest(ops) == want["operations_sha1"]
    assert digest(weights) == want["weights_sha1"]
    trainable = sum(int(np.prod(w.shape)) for w in model.trainable_weights)
    assert [model.count_params(), trainable, model.count_params() - trainable] == want["params"]
    assert list(model.output.shape) == want["output_shape"]
    assert list(model.input.shape) == want["input_shape"]


def test_every_network_is_recorded():
    built = {"MobileNetV3Small", "MobileNetV3Large", "ConvNeXtTiny", "ConvNeXtSmall", "ConvNeXtBase",
             "ConvNeXtLarge", "ConvNeXtXLarge", "EfficientNetV2B0", "EfficientNetV2B1", "EfficientNetV2B2",
             "EfficientNetV2B3", "EfficientNetV2S", "EfficientNetV2M", "EfficientNetV2L", "NASNetMobile",
             "NASNetLarge"}
    assert {c["ctor"] for c in CASES.values()} == built
    assert built <= set(dir(keras.applications))


@pytest.mark.parametrize("name", sorted(RECORD["predict"]))
def test_seeded_network_predicts_as_keras(name):
    case = RECORD["predict"][name]
    data = np.load(os.path.join(FIXTURES, "keras_applications_v3.npz"))
    keras.backend.clear_session()
    keras.utils.set_random_seed(0)
    model = build(case["ctor"], case["kwargs"])
    got = model.predict(data[f"{name}__input"], verbose=0)
    want = data[f"{name}__prediction"]
    # float32 logits of order 1 after some 50 (MobileNetV3Small) and 70 (ConvNeXtTiny) layers;
    # the summation order of convolutions, matmuls and normalizations differs from TensorFlow's
    # kernels by a few ulps per layer, so 1e-4 relative of the largest logit bounds it.
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4 * np.abs(want).max())


def test_imagenet_weights_name_keras_files(tmp_path, monkeypatch):
    # tapegrad downloads nothing: the error names the file Keras would download into its cache
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    apps = keras.applications
    for ctor, kwargs, file in [
            (apps.MobileNetV3Small, {"include_top": False}, "weights_mobilenet_v3_small_224_1.0_float_no_top_v2.h5"),
            (apps.EfficientNetV2B0, {"include_top": False, "input_shape": (32, 32, 3)}, "efficientnetv2-b0_notop.h5"),
            (apps.NASNetMobile, {"include_top": False, "input_shape": (32, 32, 3)}, "nasnet_mobile_no_top.h5")]:
        with pytest.raises(FileNotFoundError, match=f"{file}.*weights=None"):
            with pytest.warns(UserWarning, match="Weights for input shape") if ctor in (
                    apps.MobileNetV3Small,) else _nothing():
                ctor(**kwargs)


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


@pytest.mark.parametrize("build, match", [
    (lambda: keras.applications.MobileNetV3Small(alpha=0.5), "alpha can be one of `0.75`, `1.0`"),
    (lambda: keras.applications.MobileNetV3Large(minimalistic=True, alpha=0.75), "`1.0` for minimalistic"),
    (lambda: keras.applications.MobileNetV3Small(weights=None, input_shape=(16, 40, 3)), "at least 32x32"),
    (lambda: keras.applications.MobileNetV3Small(weights=None, input_tensor=np.zeros((1, 32, 32, 3))),
     "not a keras tensor"),
    (lambda: keras.applications.MobileNetV3Small(weights=None, input_shape=(32, 40, 3),
                                                 input_tensor=keras.Input((32, 32, 3))), r"input_shape\[1\]"),
    (lambda: keras.applications.MobileNetV3Small(weights="imagenet", classes=10), "`classes` should be 1000"),
    (lambda: keras.applications.convnext.ConvNeXt([3, 3, 9, 3], [96, 192, 384, 768], weights="imagenet",
                                                   weights_name="convnext_tiny", name="convnext"),
     "must contain the weights variant"),
    (lambda: keras.applications.convnext.ConvNeXt([3, 3, 9, 2], [96, 192, 384, 768], weights="imagenet",
                                                   weights_name="convnext_tiny", name="convnext_tiny"),
     "Architecture configuration does not match"),
    (lambda: keras.applications.ConvNeXtTiny(weights="imagenet", input_shape=(64, 64, 3)),
     r"should be \(224, 224, 3\)"),
    (lambda: keras.applications.EfficientNetV2B0(weights=None, name="mine"), "blocks of the variant"),
    (lambda: keras.applications.EfficientNetV2S(weights=None, input_shape=(32, 3)), "three integers"),
    (lambda: keras.applications.nasnet.NASNet(penultimate_filters=100, weights=None), "multiple of 24"),
    (lambda: keras.applications.NASNetLarge(input_shape=(None, None, 3), include_top=False),
     "must be static"),
    (lambda: keras.applications.nasnet.NASNet((64, 64, 3), penultimate_filters=96, num_blocks=1,
                                              include_top=False, default_size=64), "can only be loaded"),
])
def test_bad_arguments_raise_keras_errors(build, match, tmp_path, monkeypatch):
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    with pytest.raises(ValueError, match=match):
        build()


def test_channels_first_is_refused_where_keras_refuses_it():
    keras.backend.set_image_data_format("channels_first")
    try:
        for ctor in (keras.applications.ConvNeXtTiny, keras.applications.NASNetMobile):
            with pytest.raises(ValueError, match="does not support the `channels_first`"):
                ctor(weights=None)
    finally:
        keras.backend.set_image_data_format("channels_last")


def test_mobilenet_v3_on_an_input_tensor_and_a_weights_file(tmp_path):
    pytest.importorskip("h5py")
    inp = keras.Input((48, 40, 3))
    x = keras.layers.Rescaling(2.0)(inp)
    kwargs = dict(weights=None, alpha=0.75, minimalistic=True, include_top=False, pooling="avg")
    model = keras.applications.MobileNetV3Small(input_tensor=x, **kwargs)
    assert model.inputs[0] is inp and type(model.layers[1]).__name__ == "Rescaling"
    path = str(tmp_path / "m.weights.h5")
    model.save_weights(path)
    again = keras.applications.MobileNetV3Small(input_shape=(48, 40, 3), **{**kwargs, "weights": path})
    x = np.random.default_rng(0).uniform(0, 255, (2, 48, 40, 3)).astype("float32")
    np.testing.assert_allclose(again.predict(x, verbose=0), model.predict(x / 2.0, verbose=0), rtol=1e-5,
                               atol=1e-6)


def test_stochastic_depth_drops_whole_samples_while_training():
    layer = keras.applications.convnext.StochasticDepth(0.25)
    x = np.ones((400, 2, 2, 3), np.float32)
    np.testing.assert_array_equal(layer(x).numpy(), x)
    y = layer(x, training=True).numpy()
    per_sample = y.reshape(400, -1)
    kept = np.float32(1) / np.float32(0.75)  # (x / keep_prob in float32)
    assert set(np.unique(per_sample).tolist()) <= {0.0, float(kept)}
    assert (per_sample.min(axis=1) == per_sample.max(axis=1)).all()  # (a sample is kept or dropped whole)
    assert 0.15 < (per_sample[:, 0] == 0).mean() < 0.35
    assert layer.get_config()["drop_path_rate"] == 0.25


def test_convnext_with_stochastic_depth_and_layer_scale_trains():
    model = keras.applications.convnext.ConvNeXt([1, 2, 1, 1], [8, 16, 24, 32], drop_path_rate=0.3,
                                                 input_shape=(32, 32, 3), weights=None, classes=3)
    names = [layer.name for layer in model.layers]
    assert "convnext_stage_0_block_0_identity" in names  # (the first block's rate is 0)
    assert "convnext_stage_1_block_0_stochastic_depth" in names
    scales = [w for w in model.weights if "_layer_scale/variable" in w.path]  # (variable, variable_1, ...)
    assert len(scales) == 5 and np.allclose(scales[0].numpy(), 1e-6)
    model.compile(optimizer=keras.optimizers.SGD(1e-2), loss="sparse_categorical_crossentropy")
    x = np.random.default_rng(0).uniform(0, 255, (8, 32, 32, 3)).astype("float32")
    history = model.fit(x, np.arange(8) % 3, epochs=1, verbose=0)
    assert np.isfinite(history.history["loss"][0])
    assert not np.allclose(scales[0].numpy(), 1e-6)  # (layer scale is trained)


def test_name_scope_makes_weight_paths_as_keras():
    with keras.name_scope("outer"):
        with keras.name_scope("inner", override_parent="root"):
            dense = keras.layers.Dense(1, name="d")
            dense.build((None, 2))
        caller = object()
        with keras.name_scope("s", caller=caller), keras.name_scope("s", caller=caller):
            other = keras.layers.Dense(1, name="e")
            other.build((None, 2))
    assert [w.path for w in dense.weights] == ["root/inner/d/kernel", "root/inner/d/bias"]
    assert other.kernel.path == "outer/s/e/kernel"
    with pytest.raises(ValueError, match="cannot contain character `/`"):
        keras.name_scope("a/b")


@pytest.mark.parametrize("layout", [".weights.h5", ".h5"])
@pytest.mark.parametrize("name", sorted(RECORD["files"]))
def test_keras_weights_files_load_and_predict_as_keras(name, layout):
    # Keras 3's own layout and the legacy one of Keras's pretrained files (weights="imagenet")
    pytest.importorskip("h5py")
    case = RECORD["files"][name]
    kwargs = {k: tuple(v) if k == "input_shape" else v for k, v in case["kwargs"].items()}
    path = os.path.join(FIXTURES, "keras_applications_v3", name + layout)
    keras.backend.clear_session()
    module = getattr(keras.applications, case["module"])
    model = getattr(module, case["builder"])(weights=path, **kwargs)
    assert model.count_params() == case["params"]
    data = np.load(os.path.join(FIXTURES, "keras_applications_v3", name + ".npz"))
    # (float32 through some 20 layers of order-1 values: a few ulps a layer, as above)
    np.testing.assert_allclose(model.predict(data["input"], verbose=0), data["prediction"], rtol=1e-4, atol=1e-5)


def test_include_preprocessing_rescales_inside_the_model():
    # MobileNetV3 with preprocessing takes [0, 255] pixels, without it [-1, 1] values
    kwargs = dict(weights=None, alpha=0.75, minimalistic=True, input_shape=(32, 32, 3), classes=3)
    inside = keras.applications.MobileNetV3Small(**kwargs)
    outside = keras.applications.MobileNetV3Small(include_preprocessing=False, **kwargs)
    assert type(inside.layers[1]).__name__ == "Rescaling" and len(inside.layers) == len(outside.layers) + 1
    outside.set_weights(inside.get_weights())
    x = np.random.default_rng(0).uniform(0, 255, (2, 32, 32, 3)).astype("float32")
    np.testing.assert_allclose(inside.predict(x, verbose=0), outside.predict(x / 127.5 - 1, verbose=0),
                               rtol=1e-5, atol=1e-6)
