"""Bad input to Keras layers and training calls gets Keras 3.15's error type (checked by running
Keras) with a message that says what was wrong and what to do; never a silently wrong result.

Each row of ``BAD`` is ``(id, call, error type, regex the message must match)``.
"""
from __future__ import annotations

import numpy as np
import pytest

from tapegrad import keras
from tapegrad.errors import FailedPreconditionError, InvalidArgumentError

L = keras.layers


def _model():
    model = keras.Sequential([keras.Input((3,)), L.Dense(1)])
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
    # Keras: "The structure of `inputs` doesn't match the expected structure"; TF's converter:
    # "Attempt to convert a value (...) with an unsupported type (<class 'dict'>) to a Tensor."
    ("sequential-dict-input", lambda: _model().predict({"z": X}, verbose=0),
     ValueError, r"unsupported type \(<class 'dict'>\) to a Tensor"),
    ("text-vectorization-multi-hot-before-adapt", lambda: L.TextVectorization(output_mode="multi_hot")(["a"]),
     RuntimeError, r"you must set the layer's vocabulary before calling it"),
]


@pytest.mark.parametrize("case", BAD, ids=[b[0] for b in BAD])
def test_bad_input(case):
    _, call, error, pattern = case
    with pytest.raises(error, match=pattern):
        call()


def test_what_keras_accepts_still_works():
    # one_hot of a negative id is a row of zeros in Keras too (tf.one_hot's rule)
    out = L.CategoryEncoding(4, output_mode="one_hot")([1, -1]).numpy()
    np.testing.assert_array_equal(out, [[0, 1, 0, 0], [0, 0, 0, 0]])
    layer = L.TextVectorization()
    layer.adapt(["a b", "c"])
    assert layer(["a c"]).numpy().tolist() == [[layer.get_vocabulary().index("a"),
                                                 layer.get_vocabulary().index("c")]]
