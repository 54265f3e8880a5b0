"""TF1 graph-mode programs (placeholders, Session.run with feed_dict, tf.compat.v1.train's optimizers,
global step and decays, v1 losses, nn, initializers, templates, collections), as the TF2 migration
guides' TF1 cells write them. Run by tests/test_tf1_graph.py on tapegrad and by
tools/record_tf1_graph.py on TensorFlow (``tf``; ``tf1`` = ``tf.compat.v1``). Each function
returns a dict of plain results (lists of numbers, names, error type names)."""
import numpy as np

from tf1_compat_cases import error_name


def ls(x):
    return np.asarray(x).tolist()


X = (np.arange(24, dtype=np.float32).reshape(8, 3) / 10.0 - 1.0)
Y = np.eye(2, dtype=np.float32)[[0, 1, 1, 0, 1, 0, 0, 1]]
W0 = (np.arange(6, dtype=np.float32).reshape(3, 2) / 7.0 - 0.3)


def placeholders_and_feeds(tf, tf1):
    """Placeholders of unknown batch fed at several sizes, feeds of intermediate tensors, defaults,
    tf.gradients, the errors of a missing feed and of a feed of the wrong shape."""
    out = {}
    with tf.Graph().as_default():
        x = tf1.placeholder(tf.float32, shape=(None, 3), name="x")
        k = tf1.placeholder_with_default(tf.constant(2.0), shape=[], name="k")
        h = tf.reduce_sum(x * x, axis=1)
        y = h * k
        gx, = tf1.gradients(tf.reduce_sum(y), x)
        out["known_dims"] = [x.shape.as_list()[1:], x.get_shape().as_list()[1:]]
        out["eager_inside"] = [tf.executing_eagerly(), tf1.executing_eagerly()]
        with tf1.Session() as sess:
            out["batch8"] = ls(sess.run(y, feed_dict={x: X}))
            out["batch2_k3"] = ls(sess.run(y, {x: X[:2], k: 3.0}))
            out["feed_intermediate"] = ls(sess.run(y, {x: X[:2], h: [1.0, 10.0]}))
            out["feed_intermediate_only"] = ls(sess.run(y, {h: [1.0, 10.0, 100.0]}))
            out["grad"] = ls(sess.run(gx, {x: X[:3]}))
            got = sess.run({"h": h, "y": [y]}, {x: X[:1]})
            out["dict_fetch"] = {"h": ls(got["h"]), "y": [ls(got["y"][0])]}
            keep = tf1.placeholder(tf.float32, [])
            dropped = tf1.nn.dropout(x, keep_prob=keep)
            d = sess.run(dropped, {x: np.ones((40, 3), np.float32), keep: 0.5})
            out["graph_dropout"] = [list(d.shape), sorted(set(d.ravel().tolist()))]
            out["graph_dropout_keep_all"] = ls(sess.run(dropped, {x: X[:2], keep: 1.0}))
            out["missing_feed_error"] = error_name(lambda: sess.run(y))
            out["bad_shape_error"] = error_name(lambda: sess.run(y, {x: [1.0, 2.0, 3.0]}))
    out["eager_placeholder_error"] = error_name(lambda: tf1.placeholder(tf.float32))
    return out


