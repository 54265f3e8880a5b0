"""tapegrad.optimizers: Keras 3's formulas and defaults, None and sparse gradients, schedules.

The numbers are also checked against TensorFlow/Keras in tests/tf_programs/ops_training.py.
"""
import json
import math
import os
import warnings

import numpy as np
import pytest

import tapegrad as tf
from tapegrad.errors import InvalidArgumentError

opt_ns = tf.optimizers
GRADS = [np.array([0.5, -1.0, 2.0]), np.array([0.1, 0.3, -0.2]), np.array([-1.5, 0.0, 0.7])]
X0 = np.array([1.0, -2.0, 3.0])


def run(opt, grads=GRADS, x0=X0, dtype=np.float64):
    x = tf.Variable(x0.astype(dtype), name="x")
    for g in grads:
        opt.apply_gradients([(tf.constant(g.astype(dtype)), x)])
    return x.numpy()


# ------------------------------------------------------------------ reference formulas (float64)
def ref_sgd(lr, momentum=0.0, nesterov=False):
    x, m = X0.copy(), np.zeros(3)
    for g in GRADS:
        if momentum:
            m = momentum * m - lr * g
            x = x + (momentum * m - lr * g if nesterov else m)
        else:
            x = x - lr * g
    return x


def ref_adam(lr, b1=0.9, b2=0.999, eps=1e-7, amsgrad=False, wd=None):
    x, m, v, vhat = X0.copy(), np.zeros(3), np.zeros(3), np.zeros(3)
    for t, g in enumerate(GRADS, 1):
        if wd is not None:
            x = x - x * wd * lr
        m = m + (g - m) * (1 - b1)
        v = v + (g * g - v) * (1 - b2)
        if amsgrad:
            vhat = np.maximum(vhat, v)
        alpha = lr * math.sqrt(1 - b2 ** t) / (1 - b1 ** t)
        x = x - m * alpha / (np.sqrt(vhat if amsgrad else v) + eps)
    return x


def ref_rmsprop(lr, rho=0.9, momentum=0.0, eps=1e-7, centered=False):
    x, v, a, mom = X0.copy(), np.zeros(3), np.zeros(3), np.zeros(3)
    for g in GRADS:
        v = rho * v + (1 - rho) * g * g
        if centered:
            a = rho * a + (1 - rho) * g
            den = v - a * a + eps
        else:
            den = v + eps
        step = lr * g / np.sqrt(den)
        if momentum > 0:
            mom = momentum * mom + step
            x = x - mom
        else:
            x = x - step
    return x


def ref_adagrad(lr, init=0.1, eps=1e-7):
    x, acc = X0.copy(), np.full(3, init)
    for g in GRADS:
        acc = acc + g * g
        x = x - lr * g / np.sqrt(acc + eps)
    return x


