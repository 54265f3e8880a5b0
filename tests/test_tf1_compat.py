"""TF1 graphs, sessions, variable scopes, name-based checkpoints (tapegrad.compat._graph) and protobuf's
text format of tf.train.Example (tapegrad.io._text_format), against TensorFlow's behaviour recorded by
tools/record_tf1_compat.py (tests/fixtures/tf1_compat.json). The values are small integers and
halves, exact in float32, so they are compared exactly."""
import importlib
import json
import os
import sys

import numpy as np
import pytest

import tapegrad as tf
from tapegrad.io import _text_format as text_format

tf1 = tf.compat.v1
REC = json.load(open(os.path.join(os.path.dirname(__file__), "fixtures", "tf1_compat.json")))


def error_name(f):
    try:
        f()
    except Exception as e:  # noqa: BLE001
        return type(e).__name__
    return None


def checkpoint(path):
    reader = tf.train.load_checkpoint(path)
    return {k: [list(s), reader.get_variable_to_dtype_map()[k].name,
                None if k == "_CHECKPOINTABLE_OBJECT_GRAPH" else np.asarray(reader.get_tensor(k)).tolist()]
            for k, s in reader.get_variable_to_shape_map().items()}


def test_graph_sessions_saver_and_name_based_restore(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    got = {}
    with tf.Graph().as_default():
        v1 = tf.Variable(1.0, name="v")
        v2 = tf.Variable(2.0, name="v")
        with tf1.variable_scope("outer"):
            w = tf1.get_variable("w", shape=[2], initializer=tf1.constant_initializer(4.0))
            with tf1.variable_scope("inner"):
                u = tf1.get_variable("u", shape=[], dtype=tf.int32, initializer=tf1.zeros_initializer())
            tf.Variable(0.0, name="t", trainable=False)
        got["graph_names"] = [v.name for v in tf1.global_variables()]
        got["trainable_names"] = [v.name for v in tf1.trainable_variables()]
        got["same_name_error"] = error_name(lambda: tf1.get_variable("outer/w", shape=[2]))
        with tf1.variable_scope("outer", reuse=True):
            got["reused"] = tf1.get_variable("w") is w
            got["missing_reuse_error"] = error_name(lambda: tf1.get_variable("nope", shape=[]))
        with tf1.variable_scope("outer", reuse=tf1.AUTO_REUSE):
            got["auto_reuse_new"] = tf1.get_variable("fresh", shape=[], initializer=tf1.ones_initializer()).name
        got["no_shape_error"] = error_name(lambda: tf1.get_variable("noshape", initializer=tf1.zeros_initializer()))
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            got["run_nest"] = {k: np.asarray(x).tolist() for k, x in sess.run({"w": w, "u": u, "vs": [v1, v2]}).items()}
            sess.run(w.assign([5.0, 6.0]))
            got["after_assign"] = sess.run(w).tolist()
            sess.run(tf1.global_variables_initializer())
            got["after_reinit"] = sess.run(w).tolist()
            saver = tf1.train.Saver()
            got["saver_path"] = os.path.basename(saver.save(sess, "model", global_step=7))
            got["saver_ckpt"] = checkpoint("model-7")
            got["saver_list"] = [[k, s] for k, s in tf.train.list_variables("model-7")]
            got["saver_latest"] = os.path.basename(tf.train.latest_checkpoint("."))
            got["saver_dict_ckpt"] = checkpoint(tf1.train.Saver({"renamed": w}).save(sess, "dict"))
    got["eager_no_var_list_error"] = error_name(lambda: tf1.train.Saver())
    a = tf.Variable(0.0, name="v")
    b = tf.Variable([0.0, 0.0], name="outer/w")
    tf1.train.Saver([a, b]).restore(None, "model-7")
    got["eager_restored"] = [a.numpy().tolist(), b.numpy().tolist()]
    c = tf.Variable(0, name="outer/missing")
    got["restore_missing_error"] = error_name(lambda: tf1.train.Saver([c]).restore(None, "model-7"))
    d = tf.Variable([0.0, 0.0], name="outer/w")
    status = tf.train.Checkpoint(x=[d]).restore("model-7")
    got["name_based_checkpoint_restore"] = d.numpy().tolist()
    got["name_based_consumed_error"] = error_name(status.assert_consumed)  # (values no variable took: no error)
    got["name_based_missing_error"] = error_name(tf.train.Checkpoint(x=[d, c]).restore("model-7").assert_consumed)
    for k, v in got.items():
        assert v == REC[k], k


def test_init_from_checkpoint_and_escaped_dict_keys(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with tf.Graph().as_default():
        tf1.train.Saver([tf.Variable(1.0, name="v"), tf.Variable([4.0, 4.0], name="outer/w")]).save(
            tf1.Session(), "model-7")
    with tf.Graph().as_default():
        with tf1.variable_scope("new"):
            x = tf1.get_variable("v", shape=[], initializer=tf1.zeros_initializer())
            y = tf1.get_variable("outer/w", shape=[2], initializer=tf1.zeros_initializer())
        z = tf1.get_variable("z", shape=[2], initializer=tf1.zeros_initializer())
        tf1.train.init_from_checkpoint("model-7", {"/": "new/"})
        tf1.train.init_from_checkpoint("model-7", {"outer/w": "z"})
        assert error_name(lambda: tf1.train.init_from_checkpoint("model-7", {"outer": "new/"})) == \
            REC["init_scope_bad_error"]
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            assert [np.asarray(r).tolist() for r in sess.run([x, y, z])] == REC["init_from_checkpoint"]
    e = tf.Variable(1.5)
    assert sorted(checkpoint(tf.train.Checkpoint(d={"a/b.c": e}).save("esc"))) == REC["escaped_keys"]


@pytest.mark.parametrize("name", sorted(REC["text"]))
def test_text_format_parse_and_print_as_protobuf(name):
    text, serialized, printed, one_line = REC["text"][name]
    ex = text_format.Parse(text, tf.train.Example())
    assert ex == tf.train.Example.FromString(bytes.fromhex(serialized))  # (a map's bytes are in no set order)
    assert text_format.MessageToString(ex) == printed
    assert text_format.MessageToString(ex, as_one_line=True) == one_line
    assert text_format.Parse(printed, tf.train.Example()) == ex


def test_text_format_errors_and_merge():
    oneof = 'features { feature { key: "a" value { int64_list { value: 1 } float_list { value: 2 } } } }'
    assert error_name(lambda: text_format.Parse(oneof, tf.train.Example())) == REC["oneof_parse_error"]
    assert text_format.Merge(oneof, tf.train.Example()).SerializeToString().hex() == REC["oneof_merge"]
    twice = 'features { feature { key: "a" value { int64_list { value: 1 } } } } features { }'
    assert error_name(lambda: text_format.Parse(twice, tf.train.Example())) == REC["twice_parse_error"]
    assert text_format.Merge(twice, tf.train.Example()).SerializeToString().hex() == REC["twice_merge"]
    for name, bad in {"unknown_field": "feature {}", "unterminated": "features {",
                      "bad_int": 'features { feature { key: "a" value { int64_list { value: 1.5 } } } }'}.items():
        assert error_name(lambda: text_format.Parse(bad, tf.train.Example())) == REC[f"{name}_error"], name
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