def counters_and_dependencies(tf, tf1):
    """Updates run at each Session.run that asks for them (not when built); control dependencies,
    group, no_op, assign with read_value=False."""
    out = {}
    with tf.Graph().as_default():
        v = tf.Variable(0.0, name="counter")
        w = tf.Variable(10.0, name="other")
        inc = v.assign_add(1.0)
        dec = w.assign_sub(2.0, read_value=False)
        with tf.control_dependencies([dec]):
            after = tf.identity(v) + 100.0
        both = tf.group(inc, dec)
        nop = tf.no_op()
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            out["built_not_run"] = [ls(sess.run(v)), ls(sess.run(w))]
            out["inc_runs"] = [ls(sess.run(inc)) for _ in range(3)]
            out["dec_result"] = sess.run(dec)
            out["after_dep"] = [ls(sess.run(after)), ls(sess.run(w))]
            out["group_result"] = sess.run(both)
            out["no_op_result"] = sess.run(nop)
            out["final"] = [ls(sess.run(v)), ls(sess.run(w))]
            sess.run(tf1.global_variables_initializer())
            out["reinit"] = [ls(sess.run(v)), ls(sess.run(w))]
    with tf.Graph().as_default():  # (the batch-norm idiom: UPDATE_OPS run before the train op)
        p = tf1.get_variable("p", initializer=np.array([1.0, -2.0], np.float32))
        ma = tf1.get_variable("ma", shape=[], initializer=tf1.zeros_initializer(), trainable=False)
        tf1.add_to_collection(tf1.GraphKeys.UPDATE_OPS, ma.assign(ma * 0.5 + tf.reduce_sum(p)))
        with tf.control_dependencies(tf1.get_collection(tf1.GraphKeys.UPDATE_OPS)):
            train = tf1.train.GradientDescentOptimizer(0.25).minimize(tf.reduce_sum(p * p))
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            for _ in range(3):
                sess.run(train)
            out["update_ops"] = [ls(sess.run(p)), ls(sess.run(ma)), [v.name for v in tf1.trainable_variables()]]
    return out


def _model(tf1, opt, x, y, name):
    with tf1.variable_scope(name):
        w = tf1.get_variable("w", initializer=W0)
        b = tf1.get_variable("b", shape=[2], initializer=tf1.zeros_initializer())
    logits = tf1.nn.xw_plus_b(x, w, b)
    loss = tf1.losses.softmax_cross_entropy(y, logits)
    return w, b, loss


OPTIMIZERS = {
    "sgd": lambda tf1: tf1.train.GradientDescentOptimizer(0.5),
    "momentum": lambda tf1: tf1.train.MomentumOptimizer(0.1, 0.9),
    "nesterov": lambda tf1: tf1.train.MomentumOptimizer(0.1, 0.9, use_nesterov=True),
    "adam": lambda tf1: tf1.train.AdamOptimizer(0.05),
    "adagrad": lambda tf1: tf1.train.AdagradOptimizer(0.3),
    "rmsprop": lambda tf1: tf1.train.RMSPropOptimizer(0.01, momentum=0.5),
    "rmsprop_centered": lambda tf1: tf1.train.RMSPropOptimizer(0.01, centered=True),
}


def graph_optimizers(tf, tf1):
    """Each TF1 optimizer trains a softmax regression for 4 steps of Session.run on fed batches;
    its slots' and variables' names; minimize with a global step."""
    out = {}
    for key, make in OPTIMIZERS.items():
        with tf.Graph().as_default():
            x = tf1.placeholder(tf.float32, [None, 3])
            y = tf1.placeholder(tf.float32, [None, 2])
            opt = make(tf1)
            w, b, loss = _model(tf1, opt, x, y, "m")
            step = tf1.train.get_or_create_global_step()
            train = opt.minimize(loss, global_step=step)
            names = [v.name for v in tf1.global_variables()]
            with tf1.Session() as sess:
                sess.run(tf1.global_variables_initializer())
                losses = [float(sess.run([loss, train], {x: X[i:i + 4], y: Y[i:i + 4]})[0]) for i in range(4)]
                out[key] = {"losses": losses, "w": ls(sess.run(w)), "b": ls(sess.run(b)),
                            "step": int(sess.run(step)), "names": names, "slots": opt.get_slot_names(),
                            "slot_w": {n: ls(sess.run(opt.get_slot(w, n))) for n in opt.get_slot_names()}}
    return out


def eager_optimizers(tf, tf1):
    """The same optimizers in eager code: minimize takes a callable loss and updates at once."""
    out = {}
    for key, make in OPTIMIZERS.items():
        opt = make(tf1)
        w = tf.Variable(W0, name="w")
        b = tf.Variable(np.zeros(2, np.float32), name="b")

        def loss_fn(i):
            return lambda: tf1.losses.softmax_cross_entropy(Y[i:i + 4], tf.matmul(X[i:i + 4], w) + b)
        for i in range(3):
            opt.minimize(loss_fn(i), var_list=[w, b])
        gv = opt.compute_gradients(loss_fn(3), var_list=[w, b])
        opt.apply_gradients(gv)
        out[key] = {"w": ls(w.numpy()), "b": ls(b.numpy())}
    out["tensor_loss_error"] = error_name(
        lambda: tf1.train.GradientDescentOptimizer(0.1).compute_gradients(tf.constant(1.0)))
    return out


