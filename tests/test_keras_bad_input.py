"""Bad input to Keras layers and training calls gets Keras 3.15's error type (checked by running
Keras) with a message that says what was wrong and what to do; never a silently wrong result.

Each row of ``BAD`` is ``(id, call, error type, regex the message must match)``.
"""
from __future__ import annotations

import numpy as np
import pytest

import tapegrad
from tapegrad import keras
from tapegrad.errors import FailedPreconditionError, InvalidArgumentError

L = keras.layers


def _model():
    model = keras.Sequential([keras.Input((3,)), L.Dense(1)])
    model.compile("sgd", "mse")
    return model


def _two_inputs():
    a, b = keras.Input((3,), name="a"), keras.Input((2,), name="b")
    model = keras.Model({"a": a, "b": b}, L.Concatenate()([a, b]))
    model.compile("sgd", "mse")
    return model


def _two_outputs():
    i = keras.Input((3,))
    b = L.Dense(1, name="b", kernel_initializer="zeros", bias_initializer="zeros")(i)
    a = L.Dense(1, name="a", kernel_initializer="zeros", bias_initializer="zeros")(i)
    model = keras.Model(i, [b, a])  # (outputs not in the order of their names)
    model.compile("sgd", "mse")
    return model


X, Y = np.ones((8, 3), np.float32), np.ones((8, 1), np.float32)

BAD = [
    # Keras: InvalidArgumentError from DenseBincount, "Input 'in' must be non-negative!"
    ("category-encoding-negative-multi-hot", lambda: L.CategoryEncoding(4)([[1, -1]]),
     InvalidArgumentError, r"must be non-negative! Negative input value found: -1.*\[0, num_tokens=4\)"),
    ("category-encoding-negative-count", lambda: L.CategoryEncoding(4, output_mode="count")([[1, -2]]),
     InvalidArgumentError, r"Negative input value found: -2"),
    # Keras: FailedPreconditionError "Table not initialized." (tapegrad says which layer and what to do)
    ("text-vectorization-before-adapt", lambda: L.TextVectorization()(["a b", "c"]),
     FailedPreconditionError, r"Table not initialized: TextVectorization .* has no vocabulary yet.*adapt"),
    ("string-lookup-before-adapt", lambda: L.StringLookup()(["a"]),
     FailedPreconditionError, r"Table not initialized: StringLookup .*adapt"),
    ("integer-lookup-before-adapt", lambda: L.IntegerLookup()([1, 2]),
     FailedPreconditionError, r"Table not initialized: IntegerLookup"),
    ("string-lookup-invert-before-adapt", lambda: L.StringLookup(invert=True)([1]),
     FailedPreconditionError, r"Table not initialized"),
    # Keras: ValueError "The structure of `inputs` doesn't match the expected structure"
    ("sequential-dict-input", lambda: _model().predict({"z": X}, verbose=0), ValueError,
     r"Sequential model .* takes one tensor \(its input 'input_layer.*'\), not a dict; got a dict "
     r"with keys \['z'\]"),
    ("sequential-dict-fit", lambda: _model().fit({"z": X}, Y, verbose=0), ValueError,
     r"takes one tensor .* not a dict"),
    # Keras: 'Missing data for input "b". You passed a data dictionary with keys ['a', 'c'].
    # Expected the following keys: ['a', 'b']'
    ("functional-dict-unknown-key", lambda: _two_inputs().predict({"a": X, "c": X[:, :2]}, verbose=0),
     ValueError, r"Missing data for input\(s\) \['b'\] .* keys \['a', 'c'\], of which \['c'\] name no "
                 r"input. Expected the following keys: \['a', 'b'\]"),
    # Keras: TypeError "Expected float32, but got zz of type 'str'" (tapegrad says which keys)
    ("fit-target-dict-unknown-key", lambda: _two_outputs().fit(X, {"a": Y, "zz": Y}, verbose=0),
     ValueError, r"keys \['a', 'zz'\], but the model names its outputs \['b', 'a'\]: \['zz'\] name no "
                 r"output; no target for \['b'\]"),
    # TF: "Attempt to convert a value (...) with an unsupported type (<class 'dict'>) to a Tensor."
    ("convert-dict", lambda: keras.ops.convert_to_tensor({"z": 1.0}), ValueError,
     r"unsupported type \(<class 'dict'>\) to a Tensor"),
    # Keras trains on batch_size=0 with its default and fails deep inside on -4 (see
    # docs/differences.md); a float or a string is a TypeError in Keras too
    ("fit-batch-size-zero", lambda: _model().fit(X, Y, batch_size=0, verbose=0), ValueError,
     r"`batch_size` must be a positive int .* got batch_size=0"),
    ("fit-batch-size-negative", lambda: _model().fit(X, Y, batch_size=-4, verbose=0), ValueError,
     r"got batch_size=-4"),
    ("fit-batch-size-float", lambda: _model().fit(X, Y, batch_size=2.5, verbose=0), TypeError,
     r"`batch_size` must be a positive int .* got 2.5 of type float"),
    ("fit-validation-batch-size", lambda: _model().fit(X, Y, validation_split=0.5, validation_batch_size=-1,
                                                      verbose=0), ValueError, r"got batch_size=-1"),
    ("evaluate-batch-size-zero", lambda: _model().evaluate(X, Y, batch_size=0, verbose=0), ValueError,
     r"batch_size=0"),
    ("predict-batch-size-negative", lambda: _model().predict(X, batch_size=-1, verbose=0), ValueError,
     r"batch_size=-1"),
    ("text-vectorization-multi-hot-before-adapt", lambda: L.TextVectorization(output_mode="multi_hot")(["a"]),
     RuntimeError, r"you must set the layer's vocabulary before calling it"),
]


