"""tf.keras.preprocessing.image (ImageDataGenerator, its iterators, the image file helpers)
against Keras 3.15's batches (tests/fixtures/keras_surface/image_data_generator.npz, recorded by
tools/record_keras_surface.py from the cases of tests/keras_surface_cases.py).

The random draws are NumPy's global generator, seeded as Keras seeds it, so the batches are
Keras's: the only differences are float32 rounding in the interpolation (scipy.ndimage, the same
code in both), hence the tolerance."""
import importlib.util
import os

import numpy as np
import pytest

import keras_surface_cases as cases
from tapegrad import keras

FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "keras_surface", "image_data_generator.npz")
HAVE_PIL = importlib.util.find_spec("PIL") is not None
image = keras.preprocessing.image


@pytest.fixture(scope="module")
def want():
    with np.load(FIXTURE) as f:
        return {k: f[k] for k in f.files}


@pytest.fixture(scope="module")
def got(tmp_path_factory):
    if not HAVE_PIL:
        pytest.skip("Pillow is not installed (brightness_range and image files need it, as in Keras)")
    batches = cases.generator_batches(image, np, str(tmp_path_factory.mktemp("gen") / "images"))
    return {f"{name}__{i}": a for name, arrays in batches.items() for i, a in enumerate(arrays)}


CASES = sorted(cases.GENERATORS) + ["dir_" + n for n in sorted(cases.DIRECTORY)] + ["smart_resize"]


@pytest.mark.parametrize("case", CASES)
def test_batches_are_keras(got, want, case):
    keys = sorted(k for k in want if k.startswith(case + "__"))
    assert keys and keys == sorted(k for k in got if k.startswith(case + "__"))
    for k in keys:
        assert got[k].shape == want[k].shape and got[k].dtype == want[k].dtype, k
        np.testing.assert_allclose(got[k], want[k], rtol=1e-5, atol=1e-4, err_msg=k)


def test_flow_without_pillow_needs_nothing_but_numpy_and_scipy():
    gen = image.ImageDataGenerator(rotation_range=30, width_shift_range=0.2, zoom_range=0.1,
                                   horizontal_flip=True, rescale=1 / 255.0)
    x = cases.images(np)
    it = gen.flow(x, np.arange(5), batch_size=2, seed=0)
    first = next(it)
    assert first[0].shape == (2, 8, 8, 3) and first[0].dtype == np.float32
    assert 0.0 <= first[0].min() and first[0].max() <= 1.0
    again = gen.flow(x, np.arange(5), batch_size=2, seed=0)
    np.testing.assert_array_equal(next(again)[0], first[0])  # seeded: the same draws


def test_fit_on_a_generator_trains():
    gen = image.ImageDataGenerator(horizontal_flip=True, validation_split=0.2)
    x = np.random.default_rng(0).random((10, 8, 8, 1)).astype("float32")
    y = np.arange(10) % 2
    model = keras.Sequential([keras.Input((8, 8, 1)), keras.layers.Flatten(), keras.layers.Dense(2)])
    model.compile("sgd", keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    history = model.fit(gen.flow(x, y, batch_size=4, subset="training", seed=1), epochs=2, verbose=0,
                        validation_data=gen.flow(x, y, batch_size=4, subset="validation"))
    assert len(history.history["loss"]) == 2 and "val_loss" in history.history


def test_featurewise_without_fit_warns():
    gen = image.ImageDataGenerator(featurewise_center=True)
    with pytest.warns(UserWarning, match="hasn't been fit"):
        gen.standardize(np.ones((2, 2, 1), np.float32))


@pytest.mark.parametrize("kwargs, match", [
    ({"zoom_range": (0.1, 0.2, 0.3)}, "zoom_range"),
    ({"validation_split": 1.5}, "strictly between 0 and 1"),
    ({"brightness_range": 0.5}, "brightness_range"),
    ({"data_format": "channels_middle"}, "data_format"),
])
def test_bad_generator_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        image.ImageDataGenerator(**kwargs)


def test_bad_flow_arguments():
    gen = image.ImageDataGenerator(validation_split=0.5)
    with pytest.raises(ValueError, match="rank 4"):
        gen.flow(np.ones((3, 4, 4)))
    with pytest.raises(ValueError, match="same length"):
        gen.flow(np.ones((3, 4, 4, 1)), np.ones(2))
    with pytest.raises(ValueError, match="different number of classes"):
        gen.flow(np.ones((4, 4, 4, 1)), np.array([0, 0, 1, 1]), subset="training")
    with pytest.raises(ValueError, match="Invalid subset"):
        gen.flow(np.ones((4, 4, 4, 1)), subset="test")
    with pytest.raises(NotImplementedError, match="flow_from_directory"):
        gen.flow_from_dataframe(None)
    it = gen.flow(np.ones((4, 4, 4, 1)), batch_size=3)
    with pytest.raises(ValueError, match="has length 2"):
        it[2]


def test_directory_errors(tmp_path):
    gen = image.ImageDataGenerator()
    with pytest.raises(FileNotFoundError, match="not a directory"):
        gen.flow_from_directory(str(tmp_path / "missing"))
    with pytest.raises(ValueError, match="Invalid class_mode"):
        gen.flow_from_directory(str(tmp_path), class_mode="onehot")
    with pytest.raises(ValueError, match="Invalid color mode"):
        gen.flow_from_directory(str(tmp_path), color_mode="cmyk")


def test_smart_resize_checks_its_input():
    with pytest.raises(ValueError, match="incorrect rank"):
        image.smart_resize(np.ones((4, 4)), (2, 2))
    with pytest.raises(ValueError, match="tuple of 2 integers"):
        image.smart_resize(np.ones((4, 4, 1)), (2, 2, 2))
    with pytest.raises(TypeError, match="unexpected keyword"):
        image.smart_resize(np.ones((4, 4, 1)), (2, 2), antialias=True)


def test_affine_transform_checks_axes():
    with pytest.raises(ValueError, match="distinct"):
        image.apply_affine_transform(np.ones((2, 2, 1)), theta=10, row_axis=0, col_axis=0)
    with pytest.raises(ValueError, match="multi-channel 2D"):
        image.apply_affine_transform(np.ones((2, 2)), theta=10, row_axis=0, col_axis=1, channel_axis=2)