def decays(tf, tf1):
    """Learning-rate decays at global steps 0, 3, 10, 25 (a graph: tensors of the step)."""
    out = {}
    with tf.Graph().as_default():
        step = tf1.train.get_or_create_global_step()
        again = tf1.train.get_or_create_global_step()
        out["global_step"] = [step.name, step.dtype.name, again is step, step.trainable]
        rates = {
            "exponential": tf1.train.exponential_decay(0.1, step, 10, 0.5),
            "exponential_stair": tf1.train.exponential_decay(0.1, step, 10, 0.5, staircase=True),
            "polynomial": tf1.train.polynomial_decay(0.1, step, 20, end_learning_rate=0.01, power=2.0),
            "polynomial_cycle": tf1.train.polynomial_decay(0.1, step, 20, end_learning_rate=0.01, cycle=True),
            "piecewise": tf1.train.piecewise_constant(step, [5, 15], [1.0, 0.5, 0.1]),
            "natural_exp": tf1.train.natural_exp_decay(0.1, step, 10, 0.5),
            "inverse_time": tf1.train.inverse_time_decay(0.1, step, 10, 0.5),
            "cosine": tf1.train.cosine_decay(0.1, step, 20, alpha=0.1),
        }
        set_step = tf1.placeholder(tf.int64, [])
        assign = step.assign(set_step)
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            for s in (0, 3, 10, 25):
                sess.run(assign, {set_step: s})
                for k, v in sess.run(rates).items():
                    out.setdefault(k, []).append(float(v))
    eager_step = tf.Variable(7, dtype=tf.int64)
    fn = tf1.train.exponential_decay(0.1, eager_step, 10, 0.5)
    out["eager_callable"] = [callable(fn), float(fn())]
    return out


def v1_losses(tf, tf1):
    """TF1's losses with weights and reductions (eager), and their collections in a graph."""
    labels = np.array([[0.0, 1.0], [1.0, 0.0], [0.0, 1.0]], np.float32)
    logits = np.array([[0.5, -1.0], [2.0, 0.3], [-0.2, 0.1]], np.float32)
    preds = np.array([[0.2, 0.7], [0.9, 0.4], [0.5, 0.5]], np.float32)
    weights = np.array([[1.0], [0.0], [2.0]], np.float32)
    L = tf1.losses
    R = L.Reduction
    out = {}
    for red in ("NONE", "SUM", "MEAN", "SUM_OVER_BATCH_SIZE", "SUM_BY_NONZERO_WEIGHTS"):
        r = getattr(R, red)
        out[f"mse_{red}"] = ls(L.mean_squared_error(labels, preds, weights=weights, reduction=r))
        out[f"abs_{red}"] = ls(L.absolute_difference(labels, preds, weights=weights, reduction=r))
    out["huber"] = ls(L.huber_loss(labels, logits, delta=0.5))
    out["log_loss"] = ls(L.log_loss(labels, preds, weights=weights))
    out["hinge"] = ls(L.hinge_loss(labels, logits))
    out["cosine"] = ls(L.cosine_distance(tf.math.l2_normalize(labels, 1), tf.math.l2_normalize(preds, 1), axis=1))
    out["sigmoid_ce"] = ls(L.sigmoid_cross_entropy(labels, logits, label_smoothing=0.1))
    out["softmax_ce"] = ls(L.softmax_cross_entropy(labels, logits, weights=[1.0, 2.0, 0.5], label_smoothing=0.2))
    out["sparse_ce"] = ls(L.sparse_softmax_cross_entropy([1, 0, 1], logits, weights=[1.0, 0.0, 3.0]))
    out["weighted"] = ls(L.compute_weighted_loss([1.0, 2.0, 3.0], weights=[0.0, 1.0, 1.0]))
    out["reduction_names"] = [R.NONE, R.SUM, R.MEAN, R.SUM_OVER_BATCH_SIZE, R.SUM_BY_NONZERO_WEIGHTS]
    out["eager_collected"] = len(L.get_losses())
    with tf.Graph().as_default():
        l2 = lambda w: 0.5 * tf.reduce_sum(tf.square(w))  # noqa: E731
        with tf1.variable_scope("reg", regularizer=l2):
            tf1.get_variable("w", initializer=np.array([1.0, 2.0], np.float32))
        a = L.mean_squared_error(labels, preds)
        L.hinge_loss(labels, logits)
        tf1.add_to_collection(tf1.GraphKeys.UPDATE_OPS, a)
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            out["graph_collected"] = [len(L.get_losses()), len(L.get_regularization_losses()),
                                      len(tf1.get_collection(tf1.GraphKeys.UPDATE_OPS))]
            out["total"] = [float(sess.run(L.get_total_loss())), float(sess.run(L.get_regularization_loss())),
                            float(sess.run(tf.math.add_n(tf1.get_collection(
                                tf1.GraphKeys.REGULARIZATION_LOSSES))))]
    out["bad_reduction_error"] = error_name(lambda: L.compute_weighted_loss([1.0], reduction="nope"))
    return out