@pytest.mark.parametrize("case", BAD, ids=[b[0] for b in BAD])
def test_bad_input(case):
    _, call, error, pattern = case
    with pytest.raises(error, match=pattern):
        call()


def test_a_bad_batch_size_trains_nothing():
    model = _model()
    before = [w.copy() for w in model.get_weights()]
    with pytest.raises(ValueError):
        model.fit(X, Y, batch_size=-4, verbose=0)
    for a, b in zip(model.get_weights(), before):
        np.testing.assert_array_equal(a, b)
    assert model.fit(X, Y, batch_size=np.int64(4), epochs=1, verbose=0).history["loss"]


def test_targets_in_a_dict_are_matched_to_outputs_by_name():
    # Keras 3.15 (recorded by hand): {'a_loss': 100.0, 'b_loss': 0.0, 'loss': 100.0}
    want = {"a_loss": 100.0, "b_loss": 0.0, "loss": 100.0}
    ya, yb = np.full((8, 1), 10.0, np.float32), np.zeros((8, 1), np.float32)
    assert _two_outputs().evaluate(X, {"a": ya, "b": yb}, verbose=0, return_dict=True) == want
    assert _two_outputs().evaluate(X, {"b": yb, "a": ya}, verbose=0, return_dict=True) == want
    assert _two_outputs().evaluate(X, [yb, ya], verbose=0, return_dict=True) == want


def test_what_keras_accepts_still_works():
    # one_hot of a negative id is a row of zeros in Keras too (tf.one_hot's rule)
    out = L.CategoryEncoding(4, output_mode="one_hot")([1, -1]).numpy()
    np.testing.assert_array_equal(out, [[0, 1, 0, 0], [0, 0, 0, 0]])
    layer = L.TextVectorization()
    layer.adapt(["a b", "c"])
    assert layer(["a c"]).numpy().tolist() == [[layer.get_vocabulary().index("a"),
                                                 layer.get_vocabulary().index("c")]]


@pytest.mark.parametrize("kw,arg", [({"y": np.ones(4)}, "`y`"), ({"sample_weight": np.ones(4)}, "`sample_weights`")])
def test_targets_or_weights_beside_a_dataset_are_refused_as_keras_does(kw, arg):
    m = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    m.compile("sgd", "mse")
    ds = tapegrad.data.Dataset.from_tensor_slices((np.ones((4, 2), np.float32), np.ones((4, 1), np.float32))).batch(2)
    with pytest.raises(ValueError, match=f"When providing `x` as a tf.data.Dataset, {arg} should not be passed"):
        m.fit(ds, verbose=0, **kw)
    gen = ((np.ones((2, 2), np.float32), np.ones((2, 1), np.float32)) for _ in range(2))
    with pytest.raises(ValueError, match=f"When providing `x` as a generator, {arg} should not be passed"):
        m.fit(gen, verbose=0, **kw)


def test_a_lone_callback_is_taken_as_keras_takes_it():
    m = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    m.compile("sgd", "mse")
    seen = []
    cb = keras.callbacks.LambdaCallback(on_epoch_end=lambda epoch, logs: seen.append(epoch))
    m.fit(np.ones((8, 2), np.float32), np.ones((8, 1), np.float32), epochs=2, verbose=0, callbacks=cb)
    assert seen == [0, 1]
