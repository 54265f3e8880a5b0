"""TF1 graphs, sessions, variable scopes, name-based checkpoints (tapegrad.compat._graph) and protobuf's
text format of tf.train.Example (tapegrad.io._text_format), against TensorFlow's behaviour recorded by
tools/record_tf1_compat.py (tests/fixtures/tf1_compat.json). The values are small integers and
halves, exact in float32, so they are compared exactly."""
import importlib
import json
import os
import sys

import pytest

import tapegrad as tf
from tapegrad.io import _text_format as text_format

import tf1_compat_cases as cases

tf1 = tf.compat.v1
REC = json.load(open(os.path.join(os.path.dirname(__file__), "fixtures", "tf1_compat.json")))


def test_graph_sessions_saver_and_name_based_restore(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for k, v in cases.graphs_and_savers(tf, tf1).items():
        assert v == REC[k], k


def test_init_from_checkpoint_and_escaped_dict_keys(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with tf.Graph().as_default():
        tf1.train.Saver([tf.Variable(1.0, name="v"), tf.Variable([4.0, 4.0], name="outer/w")]).save(
            tf1.Session(), "model-7")
    for k, v in cases.init_from_checkpoint_and_escaped_keys(tf, tf1).items():
        assert v == REC[k], k


@pytest.mark.parametrize("name", sorted(REC["text"]))
def test_text_format_parse_and_print_as_protobuf(name):
    text, serialized, printed, one_line = REC["text"][name]
    ex = text_format.Parse(text, tf.train.Example())
    assert ex == tf.train.Example.FromString(bytes.fromhex(serialized))  # (a map's bytes are in no set order)
    assert text_format.MessageToString(ex) == printed
    assert text_format.MessageToString(ex, as_one_line=True) == one_line
    assert text_format.Parse(printed, tf.train.Example()) == ex


def test_text_format_errors_and_merge():
    for k, v in cases.text_format_errors_and_merge(tf, text_format).items():
        assert v == REC[k], k
    with pytest.raises(text_format.ParseError, match=r'^1:1 : Message type "tensorflow.Example" has no field named '
                                                     r'"feature"'):
        text_format.Parse("feature {}", tf.train.Example())


def test_import_hook_gives_text_format_for_tapegrads_messages():
    had = {k: sys.modules.get(k) for k in ("google", "google.protobuf", "google.protobuf.text_format")}
    with tf.install_as_tensorflow():
        import tensorflow as tf_alias
        pbtext = importlib.import_module("google.protobuf.text_format")
        ex = pbtext.Merge('features { feature { key: "n" value { int64_list { value: [3] } } } }',
                          tf_alias.train.Example())
        assert ex.features.feature["n"].int64_list.value == [3]
    assert {k: sys.modules.get(k) for k in had} == had  # (nothing left behind)


def test_ragged_concrete_function_takes_ragged_tensors():
    @tf.function
    def increment(x):
        return x + 1

    rt = tf.ragged.constant([[1, 2], [3]])
    cf = increment.get_concrete_function(rt)
    assert cf(rt).to_list() == [[2, 3], [4]]
    grow = tf.function(lambda x: x * 2.0).get_concrete_function(tf.RaggedTensorSpec(shape=[None, None],
                                                                                     dtype=tf.float32))
    assert grow(tf.ragged.constant([[1.0, 4.0, 3.0], [2.0]])).to_list() == [[2.0, 8.0, 6.0], [4.0]]
    with pytest.raises(TypeError, match="not compatible"):
        grow(tf.ragged.constant([[1, 2]]))