def v1_nn_and_initializers(tf, tf1):
    """tf.compat.v1.nn's TF1 argument names; TF1 initializers' dtypes and values; ConfigProto;
    make_template; tf.compat.v1.layers' error; GraphKeys' names."""
    x = np.array([[1.0, -2.0, 3.0], [0.5, 0.0, -1.0]], np.float32)
    img = np.arange(32, dtype=np.float32).reshape(1, 4, 4, 2) / 10.0
    k = np.ones((2, 2, 2, 1), np.float32) / 4.0
    out = {
        "softmax_dim": ls(tf1.nn.softmax(x, dim=0)),
        "log_softmax_dim": ls(tf1.nn.log_softmax(x, dim=-1)),
        "moments_keep_dims": [ls(m) for m in tf1.nn.moments(x, axes=[1], keep_dims=True)],
        "l2_normalize_dim": ls(tf1.nn.l2_normalize(x, dim=1)),
        "conv2d_filter": ls(tf1.nn.conv2d(img, filter=k, strides=[1, 1, 1, 1], padding="VALID")),
        "max_pool_value": ls(tf1.nn.max_pool(value=img, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="SAME")),
        "avg_pool_value": ls(tf1.nn.avg_pool(value=img, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="SAME")),
        "xw_plus_b": ls(tf1.nn.xw_plus_b(x, np.ones((3, 2), np.float32), [1.0, -1.0])),
        "softmax_ce_v1": ls(tf1.nn.softmax_cross_entropy_with_logits(labels=[[0.2, 0.3, 0.5]] * 2, logits=x)),
        "sparse_ce_positional_error": error_name(lambda: tf1.nn.sparse_softmax_cross_entropy_with_logits([1], x)),
        "dropout_keep_all": ls(tf1.nn.dropout(x, keep_prob=1.0)),
        "relu": ls(tf1.nn.relu(x)),
    }
    d = np.asarray(tf1.nn.dropout(np.ones((50, 40), np.float32), keep_prob=0.25))
    out["dropout_values"] = sorted(set(np.round(d, 4).ravel().tolist()))
    out["dropout_both_error"] = error_name(lambda: tf1.nn.dropout(x, keep_prob=0.5, rate=0.5))
    inits = {
        "zeros": tf1.initializers.zeros(), "ones": tf1.initializers.ones(dtype=tf.float64),
        "constant": tf1.initializers.constant(3.0), "normal0": tf1.random_normal_initializer(mean=1.5, stddev=0.0),
        "uniform0": tf1.random_uniform_initializer(minval=2.0, maxval=2.0), "identity": tf1.initializers.identity(),
        "const_int": tf1.constant_initializer(7), "zeros_int": tf1.zeros_initializer(dtype=tf.int32),
    }
    out["init_values"] = {n: [ls(i([2, 2])), tf.as_dtype(i([2, 2]).dtype).name] for n, i in inits.items()}
    sampled = {"glorot_uniform": tf1.glorot_uniform_initializer(), "normal": tf1.random_normal_initializer(),
               "truncated": tf1.truncated_normal_initializer(stddev=2.0), "vs": tf1.variance_scaling_initializer(),
               "orth": tf1.orthogonal_initializer(), "he": tf1.initializers.he_normal(),
               "uniform": tf1.random_uniform_initializer()}
    out["init_sampled"] = {}
    for n, i in sampled.items():
        v = np.asarray(i([100, 100]))
        out["init_sampled"][n] = [list(v.shape), str(v.dtype)]
    tr = np.asarray(tf1.truncated_normal_initializer(stddev=2.0)([1000]))
    out["truncated_within_2sd"] = bool(np.all(np.abs(tr) <= 4.0))
    u = np.asarray(tf1.random_uniform_initializer()([1000]))
    out["uniform_01"] = bool(u.min() >= 0.0 and u.max() < 1.0)
    c = tf1.ConfigProto(allow_soft_placement=True, log_device_placement=False)
    c.gpu_options.allow_growth = True
    out["config"] = [c.allow_soft_placement, c.log_device_placement, c.gpu_options.allow_growth,
                     c.intra_op_parallelism_threads]
    out["config_error"] = error_name(lambda: tf1.ConfigProto(no_such_field=1))
    out["layers_error"] = error_name(lambda: tf1.layers.dense(x, 2))
    out["layers_class_error"] = error_name(lambda: tf1.layers.Dense)
    out["graph_keys"] = [tf1.GraphKeys.GLOBAL_VARIABLES, tf1.GraphKeys.TRAINABLE_VARIABLES,
                         tf1.GraphKeys.REGULARIZATION_LOSSES, tf1.GraphKeys.UPDATE_OPS, tf1.GraphKeys.LOSSES,
                         tf1.GraphKeys.GLOBAL_STEP, tf1.GraphKeys.MODEL_VARIABLES]
    with tf.Graph().as_default():
        def scale(v, name):
            return v * tf1.get_variable(name, [], initializer=tf1.constant_initializer(2.0))
        t = tf1.make_template("scale", scale, name="s")
        a, b = t(1.0), t(3.0)
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            out["template"] = [ls(sess.run(a)), ls(sess.run(b)), [v.name for v in tf1.global_variables()]]
    return out


