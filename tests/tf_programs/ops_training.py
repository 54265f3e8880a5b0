"""Training tools: tf.Module's variable walk, Keras 3 optimizers and learning-rate schedules."""

from ._registry import tf_raises


# --------------------------------------------------------------------------- Module
def _model(tf):
    class Dense(tf.Module):
        def __init__(self, n_in, n_out, scale, name=None):
            super().__init__(name=name)
            self.w = tf.Variable(tf.fill([n_in, n_out], scale), name="w")
            self.b = tf.Variable(tf.fill([n_out], -scale), name="b")

    class Net(tf.Module):
        def __init__(self):
            super().__init__()
            self.z_last = Dense(2, 1, 3.0, name="last")
            self.layers = [Dense(2, 2, 1.0), Dense(2, 2, 2.0, name="second")]
            self.extra = {"beta": tf.Variable(7.0, name="beta"),
                          "alpha": tf.Variable(6.0, name="alpha", trainable=False)}
            self.Capital = tf.Variable(5.0, name="Capital")
            self._private = tf.Variable(4.0, name="private")
            self.shared = self.layers[0].w  # seen twice: reported once
            self.count = 3

    return Net()


def case_module_variables_order(tf):
    net = _model(tf)
    return [v.name for v in net.variables], list(net.variables)


def case_module_trainable_and_non_trainable(tf):
    net = _model(tf)
    return ([v.name for v in net.trainable_variables],
            [v.name for v in net.non_trainable_variables])


def case_module_submodules_breadth_first(tf):
    net = _model(tf)
    inner = net.layers[1]
    inner.child = tf.Module(name="grandchild")
    return [m.name for m in net.submodules], [m.name for m in inner.submodules]


def case_module_default_names(tf):
    class MyDense(tf.Module):
        pass

    class HTTPServer2(tf.Module):
        pass

    class mlp(tf.Module):
        pass

    return [tf.Module().name, MyDense().name, HTTPServer2().name, mlp().name,
            tf.Module(name="custom_1").name]


@tf_raises("ValueError")
def case_module_invalid_name(tf):
    return tf.Module(name="has space")


def case_module_flatten_with_path(tf):
    net = _model(tf)
    pairs = net._flatten(predicate=lambda v: isinstance(v, tf.Variable) and v.name == "w:0",
                         with_path=True)
    return [path for path, _ in pairs]


def case_module_cycle(tf):
    a = tf.Module(name="a")
    b = tf.Module(name="b")
    a.child = b
    b.parent = a
    b.v = tf.Variable(1.0, name="v")
    return [m.name for m in a.submodules], [v.name for v in a.variables]


# --------------------------------------------------------------------------- optimizers
_GRADS = ([0.5, -1.0, 2.0], [0.1, 0.3, -0.2], [-1.5, 0.0, 0.7])


def _run(tf, opt, steps=3, x0=(1.0, -2.0, 3.0)):
    x = tf.Variable(list(x0), name="x")
    its = []
    for g in _GRADS[:steps]:
        its.append(int(opt.apply_gradients([(tf.constant(g), x)])))
    return x, its


def case_sgd_default(tf):
    return _run(tf, tf.optimizers.SGD())


def case_sgd_momentum(tf):
    return _run(tf, tf.optimizers.SGD(learning_rate=0.1, momentum=0.9))


def case_sgd_nesterov(tf):
    return _run(tf, tf.optimizers.SGD(learning_rate=0.1, momentum=0.9, nesterov=True))


def case_adam_default(tf):
    return _run(tf, tf.optimizers.Adam())


def case_adam_lr(tf):
    return _run(tf, tf.optimizers.Adam(learning_rate=0.1, beta_1=0.8, beta_2=0.99, epsilon=1e-3))


def case_adam_amsgrad(tf):
    return _run(tf, tf.optimizers.Adam(learning_rate=0.1, amsgrad=True))


def case_adamw_default(tf):
    return _run(tf, tf.optimizers.AdamW())


def case_adamw_strong_decay(tf):
    return _run(tf, tf.optimizers.AdamW(learning_rate=0.1, weight_decay=0.5))


def case_rmsprop_default(tf):
    return _run(tf, tf.optimizers.RMSprop())


def case_rmsprop_centered_momentum(tf):
    return _run(tf, tf.optimizers.RMSprop(learning_rate=0.01, rho=0.8, momentum=0.5, centered=True))


def case_adagrad_default(tf):
    return _run(tf, tf.optimizers.Adagrad())


def case_adagrad_options(tf):
    return _run(tf, tf.optimizers.Adagrad(learning_rate=0.5, initial_accumulator_value=1.0,
                                          epsilon=0.01))


def case_sgd_weight_decay(tf):
    return _run(tf, tf.optimizers.SGD(learning_rate=0.1, weight_decay=0.1))


