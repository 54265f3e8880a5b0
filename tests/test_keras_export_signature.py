"""The input signature ``model.export`` gives its endpoint (Keras's ``get_input_signature``): the
batch dimension is None whatever batch built the model, the structure of a functional model's
inputs is kept, and a subclassed model uses the shapes it was built with."""
import numpy as np
import pytest

import tapegrad as tf
from tapegrad import keras


def _serve_specs(model, path):
    model.export(str(path), verbose=False)
    fn = tf.saved_model.load(str(path)).signatures["serving_default"]
    return fn, fn.structured_input_signature[1]


def test_sequential_built_by_a_call_serves_any_batch(tmp_path):
    model = keras.Sequential([keras.layers.Dense(2)])
    model(np.ones((3, 5), "float32"))
    fn, specs = _serve_specs(model, tmp_path)
    assert [tuple(s.shape) for s in specs.values()] == [(None, 5)]
    x = np.arange(5, dtype="float32")[None]
    out = list(fn(**{next(iter(specs)): tf.constant(x)}).values())[0]
    np.testing.assert_allclose(out.numpy(), model(x).numpy(), rtol=1e-6)


def test_functional_dict_inputs_keep_their_structure(tmp_path):
    a, b = keras.Input((2,), name="a"), keras.Input((3,), name="b")
    out = keras.layers.Dense(1)(keras.layers.Concatenate()([a, b]))
    model = keras.Model({"a": a, "b": b}, out)
    fn, specs = _serve_specs(model, tmp_path)
    assert {k: tuple(s.shape) for k, s in specs.items()} == {"a": (None, 2), "b": (None, 3)}
    got = list(fn(a=tf.ones((4, 2)), b=tf.ones((4, 3))).values())[0]
    assert tuple(got.shape) == (4, 1)


def test_subclassed_model_uses_its_build_shape(tmp_path):
    class Net(keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = keras.layers.Dense(1)

        def call(self, x):
            return self.dense(x)

    model = Net()
    with pytest.raises(ValueError, match="not yet been built"):
        model.export(str(tmp_path / "unbuilt"), verbose=False)
    model(np.ones((7, 4), "float32"))
    fn, specs = _serve_specs(model, tmp_path / "built")
    assert [tuple(s.shape) for s in specs.values()] == [(None, 4)]
    assert tuple(list(fn(**{next(iter(specs)): tf.ones((2, 4))}).values())[0].shape) == (2, 1)


def test_default_signature_needs_outputs(tmp_path):
    """TensorFlow's rule when no signatures are given: the root's one function with an
    input_signature that returns tensors; one that returns nothing (an assignment) is none."""
    class Mutable(tf.Module):
        def __init__(self):
            super().__init__()
            self.v = tf.Variable(1.0)

        @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
        def mutate(self, new_v):
            self.v.assign(new_v)

    m = Mutable()
    tf.saved_model.save(m, str(tmp_path / "none"))
    loaded = tf.saved_model.load(str(tmp_path / "none"))
    assert len(loaded.signatures) == 0 and float(m.v.numpy()) == 1.0

    class Scaled(Mutable):
        @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
        def scaled(self, x):
            return x * self.v

    s = Scaled()
    tf.saved_model.save(s, str(tmp_path / "one"))
    sig = tf.saved_model.load(str(tmp_path / "one")).signatures["serving_default"]
    np.testing.assert_array_equal(list(sig(x=tf.constant([2.0])).values())[0].numpy(), [2.0])