def disabled_eager(tf, tf1):
    """disable_eager_execution: ops at top level go to the global graph (run last by the recorder:
    TensorFlow cannot enable eager execution again)."""
    out = {}
    tf1.disable_eager_execution()
    out["eagerly"] = tf.executing_eagerly()
    x = tf1.placeholder(tf.float32, [None], name="xs")
    v = tf1.get_variable("acc", [], initializer=tf1.zeros_initializer())
    add = v.assign_add(tf.reduce_sum(x))
    with tf1.Session() as sess:
        sess.run(tf1.global_variables_initializer())
        out["runs"] = [float(sess.run(add, {x: [1.0, 2.0]})), float(sess.run(add, {x: [3.0]}))]
    return out


def _dense(tf, tf1, x, units, name):
    with tf1.variable_scope(name):
        n = x.shape[-1]
        w = tf1.get_variable("kernel", initializer=(np.arange(n * units, dtype=np.float32).reshape(n, units)
                                                    / (n * units) - 0.4))
        b = tf1.get_variable("bias", shape=[units], initializer=tf1.zeros_initializer())
    return tf1.nn.bias_add(tf.matmul(x, w), b)


def migration_debugging(tf, tf1):
    """The migration_debugging guide's TF1 model (its layers.dense written with get_variable,
    which TF 2.21 has no layers for): polynomial_decay on the global step, compute_gradients on
    the graph's TRAINABLE_VARIABLES, apply_gradients, and Session.run fetching a dict of logged
    tensors (grads_and_vars pairs among them) with the train op, 5 steps."""
    params = {"layer_1_size": 3, "layer_2_size": 2, "num_classes": 2, "init_lr": 0.5, "end_lr": 0.05,
              "decay_steps": 3, "lr_power": 1.5}
    graph = tf.Graph()
    logs = {"step": [], "lr": [], "loss": [], "grads_and_vars": [], "vars": [], "layer_out": []}
    with graph.as_default(), tf1.Session(graph=graph) as sess:
        inputs = tf1.placeholder(tf.float32, shape=(None, 3))
        labels = tf1.placeholder(tf.float32, shape=(None, params["num_classes"]))
        out_1 = _dense(tf, tf1, inputs, params["layer_1_size"], "dense")
        out_2 = _dense(tf, tf1, out_1, params["layer_2_size"], "dense_1")
        logits = _dense(tf, tf1, out_2, params["num_classes"], "dense_2")
        loss = tf1.losses.softmax_cross_entropy(labels, logits)
        global_step = tf1.train.get_or_create_global_step()
        lr = tf1.train.polynomial_decay(learning_rate=params["init_lr"], global_step=global_step,
                                        decay_steps=params["decay_steps"], end_learning_rate=params["end_lr"],
                                        power=params["lr_power"])
        optimizer = tf1.train.GradientDescentOptimizer(lr)
        grads_and_vars = optimizer.compute_gradients(
            loss=loss, var_list=graph.get_collection(tf1.GraphKeys.TRAINABLE_VARIABLES))
        train_op = optimizer.apply_gradients(grads_and_vars, global_step=global_step)
        logged = {"step": global_step, "lr": lr, "loss": loss, "grads_and_vars": grads_and_vars,
                  "layer_out": {"layer_1": out_1, "logits": logits}}
        sess.run(tf1.global_variables_initializer())
        for _ in range(5):
            got, _ = sess.run([logged, train_op], feed_dict={inputs: X, labels: Y})
            logs["step"].append(int(got["step"]))
            logs["lr"].append(float(got["lr"]))
            logs["loss"].append(float(got["loss"]))
            # (a variable fetched with the train op is read before or after its update, in no set order
            # in TensorFlow: the variables are read by a run of their own)
            logs["grads_and_vars"].append([ls(g) for g, _ in got["grads_and_vars"]])
            logs["vars"].append([ls(v) for v in sess.run([v for _, v in grads_and_vars])])
            logs["layer_out"].append(ls(got["layer_out"]["logits"]))
        logs["names"] = [v.name for v in graph.get_collection(tf1.GraphKeys.TRAINABLE_VARIABLES)]
    return logs


