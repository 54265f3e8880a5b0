"""Record what TensorFlow does with TF1 graphs, sessions, name-based checkpoints and protobuf's text
format of tf.train.Example, for tests/test_tf1_compat.py.

    /root/tfenv/bin/python tools/record_tf1_compat.py

writes tests/fixtures/tf1_compat.json.
"""
import json
import os
import tempfile

import numpy as np
import tensorflow as tf
import tensorflow.compat.v1 as tf1
from google.protobuf import text_format

OUT = {}
os.chdir(tempfile.mkdtemp())


def error_name(f):
    try:
        f()
    except Exception as e:  # noqa: BLE001  (its type is what is recorded)
        return type(e).__name__
    return None


def checkpoint(path):
    reader = tf.train.load_checkpoint(path)
    return {k: [list(s), reader.get_variable_to_dtype_map()[k].name,
                None if k == "_CHECKPOINTABLE_OBJECT_GRAPH" else np.asarray(reader.get_tensor(k)).tolist()]
            for k, s in reader.get_variable_to_shape_map().items()}


# graph names, collections and get_variable's store
with tf.Graph().as_default() as g:
    v1 = tf.Variable(1.0, name="v")
    v2 = tf.Variable(2.0, name="v")
    with tf1.variable_scope("outer"):
        w = tf1.get_variable("w", shape=[2], initializer=tf1.constant_initializer(4.0))
        with tf1.variable_scope("inner"):
            u = tf1.get_variable("u", shape=[], dtype=tf.int32, initializer=tf1.zeros_initializer())
        t = tf.Variable(0.0, name="t", trainable=False)
    OUT["graph_names"] = [v.name for v in tf1.global_variables()]
    OUT["trainable_names"] = [v.name for v in tf1.trainable_variables()]
    OUT["same_name_error"] = error_name(lambda: tf1.get_variable("outer/w", shape=[2]))
    with tf1.variable_scope("outer", reuse=True):
        OUT["reused"] = tf1.get_variable("w") is w
        OUT["missing_reuse_error"] = error_name(lambda: tf1.get_variable("nope", shape=[]))
    with tf1.variable_scope("outer", reuse=tf1.AUTO_REUSE):
        OUT["auto_reuse_new"] = tf1.get_variable("fresh", shape=[], initializer=tf1.ones_initializer()).name
    OUT["no_shape_error"] = error_name(lambda: tf1.get_variable("noshape", initializer=tf1.zeros_initializer()))
    with tf1.Session() as sess:
        sess.run(tf1.global_variables_initializer())
        OUT["run_nest"] = {k: np.asarray(x).tolist() for k, x in sess.run({"w": w, "u": u, "vs": [v1, v2]}).items()}
        sess.run(w.assign([5.0, 6.0]))
        OUT["after_assign"] = sess.run(w).tolist()
        sess.run(tf1.global_variables_initializer())
        OUT["after_reinit"] = sess.run(w).tolist()
        saver = tf1.train.Saver()
        OUT["saver_path"] = os.path.basename(saver.save(sess, "model", global_step=7))
        OUT["saver_ckpt"] = checkpoint("model-7")
        OUT["saver_list"] = [[k, s] for k, s in tf.train.list_variables("model-7")]
        OUT["saver_latest"] = os.path.basename(tf.train.latest_checkpoint("."))
        OUT["saver_dict_ckpt"] = checkpoint(tf1.train.Saver({"renamed": w}).save(sess, "dict"))

