"""Updates from IndexedSlices with repeated rows (an Embedding's gradient) give Keras 3.15's numbers
(tests/sparse_update_cases.py, recorded by tools/record_keras_sparse_updates.py): Keras's ops act on
each slice before the rows are summed, so Adam's second moment takes Σ gᵢ², and the clipping and
Adadelta's and Nadam's per-slice terms act on each slice.

Three float32 updates of a few operations each: a relative 2e-5 covers their rounding (and Nadam's
float32 running product, 4e-6 from Keras's in the dense case too); the per-slice semantics moves
the repeated rows by 10-50 % (summed first, Adam's step on row 0 is 0.1 where Keras's is 0.127).
"""
import json
import os

import numpy as np
import pytest

import tapegrad as tf
import sparse_update_cases as cases

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "fixtures", "keras_sparse_updates.json"), encoding="utf-8") as _f:
    RECORDED = json.load(_f)["cases"]


@pytest.mark.parametrize("name,kwargs", cases.OPTIMIZERS, ids=lambda c: c if isinstance(c, str) else "")
def test_repeated_rows_update_as_keras(name, kwargs):
    got = cases.run(tf, tf.keras, name, kwargs)
    want = RECORDED[cases.case_id(name, kwargs)]
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=2e-5, atol=2e-6)


def test_the_summed_gradient_is_not_what_keras_applies():
    dense = tf.convert_to_tensor(tf.IndexedSlices(tf.constant(cases.VALUES), tf.constant(cases.INDICES),
                                                  tf.constant(cases.START.shape)))
    v = tf.Variable(cases.START)
    opt = tf.keras.optimizers.Adam(0.1)
    for _ in range(3):
        opt.apply_gradients([(dense, v)])
    want = np.asarray(RECORDED[cases.case_id("Adam", {"learning_rate": 0.1})][-1])
    assert np.abs(v.numpy()[0] - want[0]).max() > 1e-2   # (row 0 repeats three times)
    np.testing.assert_allclose(v.numpy()[1], want[1], rtol=2e-5)   # (a row without slices)