def creator_scopes(tf, tf1):
    """tf.variable_creator_scope as the validate_correctness guide uses it: a creator that refuses
    new variables, and one that catches them."""
    out = {}

    def invalid_variable_creator(next_creator, **kwargs):
        raise ValueError("Attempted to create a new variable instead of reusing an existing one.")
    created = []

    def variable_catcher(next_creator, **kwargs):
        var = next_creator(**kwargs)
        created.append(var)
        return var
    with tf.variable_creator_scope(invalid_variable_creator):
        out["refused"] = error_name(lambda: tf.Variable(1.0))
    with tf.variable_creator_scope(variable_catcher):
        v = tf.Variable([1.0, 2.0], name="caught")
        w = tf.Variable(3, name="other", trainable=False)
    out["caught"] = [[x.name, x.dtype.name, x.trainable] for x in created]
    out["same"] = created[0] is v and created[1] is w

    def untrainable(next_creator, **kwargs):
        kwargs["trainable"] = False
        return next_creator(**kwargs)
    with tf.variable_creator_scope(variable_catcher), tf.variable_creator_scope(untrainable):
        u = tf.Variable(1.0, name="u")
    out["nested"] = [u.trainable, len(created)]
    return out


def v1_as_tf(tf, tf1):
    """A program written as ``import tensorflow.compat.v1 as tf`` (TF1's top-level names: dtypes,
    ops, renamed ones such as ``to_float`` and ``reduce_sum(keep_dims=)``)."""
    tf = tf1  # noqa: F841  (the program's own name for the module)
    out = {}
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 3])
        w = tf.Variable(tf.constant(W0), name="w")
        h = tf.nn.relu(tf.matmul(x, w))
        s = tf.reduce_sum(h, reduction_indices=1, keep_dims=True)
        m = tf.reduce_mean(tf.to_float(tf.arg_max(h, 1)))
        r = tf.random_normal([4, 2], stddev=0.0, mean=3.0)
        step = tf.assign_add(w, tf.ones_like(w))
        with tf.Session() as sess:
            sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
            out["s"] = ls(sess.run(s, {x: X[:3]}))
            out["m"] = float(sess.run(m, {x: X}))
            out["r"] = ls(sess.run(r))
            sess.run(step)
            out["w"] = ls(sess.run(w))
            out["dtypes"] = [tf.float32.name, tf.int64.name, tf.random.normal([1]).dtype.name]
    return out