def case_sgd_clipnorm(tf):
    return _run(tf, tf.optimizers.SGD(learning_rate=0.1, clipnorm=1.0))


def case_sgd_clipvalue(tf):
    return _run(tf, tf.optimizers.SGD(learning_rate=0.1, clipvalue=0.4))


def case_sgd_global_clipnorm(tf):
    x = tf.Variable([1.0, 2.0], name="x")
    y = tf.Variable(3.0, name="y")
    opt = tf.optimizers.SGD(learning_rate=1.0, global_clipnorm=1.0)
    opt.apply_gradients([(tf.constant([3.0, 0.0]), x), (tf.constant(4.0), y)])
    return x, y


@tf_raises("ValueError")
def case_clip_options_exclusive(tf):
    return tf.optimizers.SGD(clipnorm=1.0, clipvalue=1.0)


def case_float64_variable(tf):
    x = tf.Variable([1.0, 2.0], dtype=tf.float64, name="x")
    opt = tf.optimizers.Adam(learning_rate=0.1)
    for g in ([0.25, -0.75], [0.125, 0.5]):  # exact in float32 and float64
        opt.apply_gradients([(tf.constant(g, dtype=tf.float64), x)])
    return x


def case_two_variables_with_tape(tf):
    w = tf.Variable([[0.5], [-0.5]], name="w")
    b = tf.Variable([0.1], name="b")
    xs = tf.constant([[1.0, 2.0], [3.0, -1.0], [0.5, 0.5]])
    ys = tf.constant([[1.0], [0.0], [2.0]])
    opt = tf.optimizers.Adam(learning_rate=0.05)
    losses = []
    for _ in range(5):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((tf.matmul(xs, w) + b - ys) ** 2)
        grads = tape.gradient(loss, [w, b])
        opt.apply_gradients(zip(grads, [w, b]))
        losses.append(loss)
    return w, b, losses, opt.iterations


def case_learning_rate_and_iterations(tf):
    opt = tf.optimizers.SGD(learning_rate=0.5)
    x = tf.Variable(1.0, name="x")
    before = opt.learning_rate
    opt.apply_gradients([(tf.constant(1.0), x)])
    opt.learning_rate = 0.25
    opt.apply_gradients([(tf.constant(1.0), x)])
    return before, opt.learning_rate, opt.iterations, x


def case_none_gradient_skipped(tf):
    a = tf.Variable(1.0, name="a")
    b = tf.Variable(2.0, name="b")
    opt = tf.optimizers.SGD(learning_rate=0.5)
    it = opt.apply_gradients([(None, a), (tf.constant(1.0), b)])
    return a, b, it


@tf_raises("ValueError")
def case_all_gradients_none(tf):
    a = tf.Variable(1.0, name="a")
    return tf.optimizers.Adam().apply_gradients([(None, a)])


@tf_raises("ValueError")
def case_integer_learning_rate(tf):
    return tf.optimizers.SGD(learning_rate=1)


@tf_raises("ValueError")
def case_sgd_momentum_out_of_range(tf):
    return tf.optimizers.SGD(momentum=1.5)


@tf_raises("ValueError")
def case_adamw_weight_decay_none(tf):
    return tf.optimizers.AdamW(weight_decay=None)


@tf_raises("InvalidArgumentError")
def case_gradient_shape_mismatch(tf):
    a = tf.Variable(1.0, name="a")
    return tf.optimizers.SGD().apply_gradients([(tf.constant([1.0, 2.0]), a)])


# --------------------------------------------------------------------------- sparse gradients
def _sparse_run(tf, make, sparse, indices):
    x = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]], name="emb")
    opt = make(tf)
    for idx, vals in ((indices, [[1.0, 1.0], [2.0, -2.0]]), ([1], [[0.5, 0.5]])):
        g = tf.IndexedSlices(tf.constant(vals[:len(idx)]), tf.constant(idx), tf.constant([4, 2]))
        opt.apply_gradients([(g if sparse else tf.convert_to_tensor(g), x)])
    return x


def _sgd(tf):
    return tf.optimizers.SGD(learning_rate=0.1)


def _sgdm(tf):
    return tf.optimizers.SGD(learning_rate=0.1, momentum=0.9)


def _adam(tf):
    return tf.optimizers.Adam(learning_rate=0.1)


def _adagrad(tf):
    return tf.optimizers.Adagrad(learning_rate=0.1)


def _rmsprop(tf):
    return tf.optimizers.RMSprop(learning_rate=0.1)


def case_sparse_sgd_unique(tf):
    return _sparse_run(tf, _sgd, True, [0, 2])


def case_sparse_sgd_duplicates(tf):
    return _sparse_run(tf, _sgd, True, [2, 2])