# eager: Saver needs var_list; restore by names, Checkpoint's name-based restore
OUT["eager_no_var_list_error"] = error_name(lambda: tf1.train.Saver())
a = tf.Variable(0.0, name="v")
b = tf.Variable([0.0, 0.0], name="outer/w")
tf1.train.Saver([a, b]).restore(None, "model-7")
OUT["eager_restored"] = [a.numpy().tolist(), b.numpy().tolist()]
c = tf.Variable(0, name="outer/missing")
OUT["restore_missing_error"] = error_name(lambda: tf1.train.Saver([c]).restore(None, "model-7"))
d = tf.Variable([0.0, 0.0], name="outer/w")
status = tf.train.Checkpoint(x=[d]).restore("model-7")
OUT["name_based_checkpoint_restore"] = d.numpy().tolist()
OUT["name_based_consumed_error"] = error_name(status.assert_consumed)
OUT["name_based_missing_error"] = error_name(tf.train.Checkpoint(x=[d, c]).restore("model-7").assert_consumed)

# init_from_checkpoint: a scope map and a one-to-one map
with tf.Graph().as_default():
    with tf1.variable_scope("new"):
        x = tf1.get_variable("v", shape=[], initializer=tf1.zeros_initializer())
        y = tf1.get_variable("outer/w", shape=[2], initializer=tf1.zeros_initializer())
    z = tf1.get_variable("z", shape=[2], initializer=tf1.zeros_initializer())
    tf1.train.init_from_checkpoint("model-7", {"/": "new/"})
    tf1.train.init_from_checkpoint("model-7", {"outer/w": "z"})
    OUT["init_scope_bad_error"] = error_name(lambda: tf1.train.init_from_checkpoint("model-7", {"outer": "new/"}))
    with tf1.Session() as sess:
        sess.run(tf1.global_variables_initializer())
        OUT["init_from_checkpoint"] = [np.asarray(r).tolist() for r in sess.run([x, y, z])]

# tf.train.Checkpoint escapes dict keys
e = tf.Variable(1.5)
OUT["escaped_keys"] = sorted(checkpoint(tf.train.Checkpoint(d={"a/b.c": e}).save("esc")))

# protobuf's text format of tf.train.Example
TEXTS = {
    "basic": 'features { feature { key: "a" value { bytes_list { value: ["x", "y\\n\\101\\x42"] } } } '
             'feature { key: "b" value { int64_list { value: [7, -0x10, 010] } } } }',
    "floats": "features: < feature { key: 'f' value { float_list { value: 1.5 value: -2f value: inf value: 1e3 } } }, "
              "feature [{ key: 'g' value { float_list {} } }] ; >  # a comment",
    "adjacent": 'features { feature { key: "s" value { bytes_list { value: "ab" \'cd\' } } } }',
    "repeat_map_key": 'features { feature { key: "k" value { int64_list { value: 1 } } } '
                      'feature { key: "k" value { int64_list { value: 2 } } } }',
}
OUT["text"] = {}
for name, text in TEXTS.items():
    ex = text_format.Parse(text, tf.train.Example())
    OUT["text"][name] = [text, ex.SerializeToString().hex(), text_format.MessageToString(ex),
                         text_format.MessageToString(ex, as_one_line=True)]
ONEOF = 'features { feature { key: "a" value { int64_list { value: 1 } float_list { value: 2 } } } }'
OUT["oneof_parse_error"] = error_name(lambda: text_format.Parse(ONEOF, tf.train.Example()))
OUT["oneof_merge"] = text_format.Merge(ONEOF, tf.train.Example()).SerializeToString().hex()
TWICE = 'features { feature { key: "a" value { int64_list { value: 1 } } } } features { }'
OUT["twice_parse_error"] = error_name(lambda: text_format.Parse(TWICE, tf.train.Example()))
OUT["twice_merge"] = text_format.Merge(TWICE, tf.train.Example()).SerializeToString().hex()
for name, bad in {"unknown_field": "feature {}", "unterminated": "features {", "bad_int":
                  'features { feature { key: "a" value { int64_list { value: 1.5 } } } }'}.items():
    OUT[f"{name}_error"] = error_name(lambda: text_format.Parse(bad, tf.train.Example()))

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures", "tf1_compat.json"),
          "w") as f:
    json.dump(OUT, f, indent=1, sort_keys=True)
    f.write("\n")