def keras_layer_in_graph(tf, tf1):
    """A Keras layer called on a placeholder in a TF1 graph, trained by a TF1 optimizer on batches
    of another size than the stand-in's."""
    with tf.Graph().as_default():
        x = tf1.placeholder(tf.float32, [None, 3])
        y = tf.keras.layers.Dense(2, kernel_initializer="ones", activation="tanh")(x)
        loss = tf.reduce_mean(tf.square(y - 0.5))
        train = tf1.train.MomentumOptimizer(0.1, 0.5).minimize(loss)
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            return {"losses": [float(sess.run([loss, train], {x: X[i:i + 5]})[0]) for i in range(3)],
                    "trainable": len(tf1.trainable_variables())}


def v1_saved_model(tf, tf1):
    """TF1's SavedModel of a graph's signatures: SavedModelBuilder (a Variable, a batch of unknown
    size, two outputs), simple_save; each loaded by tf.saved_model.load (.signatures) and by
    tf.compat.v1.saved_model.load into a Session, fed and fetched by the names of its signature_def;
    the errors of a Builder on a folder that holds files and of loading a missing folder."""
    import os
    import tempfile
    d = tempfile.mkdtemp()
    out = {}
    with tf.Graph().as_default():
        x = tf1.placeholder(tf.float32, shape=[None, 3], name="x")
        k = tf1.placeholder(tf.float32, shape=[], name="k")
        w = tf.Variable(W0, name="w")
        h = tf.matmul(x, w)
        y = tf.reduce_sum(h * k, axis=1)
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            out["run_by_name"] = ls(sess.run("x:0", {"x:0": X[:2]}))
            out["placeholder_by_name"] = tf1.get_default_graph().get_tensor_by_name("k:0").shape.as_list()
            sig = tf1.saved_model.predict_signature_def(inputs={"x": x, "k": k}, outputs={"h": h, "y": y})
            out["sig"] = [sig.method_name, sig.inputs["x"].name]
            b = tf1.saved_model.Builder(os.path.join(d, "builder"))
            b.add_meta_graph_and_variables(sess, [tf1.saved_model.tag_constants.SERVING], signature_def_map={
                tf1.saved_model.signature_constants.DEFAULT_SERVING_SIGNATURE_DEF_KEY: sig})
            b.save()
            tf1.saved_model.simple_save(sess, os.path.join(d, "simple"), inputs={"x": x}, outputs={"h": h})
    out["builder_exists_error"] = error_name(lambda: tf1.saved_model.Builder(os.path.join(d, "builder")))
    loaded = tf.saved_model.load(os.path.join(d, "builder"))
    f = loaded.signatures["serving_default"]
    got = f(x=tf.constant(X[:4]), k=tf.constant(2.0))
    out["tf2_builder"] = {n: ls(got[n]) for n in sorted(got)}
    out["tf2_builder_inputs"] = sorted([s.name, s.shape.as_list()] for s in f.structured_input_signature[1].values())
    got = tf.saved_model.load(os.path.join(d, "simple")).signatures["serving_default"](x=tf.constant(X[:1]))
    out["tf2_simple"] = {n: ls(got[n]) for n in sorted(got)}
    for name in ("builder", "simple"):
        with tf.Graph().as_default():
            with tf1.Session() as sess:
                meta = tf1.saved_model.load(sess, ["serve"], os.path.join(d, name))
                s = meta.signature_def["serving_default"]
                feed = {s.inputs[n].name: (2.0 if n == "k" else X[:3]) for n in s.inputs}
                out[f"tf1_{name}"] = {n: ls(sess.run(s.outputs[n].name, feed)) for n in sorted(s.outputs)}
                out[f"tf1_{name}_keys"] = [sorted(s.inputs), sorted(s.outputs)]
    with tf.Graph().as_default():
        with tf1.Session() as sess:
            out["load_missing_error"] = error_name(
                lambda: tf1.saved_model.load(sess, ["serve"], os.path.join(d, "missing")))
    return out