def case_sparse_sgd_momentum_unique(tf):
    return _sparse_run(tf, _sgdm, True, [0, 2])


def case_sparse_adam_unique(tf):
    return _sparse_run(tf, _adam, True, [0, 2])


def case_sparse_adagrad_unique(tf):
    return _sparse_run(tf, _adagrad, True, [0, 2])


def case_sparse_rmsprop_unique(tf):
    return _sparse_run(tf, _rmsprop, True, [0, 2])


def case_dense_adam_duplicates(tf):
    return _sparse_run(tf, _adam, False, [2, 2])


def case_sparse_adam_duplicates(tf):
    return _sparse_run(tf, _adam, True, [2, 2])


def case_dense_adagrad_duplicates(tf):
    return _sparse_run(tf, _adagrad, False, [2, 2])


def case_sparse_adagrad_duplicates(tf):
    return _sparse_run(tf, _adagrad, True, [2, 2])


def case_dense_rmsprop_duplicates(tf):
    return _sparse_run(tf, _rmsprop, False, [2, 2])


def case_sparse_rmsprop_duplicates(tf):
    return _sparse_run(tf, _rmsprop, True, [2, 2])


def case_gather_gradient_to_adam(tf):
    emb = tf.Variable([[0.1, 0.2], [0.3, 0.4], [0.5, 0.6]], name="emb")
    opt = tf.optimizers.Adam(learning_rate=0.1)
    for ids in ([0, 2], [1, 2]):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.gather(emb, tf.constant(ids)) ** 2)
        (g,) = tape.gradient(loss, [emb])
        opt.apply_gradients([(g, emb)])
    return emb


# --------------------------------------------------------------------------- schedules
_STEPS = (0, 1, 5, 10, 25, 100, 250)


def case_exponential_decay(tf):
    s = tf.optimizers.schedules.ExponentialDecay(0.1, decay_steps=10, decay_rate=0.5)
    return [s(k) for k in _STEPS]


def case_exponential_decay_staircase(tf):
    s = tf.optimizers.schedules.ExponentialDecay(0.1, decay_steps=10, decay_rate=0.5,
                                                 staircase=True)
    return [s(k) for k in _STEPS]


def case_cosine_decay(tf):
    s = tf.optimizers.schedules.CosineDecay(0.1, decay_steps=100)
    return [s(k) for k in _STEPS]


def case_cosine_decay_alpha(tf):
    s = tf.optimizers.schedules.CosineDecay(0.1, decay_steps=100, alpha=0.2)
    return [s(k) for k in _STEPS]


def case_cosine_decay_warmup(tf):
    s = tf.optimizers.schedules.CosineDecay(0.0, decay_steps=100, warmup_target=0.5,
                                            warmup_steps=10)
    return [s(k) for k in _STEPS]


def case_schedule_drives_optimizer(tf):
    s = tf.optimizers.schedules.ExponentialDecay(0.5, decay_steps=1, decay_rate=0.5)
    opt = tf.optimizers.SGD(learning_rate=s)
    return _run(tf, opt), opt.learning_rate


@tf_raises("ValueError")
def case_schedule_decay_steps_zero(tf):
    return tf.optimizers.schedules.CosineDecay(0.1, decay_steps=0)




def case_float64_sgd_momentum_weight_decay(tf):
    x = tf.Variable([1.0, -2.0], dtype=tf.float64, name="x")
    opt = tf.optimizers.SGD(learning_rate=0.1, momentum=0.9, weight_decay=0.3)
    for g in ([0.25, -0.75], [0.125, 0.5]):
        opt.apply_gradients([(tf.constant(g, dtype=tf.float64), x)])
    return x


def case_float64_rmsprop_and_adagrad(tf):
    x = tf.Variable([1.0, -2.0], dtype=tf.float64, name="x")
    y = tf.Variable([0.5, 4.0], dtype=tf.float64, name="y")
    rms = tf.optimizers.RMSprop(learning_rate=0.1, rho=0.7, momentum=0.3, centered=True)
    ada = tf.optimizers.Adagrad(learning_rate=0.1, initial_accumulator_value=0.3)
    for g in ([0.25, -0.75], [0.125, 0.5]):
        rms.apply_gradients([(tf.constant(g, dtype=tf.float64), x)])
        ada.apply_gradients([(tf.constant(g, dtype=tf.float64), y)])
    return x, y


@tf_raises("ValueError")
def case_new_variable_after_first_update(tf):
    a = tf.Variable(1.0, name="a")
    b = tf.Variable(2.0, name="b")
    opt = tf.optimizers.SGD(learning_rate=0.5)
    opt.apply_gradients([(tf.constant(1.0), a)])
    opt.apply_gradients([(tf.constant(1.0), b)])
    return a, b
