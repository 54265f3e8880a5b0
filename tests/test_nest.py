"""tf.nest against TensorFlow 2.21 (tests/fixtures/tf_surface.json, from
tools/record_tf_surface.py): results, and the type and text of every error."""
from __future__ import annotations

import collections
import json
import os

import pytest

import tapegrad as tf
from tapegrad import _nest

FIXTURE = json.load(open(os.path.join(os.path.dirname(__file__), "fixtures", "tf_surface.json"),
                         encoding="utf-8"))
ENV = {"tf": tf, "collections": collections, "Pt": collections.namedtuple("Pt", "y x"),
       "Pt2": collections.namedtuple("Pt", "y x")}


@pytest.mark.parametrize("code", sorted(FIXTURE["nest"]))
def test_nest_matches_tensorflow(code):
    try:
        got = ["ok", repr(eval(code, ENV))]  # noqa: S307
    except Exception as e:  # noqa: BLE001
        got = [type(e).__name__, str(e)]
    assert got == FIXTURE["nest"][code]


def test_attrs_classes_are_structures():
    attr = pytest.importorskip("attr")

    @attr.s
    class Pair:
        b = attr.ib()
        a = attr.ib()

    s = Pair([1, 2], 3)
    assert tf.nest.flatten(s) == [1, 2, 3]  # fields in definition order, not sorted
    assert tf.nest.map_structure(lambda x: x * 10, s) == Pair([10, 20], 30)


def test_unsortable_keys_are_a_type_error():
    with pytest.raises(TypeError, match="keys .* cannot be compared"):
        tf.nest.flatten({"b": 1, 2: 3})


def test_tensors_are_leaves_and_gradients_flow_through_map_structure():
    x = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        out = tf.nest.map_structure(lambda t: t * t, {"a": x, "b": [x]})
        loss = tf.reduce_sum(tf.add_n(tf.nest.flatten(out)))
    assert tape.gradient(loss, x).numpy().tolist() == [4.0, 8.0]


@pytest.mark.parametrize("structure", [
    1, [1, 2], (1, [2, (3,)], {"b": 4, "a": 5}), {"z": [1, 2], "a": (3,)}, [], ((), [], {}),
    [collections.namedtuple("P", "a b")(1, [2]), collections.OrderedDict(b=1, a=2)],
])
def test_a_packer_packs_as_pack_sequence_as_does(structure):
    # (a replay's host calls pack their arguments with one made once)
    flat = list(range(100, 100 + len(tf.nest.flatten(structure))))
    got, want = _nest.packer(structure)(flat), tf.nest.pack_sequence_as(structure, flat)
    assert got == want and type(got) is type(want)
    with pytest.raises(ValueError, match="Structure had"):
        _nest.packer(structure)(flat + [0])