def v1_meta_graph(tf, tf1):
    """Ops named by name= (in a name scope), fetched and fed by name; Saver.export_meta_graph and
    import_meta_graph into a new graph, restored from a checkpoint; wrap_function of graph-building
    code (an import, get_variable on a signature's placeholder), called and pruned (to a dict of
    fetches, from an intermediate tensor); the errors of unknown names."""
    import os
    import tempfile
    d = tempfile.mkdtemp()
    out = {}
    with tf.Graph().as_default():
        x = tf1.placeholder(tf.float32, shape=[None, 3], name="x")
        w = tf.Variable(W0, name="w")
        with tf.name_scope("layer"):
            h = tf.matmul(x, w, name="h")
            y = tf.nn.relu(h, name="y")
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            sess.run(w.assign(W0 * 2.0))
            out["by_name"] = ls(sess.run("layer/y:0", {"x:0": X[:2]}))
            out["op_by_name"] = repr(sess.run(["layer/y"], {"x:0": X[:2]}))
            out["unknown_fetch_error"] = error_name(lambda: sess.run("nope:0", {x: X[:2]}))
            out["unknown_feed_error"] = error_name(lambda: sess.run(y, {"nope:0": X[:2]}))
            saver = tf1.train.Saver()
            saver.export_meta_graph(os.path.join(d, "m.pb"), as_text=True)
            saver.save(sess, os.path.join(d, "ckpt"))
        g0 = tf1.get_default_graph()
        out["unknown_name_error"] = error_name(lambda: g0.get_tensor_by_name("nope:0"))
        out["op_name_error"] = error_name(lambda: g0.get_tensor_by_name("x"))
    with tf.Graph().as_default() as g:
        saver = tf1.train.import_meta_graph(os.path.join(d, "m.pb"))
        out["imported_variables"] = [v.name for v in tf1.global_variables()]
        with tf1.Session() as sess:
            saver.restore(sess, os.path.join(d, "ckpt"))
            out["imported"] = ls(sess.run(g.get_tensor_by_name("layer/y:0"), {g.get_tensor_by_name("x:0"): X[:3]}))
            out["imported_h"] = ls(sess.run("layer/h:0", {"x:0": X[3:4]}))

    def build():
        tf1.train.import_meta_graph(os.path.join(d, "m.pb"))
    wrapped = tf1.wrap_function(build, [])
    wg = wrapped.graph
    tf1.train.Saver(wrapped.variables).restore(sess=None, save_path=os.path.join(d, "ckpt"))
    xw, hw, yw = (wg.get_tensor_by_name(n) for n in ("x:0", "layer/h:0", "layer/y:0"))
    got = wrapped.prune(feeds=xw, fetches={"h": hw, "y": yw})(tf.constant(X[:2]))
    out["pruned"] = {k: ls(got[k]) for k in sorted(got)}
    out["pruned_from_h"] = ls(wrapped.prune(feeds=hw, fetches=yw)(tf.constant([[-1.0, 2.0]])))

    with tf.Graph().as_default() as g:  # (a call given name= that makes a variable names the variable only)
        a = tf1.get_variable("w", shape=[2], initializer=tf1.random_normal_initializer())
        b = tf1.get_variable("u", initializer=tf.ones([2]) * 3.0)
        c = tf.Variable(tf.zeros([2]), name="w")
        e = tf.identity(tf1.placeholder(tf.float32, [2], name="x") * 2.0, name="w")
        out["names_after_variables"] = [a.name, b.name, c.name, g.get_tensor_by_name("w_2:0") is e]

    def scaled(a):
        v = tf1.get_variable("v", initializer=2.0)
        return a * v
    f = tf1.wrap_function(scaled, [tf.TensorSpec([None], tf.float32)])
    out["wrapped_call"] = ls(f(tf.constant([1.0, 3.0])))
    out["wrapped_variables"] = [v.name for v in f.variables]
    return out
