"""TF1 graph mode (tapegrad.compat._program, _train, _losses, _v1names): the programs of
tests/tf1_graph_cases.py against TensorFlow's results recorded by tools/record_tf1_graph.py
(tests/fixtures/tf1_graph.json). Numbers are float32 computations of a few ops, or of 4 steps of
an optimizer (each step a handful of float32 ops whose rounding may differ from TF's kernels in
the last bit), so floats are compared to 2e-5 relative (2e-6 absolute near 0); names, error
types and integers exactly."""
import json
import math
import os

import numpy as np
import pytest

import tapegrad as tf

import tf1_graph_cases as cases

tf1 = tf.compat.v1
REC = json.load(open(os.path.join(os.path.dirname(__file__), "fixtures", "tf1_graph.json")))


def same(got, want, path="") -> None:
    if isinstance(want, dict):
        assert isinstance(got, dict) and sorted(got) == sorted(want), path
        for k in want:
            same(got[k], want[k], f"{path}/{k}")
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), (path, got, want)
        for i, (g, w) in enumerate(zip(got, want)):
            same(g, w, f"{path}[{i}]")
    elif isinstance(want, float) and not isinstance(want, bool):
        assert isinstance(got, (float, int)) and not isinstance(got, bool), (path, got)
        assert math.isclose(got, want, rel_tol=2e-5, abs_tol=2e-6), (path, got, want)
    else:
        assert got == want, (path, got, want)


@pytest.mark.parametrize("name", ["placeholders_and_feeds", "counters_and_dependencies", "graph_optimizers",
                                  "eager_optimizers", "decays", "v1_losses", "v1_nn_and_initializers",
                                  "migration_debugging", "creator_scopes"])
def test_tf1_program_as_tensorflow(name):
    same(getattr(cases, name)(tf, tf1), REC[name], name)


def test_disable_eager_execution_as_tensorflow():
    try:
        same(cases.disabled_eager(tf, tf1), REC["disabled_eager"], "disabled_eager")
    finally:
        tf1.enable_eager_execution()
        tf1.reset_default_graph()
    assert tf.executing_eagerly()
    assert float(tf.constant(2.0) * 3.0) == 6.0  # (ops run eagerly again)
