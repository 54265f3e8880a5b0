"""Keras 3's quantization under tapegrad (``Model.quantize``, ``Layer.quantize``, the int8
Dense, EinsumDense and Embedding, ``keras.quantizers``, ``keras.dtype_policies``), against the
numbers Keras 3.15 gave for tests/keras_quantize_cases.py (tools/record_keras_quantize.py).

Integers (the int8 kernels and tables, the packed int4), strings (weight names, dtype policies,
configs and error messages) and shapes are exact. Floats follow tests/tf_compare.py's rule: an
int8 layer's output is a sum of int8 products, exact in int32 in both, then one cast and one
division, so the floor for the float32 rounding of a few operations covers it; the gradients
are one float matmul or einsum with the dequantized kernel, whose summation order may differ.
"""
import json
import os
import warnings

import numpy as np
import pytest

import tapegrad as tf
import keras_quantize_cases as cases
from tf_compare import assert_close

keras = tf.keras
HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "fixtures", "keras_quantize.json"), encoding="utf-8") as _f:
    RECORDED = json.load(_f)["cases"]


def _is_numbers(x):
    return isinstance(x, list) and bool(x) and all(isinstance(v, (int, float, list)) and not isinstance(v, bool)
                                                   for v in x) and not any(isinstance(v, str) for v in _flat(x))


def _flat(x):
    if isinstance(x, list):
        for v in x:
            yield from _flat(v)
    else:
        yield x


def _compare(got, want, where):
    if isinstance(want, dict):
        assert isinstance(got, dict) and sorted(got) == sorted(want), where
        for k in want:
            _compare(got[k], want[k], f"{where}/{k}")
    elif isinstance(want, float) or _is_numbers(want) and any(isinstance(v, float) for v in _flat(want)) \
            and _even(want):
        assert_close(np.asarray(got, np.float32), np.asarray(want, np.float32), err_msg=where)
    elif isinstance(want, (list, tuple)) and not (_is_numbers(want) and _even(want)):
        got = list(got) if isinstance(got, tuple) else got
        assert isinstance(got, list) and len(got) == len(want), f"{where}: {got!r} != {want!r}"
        for i, (g, w) in enumerate(zip(got, want)):
            _compare(g, w, f"{where}[{i}]")
    else:  # (integers, strings, None, booleans: exact)
        assert np.array_equal(np.asarray(got), np.asarray(want)) if _is_numbers(want) else got == want, \
            f"{where}: {got!r} != {want!r}"


def _even(x):
    try:
        np.asarray(x, np.float32)
    except ValueError:  # (a list of arrays of several shapes: compared one by one)
        return False
    return True


def _json(x):
    return json.loads(json.dumps(x))


NEEDS_H5 = {"case_model_quantize_fit_save"}   # (saves and loads a .weights.h5 file: tapegrad[h5])

DIFFERENT = {  # what tapegrad does where Keras 3.15 fails (docs/differences.md)
    "case_einsum_dense_int8_ellipsis": "Keras 3.15 cannot quantize an EinsumDense with an ellipsis"}


@pytest.mark.parametrize("case", [c for c in cases.CASES if c.__name__ not in DIFFERENT], ids=lambda c: c.__name__)
def test_keras_s_numbers(case):
    if case.__name__ in NEEDS_H5:
        pytest.importorskip("h5py", reason="needs the optional extra tapegrad[h5]")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # ("Layer Flatten does not have a `quantize` method")
        got = _json(case(tf, keras))
    _compare(got, RECORDED[case.__name__], case.__name__)


def test_the_guide_s_warning_for_layers_without_quantize():
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3), keras.layers.Dropout(0.1)])
    with pytest.warns(UserWarning, match="Layer Dropout does not have a `quantize` method implemented"):
        model.quantize("int8")
    assert model.layers[0].quantization_mode == "int8"


@pytest.mark.parametrize("eq, shape, in_shape, explicit, explicit_shape", [
    ("...b,bc->...c", (4,), (2, 3, 5), "xyb,bc->xyc", (3, 4)),
    ("ab...,bc->ac...", (4, None), (2, 3, 5), "abx,bc->acx", (4, 5))])
def test_an_einsum_with_an_ellipsis_quantizes_as_its_explicit_equation(eq, shape, in_shape, explicit,
                                                                       explicit_shape):
    x = tf.constant(cases._x(*in_shape, seed=4))
    one = keras.layers.EinsumDense(eq, output_shape=shape)
    one.build(in_shape)
    other = keras.layers.EinsumDense(explicit, output_shape=explicit_shape)
    other.build(in_shape)
    other.set_weights(one.get_weights())
    one.quantize("int8")
    other.quantize("int8")
    for a, b in zip(one.weights, other.weights):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y1, y2 = one(x), other(x)
    np.testing.assert_array_equal(y1.numpy(), y2.numpy())
    np.testing.assert_allclose(tape.gradient(y1, x).numpy(), tape.gradient(y2, x).numpy(), rtol=1e-6)


def test_the_int8_gradient_is_the_float_product_s_with_the_dequantized_kernel():
    layer = keras.layers.Dense(3)
    layer.build((None, 4))
    layer.quantize("int8")
    x = tf.constant(cases._x(2, 4))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = layer(x)
    kernel = layer.kernel.numpy().astype(np.float32) / layer.kernel_scale.numpy()
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), np.ones((2, 3), np.float32) @ kernel.T, rtol=1e-6)
    assert [w.name for w in layer.trainable_weights] == ["bias"]