@pytest.mark.parametrize("make, expected", [
    (lambda: opt_ns.SGD(), lambda: ref_sgd(0.01)),
    (lambda: opt_ns.SGD(0.1, momentum=0.9), lambda: ref_sgd(0.1, 0.9)),
    (lambda: opt_ns.SGD(0.1, momentum=0.9, nesterov=True), lambda: ref_sgd(0.1, 0.9, True)),
    (lambda: opt_ns.Adam(), lambda: ref_adam(0.001)),
    (lambda: opt_ns.Adam(0.1, beta_1=0.8, beta_2=0.99, epsilon=1e-3),
     lambda: ref_adam(0.1, 0.8, 0.99, 1e-3)),
    (lambda: opt_ns.Adam(0.1, amsgrad=True), lambda: ref_adam(0.1, amsgrad=True)),
    (lambda: opt_ns.AdamW(), lambda: ref_adam(0.001, wd=0.004)),
    (lambda: opt_ns.AdamW(0.1, weight_decay=0.5), lambda: ref_adam(0.1, wd=0.5)),
    (lambda: opt_ns.RMSprop(), lambda: ref_rmsprop(0.001)),
    (lambda: opt_ns.RMSprop(0.01, rho=0.8, momentum=0.5, centered=True),
     lambda: ref_rmsprop(0.01, 0.8, 0.5, centered=True)),
    (lambda: opt_ns.Adagrad(), lambda: ref_adagrad(0.001)),
    (lambda: opt_ns.Adagrad(0.5, initial_accumulator_value=1.0, epsilon=0.01),
     lambda: ref_adagrad(0.5, 1.0, 0.01)),
], ids=["sgd", "sgd_momentum", "sgd_nesterov", "adam", "adam_options", "amsgrad", "adamw",
        "adamw_decay", "rmsprop", "rmsprop_centered", "adagrad", "adagrad_options"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_update_formulas(make, expected, dtype):
    got = run(make(), dtype=dtype)
    assert got.dtype == dtype
    # hyper-parameters pass through float32 as in Keras, so float64 agrees to float32 precision
    np.testing.assert_allclose(got, expected(), rtol=2e-6, atol=1e-7)


def test_keras_defaults():
    assert (opt_ns.SGD().momentum, opt_ns.SGD().nesterov) == (0.0, False)
    a = opt_ns.Adam()
    assert (a.beta_1, a.beta_2, a.epsilon, a.amsgrad) == (0.9, 0.999, 1e-7, False)
    assert float(a.learning_rate) == pytest.approx(0.001)
    assert opt_ns.AdamW().weight_decay == 0.004
    r = opt_ns.RMSprop()
    assert (r.rho, r.momentum, r.epsilon, r.centered) == (0.9, 0.0, 1e-7, False)
    g = opt_ns.Adagrad()
    assert (g.initial_accumulator_value, g.epsilon) == (0.1, 1e-7)
    assert float(opt_ns.SGD().learning_rate) == pytest.approx(0.01)


def test_float16_variable():
    x = tf.Variable(np.array([1.0, 2.0], np.float16))
    opt_ns.Adam(0.1).apply_gradients([(tf.constant(np.array([1.0, -1.0], np.float16)), x)])
    assert x.dtype == tf.float16
    np.testing.assert_allclose(x.numpy(), [0.9, 2.1], rtol=3e-3)  # float16 arithmetic


def test_gradient_is_cast_to_the_variable_dtype_as_in_keras():
    x = tf.Variable([1.0, 2.0])
    opt_ns.SGD(0.5).apply_gradients([(tf.constant([2, 4]), x)])
    np.testing.assert_array_equal(x.numpy(), [0.0, 0.0])


# ------------------------------------------------------------------ state and API
def test_iterations_learning_rate_and_variables():
    opt = opt_ns.Adam(0.1, amsgrad=True)
    a = tf.Variable([1.0, 2.0], name="a")
    b = tf.Variable(3.0, name="b")
    it = opt.apply_gradients([(tf.constant([1.0, 1.0]), a), (tf.constant(1.0), b)])
    assert it is opt.iterations and int(it) == 1 and it.dtype == tf.int64
    lr = opt.learning_rate
    assert isinstance(lr, tf.Variable) and lr.dtype == tf.float32 and not lr.trainable
    names = [v.name for v in opt.variables]
    assert names == ["iteration", "learning_rate", "a_0_momentum", "a_0_velocity",  # (Keras 3's names)
                     "a_0_velocity_hat", "b_0_momentum", "b_0_velocity", "b_0_velocity_hat"]
    opt.learning_rate = 0.5
    assert opt.learning_rate is lr and float(lr) == 0.5


def test_empty_pairs_are_a_no_op():
    opt = opt_ns.SGD()
    assert int(opt.apply_gradients([])) == 0


def test_build_then_apply_without_variables():
    a, b = tf.Variable(1.0), tf.Variable(2.0)
    opt = opt_ns.SGD(1.0)
    opt.build([a, b])
    opt.apply([tf.constant(1.0), tf.constant(2.0)])
    assert (float(a), float(b)) == (0.0, 0.0)
    with pytest.raises(ValueError, match="2 variables"):
        opt.apply([tf.constant(1.0)])


def test_new_variables_join_later():
    opt = opt_ns.Adam(0.1)
    a, b = tf.Variable(1.0), tf.Variable(1.0)
    opt.apply_gradients([(tf.constant(1.0), a)])
    opt.apply_gradients([(tf.constant(1.0), a), (tf.constant(1.0), b)])
    assert len(opt.variables) == 2 + 4
    # b's first step has t=2 (the optimizer's step count), as in Keras
    np.testing.assert_allclose(float(b), 1 - 0.1 * math.sqrt(1 - 0.999**2) / (1 - 0.9**2) * 0.1
                               / (math.sqrt(0.001) + 1e-7), rtol=1e-5)


def test_get_config_round_trip():
    opt = opt_ns.RMSprop(0.25, rho=0.5, momentum=0.1, centered=True, clipnorm=2.0)
    clone = opt_ns.RMSprop.from_config(opt.get_config())
    assert clone.get_config() == opt.get_config()
    assert run(clone) == pytest.approx(run(opt))


def test_errors_in_arguments():
    with pytest.raises(ValueError, match="learning_rate.*write 1.0"):
        opt_ns.SGD(learning_rate=1)
    with pytest.raises(ValueError, match="momentum"):
        opt_ns.SGD(momentum=1)
    with pytest.raises(ValueError, match="momentum"):
        opt_ns.SGD(momentum=-0.5)
    with pytest.raises(ValueError, match="Only one of"):
        opt_ns.Adam(clipnorm=1.0, global_clipnorm=1.0)
    with pytest.raises(ValueError, match="weight_decay"):
        opt_ns.AdamW(weight_decay=None)
    with pytest.raises(TypeError):
        opt_ns.Adam(use_emma=True)


def test_errors_in_pairs():
    opt = opt_ns.SGD()
    x = tf.Variable([1.0, 2.0], name="x")
    with pytest.raises(TypeError, match="Variable"):
        opt.apply_gradients([(tf.constant(1.0), tf.constant(1.0))])
    with pytest.raises(TypeError, match="pairs"):
        opt.apply_gradients([tf.constant(1.0)])
    with pytest.raises(InvalidArgumentError, match=r"x:0.*\[2\].*\[3\]"):
        opt.apply_gradients([(tf.constant([1.0, 2.0, 3.0]), x)])
    with pytest.raises(TypeError, match="floating-point"):
        opt.apply_gradients([(tf.constant(1), tf.Variable(1))])
    with pytest.raises(TypeError, match="not a tensor"):
        opt.apply_gradients([("abc", x)])
    assert int(opt.iterations) == 0
    np.testing.assert_array_equal(x.numpy(), [1.0, 2.0])


# ------------------------------------------------------------------ None gradients
def test_none_gradient_is_skipped_with_a_warning_naming_it():
    a, b, c = tf.Variable(1.0, name="unused"), tf.Variable(2.0, name="b"), tf.Variable(3.0, name="also_unused")
    opt = opt_ns.SGD(0.5)
    with pytest.warns(UserWarning, match=r"\['unused:0', 'also_unused:0'\]"):
        opt.apply_gradients([(None, a), (tf.constant(1.0), b), (None, c)])
    assert (float(a), float(b), float(c)) == (1.0, 1.5, 3.0)
    assert int(opt.iterations) == 1


def test_warning_points_at_the_caller():
    opt = opt_ns.SGD()
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        opt.apply_gradients([(None, tf.Variable(1.0)), (tf.constant(1.0), tf.Variable(1.0))])
    assert w[0].filename == __file__


def test_all_none_gradients_raise():
    a = tf.Variable(1.0, name="a")
    with tf.GradientTape() as tape:
        loss = tf.constant(2.0) * 3.0
    grads = tape.gradient(loss, [a])
    with pytest.raises(ValueError, match=r"No gradients provided for any variable.*\['a:0'\]"):
        opt_ns.Adam().apply_gradients(zip(grads, [a]))


def _keras_none_gradients():
    path = os.path.join(os.path.dirname(__file__), "fixtures", "keras_none_gradients.json")
    with open(path) as f:  # recorded from Keras 3 by tools/record_keras_none_gradients.py
        return json.load(f)


def _warnings_of(grads, variables):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        tf.keras.optimizers.SGD(0.1).apply_gradients(zip(grads, variables))
    return [str(w.message) for w in caught if "Gradients do not exist" in str(w.message)]


def test_none_gradient_warning_begins_with_keras_text_and_names_keras_weights_by_path():
    rec = _keras_none_gradients()
    inp = tf.keras.Input((3,))
    model = tf.keras.Model(inp, [tf.keras.layers.Dense(4, name="used")(inp),
                                 tf.keras.layers.Dense(2, name="spare")(inp)])
    x = tf.constant(np.ones((2, 3), np.float32))
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(model(x)[0])
    (msg,) = _warnings_of(tape.gradient(loss, model.trainable_variables), model.trainable_variables)
    assert msg.startswith(rec["keras_model"][0])  # "... ['spare/kernel', 'spare/bias'] ..."
    a, b = tf.Variable(1.0, name="a"), tf.Variable(2.0, name="b")
    with tf.GradientTape() as tape:
        y = a * 2.0
    (msg,) = _warnings_of(tape.gradient(y, [a, b]), [a, b])
    assert msg.startswith(rec["tf_variables"][0])  # a tf.Variable by its name, "b:0"
    with pytest.raises(ValueError) as e:
        tf.keras.optimizers.SGD(0.1).apply_gradients([(None, b)])
    assert str(e.value).startswith(rec["all_none"])


def test_fit_warns_about_a_layer_the_model_never_calls_as_keras_does():
    rec = _keras_none_gradients()
    inp = tf.keras.Input((3,))
    model = tf.keras.Model(inp, tf.keras.layers.Dense(1, name="head")(inp))
    model.spare = tf.keras.layers.Dense(2, name="never_called")
    model.spare.build((None, 3))
    model.compile("sgd", "mse")
    spare = model.spare.kernel.numpy()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model.fit(np.ones((4, 3), np.float32), np.ones((4, 1), np.float32), epochs=1, verbose=0)
    texts = {str(w.message) for w in caught if "Gradients do not exist" in str(w.message)}
    assert len(texts) == 1 and texts.pop().startswith(rec["fit"][0])
    np.testing.assert_array_equal(model.spare.kernel.numpy(), spare)  # skipped, not updated


def test_none_gradient_warning_never_says_to_turn_on_explain_mode_when_it_is_on():
    a, b = tf.Variable(1.0, name="a"), tf.Variable(2.0, name="b")

    def grads():
        with tf.GradientTape() as tape:
            y = a * 2.0
        return tape.gradient(y, [a, b])

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tf.diagnosis.NoneGradientWarning)
        (off,) = _warnings_of(grads(), [a, b])
        with tf.diagnosis.explaining():
            (on,) = _warnings_of(grads(), [a, b])
        with tf.diagnosis.explaining(warn=False):
            (quiet,) = _warnings_of(grads(), [a, b])
    assert "TAPEGRAD_EXPLAIN=1" in off
    assert "TAPEGRAD_EXPLAIN=1" not in on and "the NoneGradientWarning that tape.gradient gave" in on
    assert "TAPEGRAD_EXPLAIN=1" not in quiet and "tf.diagnosis.diagnose(tape, loss, variables)" in quiet
    with tf.GradientTape().explain(warn=False) as tape:  # explain mode for this one tape
        y = a * 2.0
    (one,) = _warnings_of(tape.gradient(y, [a, b]), [a, b])
    assert "TAPEGRAD_EXPLAIN=1" not in one and "tf.diagnosis.diagnose(tape, loss, variables)" in one


# ------------------------------------------------------------------ sparse gradients
def _slices(values, indices, n=4):
    return tf.IndexedSlices(tf.constant(values), tf.constant(indices),
                            tf.constant([n, len(values[0])]))


ALL = [lambda: opt_ns.SGD(0.1), lambda: opt_ns.SGD(0.1, momentum=0.9),
       lambda: opt_ns.SGD(0.1, momentum=0.9, nesterov=True), lambda: opt_ns.Adam(0.1),
       lambda: opt_ns.Adam(0.1, amsgrad=True), lambda: opt_ns.AdamW(0.1),
       lambda: opt_ns.RMSprop(0.1, momentum=0.3, centered=True), lambda: opt_ns.Adagrad(0.1),
       lambda: opt_ns.SGD(0.1, clipnorm=0.5), lambda: opt_ns.Adagrad(0.1, clipvalue=0.6),
       lambda: opt_ns.Adam(0.1, global_clipnorm=0.5)]


@pytest.mark.parametrize("make", ALL)
def test_sparse_equals_dense_without_repeated_rows(make):
    # (with repeated rows Keras's ops act on each slice: tests/test_optimizers_sparse.py)
    init = np.arange(8, dtype=np.float32).reshape(4, 2)
    steps = [([[1.0, 1.0], [2.0, -2.0], [0.5, 0.25]], [2, 0, 3]), ([[0.5, 0.5]], [1])]
    xs, xd = tf.Variable(init), tf.Variable(init)
    os_, od = make(), make()
    for vals, idx in steps:
        s = _slices(vals, idx)
        os_.apply_gradients([(s, xs)])
        od.apply_gradients([(tf.convert_to_tensor(s), xd)])
    np.testing.assert_allclose(xs.numpy(), xd.numpy(), rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("make", [lambda: opt_ns.SGD(0.1), lambda: opt_ns.Adagrad(0.1)])
def test_sparse_touches_only_its_rows(make):
    x = tf.Variable(np.ones((1000, 3), np.float32))
    opt = make()
    opt.apply_gradients([(_slices([[1.0, 1.0, 1.0]] * 2, [5, 5], n=1000), x)])
    changed = np.nonzero((x.numpy() != 1).any(axis=1))[0]
    assert changed.tolist() == [5]


def test_gather_gradient_feeds_the_optimizer():
    emb = tf.Variable(np.ones((5, 2), np.float32))
    opt = opt_ns.SGD(0.5)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.gather(emb, tf.constant([1, 3, 1])))
    (g,) = tape.gradient(loss, [emb])
    assert isinstance(g, tf.IndexedSlices)
    opt.apply_gradients([(g, emb)])
    np.testing.assert_allclose(emb.numpy()[:, 0], [1.0, 0.0, 1.0, 0.5, 1.0])


def test_sparse_errors():
    x = tf.Variable(np.ones((3, 2), np.float32), name="table")
    opt = opt_ns.SGD()
    with pytest.raises(InvalidArgumentError, match="out of range"):
        opt.apply_gradients([(_slices([[1.0, 1.0]], [3], n=3), x)])
    with pytest.raises(InvalidArgumentError, match="table"):
        opt.apply_gradients([(tf.IndexedSlices(tf.ones([1, 3]), tf.constant([0])), x)])


# ------------------------------------------------------------------ clipping and weight decay
def test_clipnorm_per_gradient():
    x, y = tf.Variable([0.0, 0.0]), tf.Variable(0.0)
    opt_ns.SGD(1.0, clipnorm=1.0).apply_gradients([(tf.constant([3.0, 4.0]), x), (tf.constant(0.5), y)])
    np.testing.assert_allclose(x.numpy(), [-0.6, -0.8], rtol=1e-6)
    assert float(y) == -0.5


def test_global_clipnorm_and_clipvalue():
    x, y = tf.Variable([0.0, 0.0]), tf.Variable(0.0)
    opt_ns.SGD(1.0, global_clipnorm=2.5).apply_gradients([(tf.constant([3.0, 0.0]), x),
                                                           (tf.constant(4.0), y)])
    np.testing.assert_allclose([*x.numpy(), float(y)], [-1.5, 0.0, -2.0], rtol=1e-6)
    z = tf.Variable([0.0, 0.0, 0.0])
    opt_ns.SGD(1.0, clipvalue=0.5).apply_gradients([(tf.constant([-3.0, 0.25, 9.0]), z)])
    np.testing.assert_array_equal(z.numpy(), [0.5, -0.25, -0.5])


def test_global_clipnorm_of_infinite_norm_is_nan_as_in_keras():
    x = tf.Variable([1.0, 1.0])
    opt_ns.SGD(1.0, global_clipnorm=1.0).apply_gradients([(tf.constant([np.inf, 1.0]), x)])
    assert np.isnan(x.numpy()).all()


def test_weight_decay_and_exclusions():
    w = tf.Variable([1.0, 2.0], name="kernel")
    b = tf.Variable([1.0, 2.0], name="bias")
    c = tf.Variable([1.0, 2.0], name="other")
    opt = opt_ns.SGD(0.1, weight_decay=0.5)
    opt.exclude_from_weight_decay(var_list=[c], var_names=["bias"])
    zero = tf.constant([0.0, 0.0])
    opt.apply_gradients([(zero, w), (zero, b), (zero, c)])
    np.testing.assert_allclose(w.numpy(), [0.95, 1.9], rtol=1e-6)
    np.testing.assert_array_equal(b.numpy(), [1.0, 2.0])
    np.testing.assert_array_equal(c.numpy(), [1.0, 2.0])


# ------------------------------------------------------------------ minimize and training
def test_minimize_with_a_callable_and_with_a_tape():
    x = tf.Variable(3.0)
    opt = opt_ns.SGD(0.25)
    opt.minimize(lambda: x * x, [x])
    assert float(x) == 1.5
    with tf.GradientTape() as tape:
        loss = x * x
    opt.minimize(loss, lambda: [x], tape=tape)
    assert float(x) == 0.75
    with pytest.raises(ValueError, match="tape"):
        opt.minimize(x * x, [x])


def test_minimize_watches_non_trainable_variables_in_var_list():
    x = tf.Variable(2.0, trainable=False)
    opt_ns.SGD(0.25).minimize(lambda: x * x, [x])
    assert float(x) == 1.0


def test_adam_fits_a_linear_model():
    rng = np.random.default_rng(0)
    xs = rng.normal(size=(64, 3)).astype(np.float32)
    true_w = np.array([[1.5], [-2.0], [0.5]], np.float32)
    ys = xs @ true_w + 0.25
    w, b = tf.Variable(tf.zeros([3, 1])), tf.Variable(tf.zeros([1]))
    opt = opt_ns.Adam(0.1)
    for _ in range(300):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((tf.constant(xs) @ w + b - ys) ** 2)
        opt.apply_gradients(zip(tape.gradient(loss, [w, b]), [w, b]))
    np.testing.assert_allclose(w.numpy(), true_w, atol=1e-2)
    np.testing.assert_allclose(b.numpy(), [0.25], atol=1e-2)


def test_apply_inside_a_persistent_tape_is_allowed():
    x = tf.Variable(1.0)
    with tf.GradientTape(persistent=True) as tape:
        y = x * x
        opt_ns.SGD(0.1).apply_gradients([(tf.constant(1.0), x)])
    assert float(tape.gradient(y, x)) == 2.0
    assert float(x) == pytest.approx(0.9)


# ------------------------------------------------------------------ schedules
sched = opt_ns.schedules


def test_exponential_decay_formula():
    s = sched.ExponentialDecay(0.1, decay_steps=10, decay_rate=0.5)
    for step in (0, 3, 10, 25):
        assert float(s(step)) == pytest.approx(0.1 * 0.5 ** (step / 10), rel=1e-6)
    st = sched.ExponentialDecay(0.1, decay_steps=10, decay_rate=0.5, staircase=True)
    assert [round(float(st(k)), 6) for k in (0, 9, 10, 19, 20)] == [0.1, 0.1, 0.05, 0.05, 0.025]
    assert s(3).dtype == tf.float32


def test_cosine_decay_formula_and_warmup():
    s = sched.CosineDecay(0.2, decay_steps=100, alpha=0.1)
    for step in (0, 25, 100, 400):
        k = min(step, 100)
        want = 0.2 * (0.9 * 0.5 * (1 + math.cos(math.pi * k / 100)) + 0.1)
        assert float(s(step)) == pytest.approx(want, rel=1e-6)
    w = sched.CosineDecay(0.0, decay_steps=100, warmup_target=0.5, warmup_steps=10)
    assert float(w(5)) == pytest.approx(0.25)
    assert float(w(10)) == pytest.approx(0.5)
    assert float(w(60)) == pytest.approx(0.25, rel=1e-6)
    assert float(w(1000)) == pytest.approx(0.0, abs=1e-7)


def test_schedule_dtype_follows_the_initial_rate():
    s = sched.ExponentialDecay(tf.constant(np.float64(0.1)), decay_steps=4, decay_rate=0.5)
    assert s(tf.constant(np.int64(4))).dtype == tf.float64


def test_schedule_errors_and_config():
    with pytest.raises(ValueError, match="decay_steps"):
        sched.ExponentialDecay(0.1, decay_steps=0, decay_rate=0.5)
    with pytest.raises(ValueError, match="decay_steps"):
        sched.CosineDecay(0.1, decay_steps=-1)
    s = sched.CosineDecay(0.1, 50, alpha=0.2, warmup_target=0.3, warmup_steps=5)
    assert float(sched.CosineDecay.from_config(s.get_config())(7)) == float(s(7))
    with pytest.raises(NotImplementedError):
        sched.LearningRateSchedule()(1)


def test_optimizer_follows_its_schedule():
    s = sched.ExponentialDecay(1.0, decay_steps=1, decay_rate=0.5)
    opt = opt_ns.SGD(s)
    x = tf.Variable(0.0)
    for _ in range(3):
        opt.apply_gradients([(tf.constant(1.0), x)])
    assert float(x) == pytest.approx(-1.75)
    assert float(opt.learning_rate) == pytest.approx(0.125)
    with pytest.raises(TypeError, match="not settable"):
        opt.learning_rate = 0.1


def test_callable_learning_rate():
    rate = [0.5]
    opt = opt_ns.SGD(lambda: rate[0])
    x = tf.Variable(0.0)
    opt.apply_gradients([(tf.constant(1.0), x)])
    rate[0] = 0.25
    opt.apply_gradients([(tf.constant(1.0), x)])
    assert float(x) == -0.75


def test_warning_from_minimize_points_at_the_caller():
    a, b = tf.Variable(1.0), tf.Variable(1.0)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        opt_ns.SGD().minimize(lambda: b * 2.0, [a, b])
    assert w[0].filename == __file__


def test_a_bad_pair_changes_nothing():
    good = tf.Variable([1.0, 2.0])
    opt = opt_ns.Adam(0.1)
    for bad in [(tf.constant(1), tf.Variable(1)), (tf.constant([1.0, 2.0, 3.0]), tf.Variable([0.0]))]:
        with pytest.raises((TypeError, InvalidArgumentError)):
            opt.apply_gradients([(tf.constant([1.0, 1.0]), good), bad])
    np.testing.assert_array_equal(good.numpy(), [1.0, 2.0])
    assert int(opt.iterations) == 0


def test_sparse_dense_shape_must_match():
    x = tf.Variable(np.ones((3, 2), np.float32), name="table")
    with pytest.raises(InvalidArgumentError, match=r"dense shape \[4, 2\]"):
        opt_ns.SGD().apply_gradients([(_slices([[1.0, 1.0]], [0], n=4), x)])


# ---------------------------------------- every Keras 3 schedule, against recorded Keras numbers
# (tests/fixtures/tf_surface.json, written by tools/record_tf_surface.py with Keras 3.15.1)
def _surface_fixture():
    import json
    import os
    with open(os.path.join(os.path.dirname(__file__), "fixtures", "tf_surface.json"),
              encoding="utf-8") as f:
        return json.load(f)


_SURFACE = _surface_fixture()


@pytest.mark.parametrize("code", sorted(_SURFACE["schedules"]))
def test_schedule_matches_keras(code):
    s = eval("sched." + code)  # noqa: S307  (the recorded constructor call)
    got = [s(step) for step in _SURFACE["schedule_steps"]]
    assert all(g.dtype == tf.float32 for g in got)
    np.testing.assert_allclose([float(g) for g in got], _SURFACE["schedules"][code], rtol=1e-5,
                               atol=1e-9)
    again = sched.deserialize(sched.serialize(s))
    assert type(again) is type(s) and again.get_config() == s.get_config()


def test_schedule_bad_arguments():
    with pytest.raises(ValueError, match=r"length of boundaries should be 1 less than the length "
                                         r"of values\. Received: boundaries=\[1\] of length 1"):
        sched.PiecewiseConstantDecay([1], [0.1])
    for cls, arg in ((sched.PolynomialDecay, "decay_steps"), (sched.InverseTimeDecay, "decay_steps"),
                     (sched.CosineDecayRestarts, "first_decay_steps")):
        with pytest.raises(ValueError, match=rf"Argument `{arg}` must be > 0\. Received: {arg}=0"):
            cls(0.1, 0, *([0.5] if cls is sched.InverseTimeDecay else []))
    with pytest.raises(ValueError, match="Unknown decay: 'Nope'"):
        sched.deserialize({"class_name": "Nope", "config": {}})


def test_schedule_float64_and_optimizer_use():
    s = sched.PolynomialDecay(np.float64(0.1), 10, end_learning_rate=0.0, power=2.0)
    assert s(5).dtype == tf.float64 and float(s(5)) == pytest.approx(0.025, rel=1e-12)
    w = tf.Variable(1.0)
    opt = tf.optimizers.SGD(learning_rate=sched.PiecewiseConstantDecay([1], [1.0, 0.5]))
    for _ in range(3):
        opt.apply_gradients([(tf.constant(1.0), w)])
    assert float(w) == pytest.approx(1.0 - 1.0 - 1.0 - 0.5)   # steps 0, 1 at 1.0; step 2 at 0.5
