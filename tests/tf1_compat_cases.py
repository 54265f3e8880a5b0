"""The TF1 programs of tests/test_tf1_compat.py, run by it on tapegrad and by
tools/record_tf1_compat.py on TensorFlow (``tf``, ``tf1`` = ``tf.compat.v1``, ``text_format``:
protobuf's or tapegrad's). Each function works in the current directory and returns its results."""
import numpy as np


def error_name(f):
    try:
        f()
    except Exception as e:  # noqa: BLE001  (its type is the result)
        return type(e).__name__
    return None


def checkpoint(tf, path):
    reader = tf.train.load_checkpoint(path)
    return {k: [list(s), reader.get_variable_to_dtype_map()[k].name,
                None if k == "_CHECKPOINTABLE_OBJECT_GRAPH" else np.asarray(reader.get_tensor(k)).tolist()]
            for k, s in reader.get_variable_to_shape_map().items()}


def graphs_and_savers(tf, tf1):
    """Graph names, collections and get_variable's store; sessions; TF1's Saver; eager restores by
    names and Checkpoint's name-based restore. Writes model-7* and dict* here."""
    out = {}
    with tf.Graph().as_default():
        v1 = tf.Variable(1.0, name="v")
        v2 = tf.Variable(2.0, name="v")
        with tf1.variable_scope("outer"):
            w = tf1.get_variable("w", shape=[2], initializer=tf1.constant_initializer(4.0))
            with tf1.variable_scope("inner"):
                u = tf1.get_variable("u", shape=[], dtype=tf.int32, initializer=tf1.zeros_initializer())
            tf.Variable(0.0, name="t", trainable=False)
        out["graph_names"] = [v.name for v in tf1.global_variables()]
        out["trainable_names"] = [v.name for v in tf1.trainable_variables()]
        out["same_name_error"] = error_name(lambda: tf1.get_variable("outer/w", shape=[2]))
        with tf1.variable_scope("outer", reuse=True):
            out["reused"] = tf1.get_variable("w") is w
            out["missing_reuse_error"] = error_name(lambda: tf1.get_variable("nope", shape=[]))
        with tf1.variable_scope("outer", reuse=tf1.AUTO_REUSE):
            out["auto_reuse_new"] = tf1.get_variable("fresh", shape=[], initializer=tf1.ones_initializer()).name
        out["no_shape_error"] = error_name(lambda: tf1.get_variable("noshape", initializer=tf1.zeros_initializer()))
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            out["run_nest"] = {k: np.asarray(x).tolist() for k, x in sess.run({"w": w, "u": u, "vs": [v1, v2]}).items()}
            sess.run(w.assign([5.0, 6.0]))
            out["after_assign"] = sess.run(w).tolist()
            sess.run(tf1.global_variables_initializer())
            out["after_reinit"] = sess.run(w).tolist()
            saver = tf1.train.Saver()
            out["saver_path"] = saver.save(sess, "model", global_step=7).rsplit("/", 1)[-1]
            out["saver_ckpt"] = checkpoint(tf, "model-7")
            out["saver_list"] = [[k, s] for k, s in tf.train.list_variables("model-7")]
            out["saver_latest"] = tf.train.latest_checkpoint(".").rsplit("/", 1)[-1]
            out["saver_dict_ckpt"] = checkpoint(tf, tf1.train.Saver({"renamed": w}).save(sess, "dict"))
    out["eager_no_var_list_error"] = error_name(lambda: tf1.train.Saver())
    a = tf.Variable(0.0, name="v")
    b = tf.Variable([0.0, 0.0], name="outer/w")
    tf1.train.Saver([a, b]).restore(None, "model-7")
    out["eager_restored"] = [a.numpy().tolist(), b.numpy().tolist()]
    c = tf.Variable(0, name="outer/missing")
    out["restore_missing_error"] = error_name(lambda: tf1.train.Saver([c]).restore(None, "model-7"))
    d = tf.Variable([0.0, 0.0], name="outer/w")
    status = tf.train.Checkpoint(x=[d]).restore("model-7")
    out["name_based_checkpoint_restore"] = d.numpy().tolist()
    out["name_based_consumed_error"] = error_name(status.assert_consumed)  # (values no variable took: no error)
    out["name_based_missing_error"] = error_name(tf.train.Checkpoint(x=[d, c]).restore("model-7").assert_consumed)
    return out


def init_from_checkpoint_and_escaped_keys(tf, tf1):
    """init_from_checkpoint with a scope map and a one-to-one map (reads model-7, written by
    :func:`graphs_and_savers`), and Checkpoint's escaped dict keys."""
    out = {}
    with tf.Graph().as_default():
        with tf1.variable_scope("new"):
            x = tf1.get_variable("v", shape=[], initializer=tf1.zeros_initializer())
            y = tf1.get_variable("outer/w", shape=[2], initializer=tf1.zeros_initializer())
        z = tf1.get_variable("z", shape=[2], initializer=tf1.zeros_initializer())
        tf1.train.init_from_checkpoint("model-7", {"/": "new/"})
        tf1.train.init_from_checkpoint("model-7", {"outer/w": "z"})
        out["init_scope_bad_error"] = error_name(lambda: tf1.train.init_from_checkpoint("model-7", {"outer": "new/"}))
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            out["init_from_checkpoint"] = [np.asarray(r).tolist() for r in sess.run([x, y, z])]
    out["escaped_keys"] = sorted(checkpoint(tf, tf.train.Checkpoint(d={"a/b.c": tf.Variable(1.5)}).save("esc")))
    return out


TEXTS = {
    "basic": 'features { feature { key: "a" value { bytes_list { value: ["x", "y\\n\\101\\x42"] } } } '
             'feature { key: "b" value { int64_list { value: [7, -0x10, 010] } } } }',
    "floats": "features: < feature { key: 'f' value { float_list { value: 1.5 value: -2f value: inf value: 1e3 } } }, "
              "feature [{ key: 'g' value { float_list {} } }] ; >  # a comment",
    "adjacent": 'features { feature { key: "s" value { bytes_list { value: "ab" \'cd\' } } } }',
    "repeat_map_key": 'features { feature { key: "k" value { int64_list { value: 1 } } } '
                      'feature { key: "k" value { int64_list { value: 2 } } } }',
}
ONEOF = 'features { feature { key: "a" value { int64_list { value: 1 } float_list { value: 2 } } } }'
TWICE = 'features { feature { key: "a" value { int64_list { value: 1 } } } } features { }'
BAD = {"unknown_field": "feature {}", "unterminated": "features {",
       "bad_int": 'features { feature { key: "a" value { int64_list { value: 1.5 } } } }'}


def text_format_errors_and_merge(tf, text_format):
    out = {"oneof_parse_error": error_name(lambda: text_format.Parse(ONEOF, tf.train.Example())),
           "oneof_merge": text_format.Merge(ONEOF, tf.train.Example()).SerializeToString().hex(),
           "twice_parse_error": error_name(lambda: text_format.Parse(TWICE, tf.train.Example())),
           "twice_merge": text_format.Merge(TWICE, tf.train.Example()).SerializeToString().hex()}
    for name, bad in BAD.items():
        out[f"{name}_error"] = error_name(lambda: text_format.Parse(bad, tf.train.Example()))
    return out
