"""What three programs of the fourth holdout set showed tapegrad doing differently from TF 2.21:
a list holding NumPy values converts with TF's dtype inference (keras_vit_classification), a
NumPy function of integer tensors gives NumPy's value (keras_ner_transformers), and Keras's
ops.image.resize casts back to an integer image's dtype; each expected value was obtained by
running the same expression under TensorFlow 2.21 / Keras 3.15."""
import numpy as np
import pytest

import tapegrad as tf
from tapegrad import keras


@pytest.mark.parametrize("value, dtype", [
    ([np.zeros(2, np.uint8)], "int32"), ([np.zeros(2, np.uint16)], "int32"), ([np.zeros(2, np.int8), [1, 2]], "int32"),
    ([np.array([2**40])], "int64"), ([np.array([1.0])], "float64"), ([np.float64(1.0)], "float64"),
    ([np.zeros(2, np.float16)], "float16"), ([np.zeros(1, np.float32), np.zeros(1)], "float32"),
    ([np.zeros(1), np.zeros(1, np.float32)], "float64"), ([np.zeros(1, np.uint8), np.zeros(1)], "float32"),
    ([np.array([1.5]), [2]], "float64"), ([[2], np.array([1.5])], "float32"), ([[np.float64(1)], [2.0]], "float64"),
    ([np.zeros(1, np.complex64)], "complex128"), ([np.zeros((0, 2))], "float32"), ([np.array([True])], "bool"),
])
def test_lists_of_numpy_values_infer_tf_dtypes(value, dtype):
    assert tf.constant(value).dtype.name == dtype
    assert keras.ops.convert_to_tensor(value).dtype.name == dtype


def test_out_of_range_integer_in_a_list():
    with pytest.raises(ValueError, match="out of int64's range"):
        tf.constant([np.uint64(2**63)])


def test_numpy_functions_of_integer_tensors_give_numpy_values():
    y = tf.constant([[1, 0], [3, 2]])
    flat = np.reshape(y, [-1])
    assert type(flat) is np.ndarray and flat.tolist() == [1, 0, 3, 2]
    mapping = {0: "O", 1: "B", 2: "I", 3: "E"}
    assert [mapping[t] for t in np.concatenate([flat[flat > 0], flat[:1]])] == ["B", "E", "I", "B"]
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:  # floats stay on the tape (docs/differences.md)
        tape.watch(x)
        s = np.sum(np.reshape(x, [2, 1]) * 3.0)
    assert isinstance(s, tf.Tensor) and tape.gradient(s, x).numpy().tolist() == [3.0, 3.0]


def test_resize_of_an_integer_image_rounds_back_to_its_dtype():
    img = np.arange(4 * 4 * 3, dtype=np.uint8).reshape(4, 4, 3) * 5
    out = keras.ops.image.resize(keras.ops.convert_to_tensor([img]), size=(3, 3))
    assert out.dtype.name == "int32"  # (the list made it int32, as TF)
    ref = tf.image.resize(tf.cast([img], tf.float32), (3, 3))
    assert np.array_equal(out.numpy(), np.round(ref.numpy()).astype(np.int32))
    assert keras.ops.image.resize(img, size=(3, 3)).dtype.name == "uint8"
    assert keras.ops.image.resize(img.astype(np.float16), size=(3, 3)).dtype.name == "float16"


def test_resize_of_integer_images_rounds_as_tensorflow():
    # TF's bilinear kernel is computed term by term in float32; values at exact halves round to
    # the same side only with its order of operations (tools/record_tf_resize_ints.py)
    import pathlib
    data = np.load(pathlib.Path(__file__).parent / "fixtures" / "tf_resize_ints.npz")
    for i in range(len(data.files) // 2):
        img, want = data[f"image_{i}"], data[f"resized_{i}"]
        got = keras.ops.image.resize(img, want.shape[1:3])
        assert got.dtype.name == "uint8" and np.array_equal(got.numpy(), want), i