def test_unsupported_modes_say_what_to_do():
    layer = keras.layers.Dense(2)
    layer.build((None, 3))
    with pytest.raises(ValueError, match="GPTQConfig"):  # (Keras's: GPTQ needs its config and data)
        layer.quantize("gptq")
    with pytest.raises(NotImplementedError, match="GPTQ/AWQ"):
        keras.dtype_policies.get("gptq/4/128_from_float32")
    with pytest.raises(NotImplementedError, match=r"Dense.quantize\(mode='awq'\) is not implemented in tapegrad"):
        layer.quantized_build((3, 2), "awq")
    table = keras.layers.Embedding(4, 2)
    table.build()
    with pytest.raises(NotImplementedError, match=r"Expected one of \('int8', 'int4'\)"):  # (Keras's own)
        table.quantize("float8")
    assert layer.quantization_mode is None and layer.kernel.dtype.name == "float32"


def test_float8_scales_are_overwritten_by_their_gradients_and_listed_first():
    policy = keras.dtype_policies.QuantizedFloat8DTypePolicy("float8", "float32", amax_history_length=2)
    layer = keras.layers.Dense(2, dtype=policy)
    layer.build((None, 3))
    names = [w.name for w in layer.weights]
    assert names[:2] == ["inputs_scale", "inputs_amax_history"] and names[-2:] == ["kernel", "bias"]
    x = tf.constant(np.full((1, 3), 3.0, np.float32))
    opt = keras.optimizers.SGD(0.1)
    with tf.GradientTape() as tape:
        y = layer(x, training=True)
    opt.apply_gradients(zip(tape.gradient(y, layer.trainable_weights), layer.trainable_weights))
    np.testing.assert_array_equal(layer.inputs_amax_history.numpy(), [3.0, 0.0])  # (max|x|, then the old one)
    assert float(layer.inputs_scale.numpy()) == 1.0  # (the history was empty: the scale is kept)
    in_place = keras.layers.Dense(2)
    in_place.build((None, 3))
    in_place.quantize("float8")
    assert [w.name for w in in_place.weights] == names and in_place.inputs_amax_history.shape == (1024,)


def test_get_makes_a_quantizer_from_a_name_with_keywords():
    q = keras.quantizers.get("AbsMaxQuantizer", axis=0)
    assert isinstance(q, keras.quantizers.AbsMaxQuantizer) and q.axis == (0,)
    assert keras.quantizers.get(None) is None
    with pytest.raises(ValueError, match="Could not interpret quantizer identifier"):
        keras.quantizers.get(3)


def test_a_weights_file_keras_wrote_for_quantized_layers_loads():
    with open(os.path.join(HERE, "fixtures", "keras_quantize_h5.json"), encoding="utf-8") as fh:
        want = json.load(fh)
    pytest.importorskip("h5py")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        model = cases.h5_model(keras)
    model.load_weights(os.path.join(HERE, "fixtures", "keras_quantize.weights.h5"))
    assert_close(model(np.array(want["ids"], np.int32)).numpy(), np.array(want["y"], np.float32),
                 err_msg="outputs after loading Keras's weights file")


def test_int8_einsums_keras_runs_as_matmuls_sum_exactly():
    a = np.full((1, 2, 5000), 127, np.int8)
    b = np.full((5000, 3), 127, np.int8)
    want = 127 * 127 * 5000  # (past 2**24: float32 sums would round it)
    for eq in ("abc,cd->abd", "xyz,zw->xyw"):
        got = keras.ops.einsum(eq, a, b)
        assert got.dtype == tf.int32 and np.all(got.numpy() == want)
    assert np.all(keras.ops.matmul(a[0], b).numpy() == want)


def test_a_layer_of_your_own_quantizes_through_keras_s_hooks():
    class Scale(keras.layers.Layer):  # (Keras's pattern: quantize, quantized_build, _int8_call)
        def build(self, input_shape):
            self.w = self.add_weight(shape=(input_shape[-1],), initializer="ones", name="w")

        def call(self, x):
            return x * self.w

        def quantize(self, mode=None, type_check=True, config=None):
            values, scale = keras.quantizers.abs_max_quantize(self.w, axis=0, to_numpy=True)
            shape = self.w.shape
            del self.w
            self.quantized_build(shape, mode)
            self.w.assign(values)
            self.w_scale.assign(scale)
            self.dtype_policy = f"{mode}_from_float32"

        def quantized_build(self, input_shape, mode):
            self.w = self.add_weight(shape=input_shape, initializer="zeros", dtype="int8", trainable=False,
                                     name="w")
            self.w_scale = self.add_weight(shape=(1,), initializer="ones", trainable=False, name="w_scale")
            self._is_quantized = True

        def _int8_call(self, x):
            return x * (keras.ops.cast(self.w, "float32") / self.w_scale)

    layer = Scale()
    x = np.array([[1.0, -2.0]], np.float32)
    layer(x)
    layer.w.assign([0.5, 1.0])
    with pytest.raises(ValueError, match="Invalid quantization mode"):
        layer.quantize("int7")
    layer.quantize("int8")
    assert layer.quantization_mode == "int8" and [w.name for w in layer.weights] == ["w", "w_scale"]
    assert layer.w.dtype.name == "int8"
    np.testing.assert_allclose(layer(x).numpy(), [[0.5, -2.0]], rtol=1e-2)
    with pytest.raises(ValueError, match="already quantized"):
        layer.quantize("int8")
