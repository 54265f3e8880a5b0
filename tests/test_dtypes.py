"""DType facts recorded from TensorFlow 2.21 (tools/record_tf_dtypes.py): DataType enum numbers, which
Python types ``as_dtype`` takes, ``str``/``repr``, and makers given an enum number as their dtype."""
import json
import os

import numpy as np
import pytest

import tapegrad as tf

with open(os.path.join(os.path.dirname(__file__), "fixtures", "tf_dtypes.json"), encoding="utf-8") as f:
    TF = json.load(f)


@pytest.mark.parametrize("name", sorted(TF["dtypes"]))
def test_enum_str_and_repr_are_tensorflows(name):
    want = TF["dtypes"][name]
    d = tf.as_dtype(name)
    assert d.as_datatype_enum == want["enum"]
    assert str(d) == want["str"] and repr(d) == want["repr"]
    assert tf.as_dtype(want["enum"]) is d and tf.as_dtype(np.int64(want["enum"])) is d
    assert d == want["enum"]


@pytest.mark.parametrize("number", sorted(TF["enums"], key=int))
def test_every_enum_number_converts_or_raises_as_in_tensorflow(number):
    want = TF["enums"][number]
    if isinstance(want, dict):                          # not a DataType number at all
        with pytest.raises(TypeError, match="no DataType enum number"):
            tf.as_dtype(int(number))
    elif want in TF["dtypes"] or want in ("resource", "variant"):   # (the handles: below)
        assert tf.as_dtype(int(number)).name == want
    else:                                               # TF's, but NumPy has no such dtype
        with pytest.raises(TypeError, match=f"TensorFlow's {want}, which tapegrad does not have"):
            tf.as_dtype(int(number))


@pytest.mark.parametrize("name", sorted(TF["python_types"]))
def test_python_types(name):
    want = TF["python_types"][name]
    t = {"float": float, "bool": bool, "object": object, "int": int, "complex": complex, "str": str}[name]
    if isinstance(want, dict):
        with pytest.raises(TypeError, match="Cannot convert"):
            tf.as_dtype(t)
    else:
        assert tf.as_dtype(t).name == want


def test_makers_take_an_enum_number_as_dtype():
    got = {"zeros(1, 1)": tf.zeros(1, 1).dtype.name, "zeros([2], 3)": tf.zeros([2], 3).dtype.name,
           "constant(1.0, dtype=2)": tf.constant(1.0, dtype=2).dtype.name,
           "cast([1, 2], 2)": tf.cast([1, 2], 2).dtype.name, "float32 == 1": tf.float32 == 1}
    assert got == TF["makers"]


def test_print_of_a_dtype_is_tensorflows():
    assert f"{tf.float32}" == "<dtype: 'float32'>"
    assert f"{[tf.float32]}" == "[tf.float32]"


def test_resource_and_variant_name_handles_no_tensor_holds():
    # (TF 2.21: a function's Variable argument is DataType 20 in its FuncGraph signature)
    r = tf.as_dtype(20)
    assert r is tf.resource is tf.dtypes.resource is tf.as_dtype("resource")
    assert tf.as_dtype(21) is tf.variant and repr(tf.variant) == "tf.variant"
    assert str(r) == "<dtype: 'resource'>" and r.as_datatype_enum == 20 and r.size == 0
    assert not (r.is_floating or r.is_integer or r.is_bool or r.is_numpy_compatible) and r != tf.float32
    with pytest.raises(KeyError):
        r.as_numpy_dtype   # (TensorFlow's error)
    with pytest.raises(TypeError, match="Cannot find minimum value"):
        r.min
    for make in (lambda: tf.constant(1, dtype=tf.resource), lambda: tf.zeros(2, tf.variant),
                 lambda: tf.cast(tf.ones(2), tf.resource)):
        with pytest.raises(TypeError, match="No tensor holds dtype"):
            make()
