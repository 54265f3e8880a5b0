"""Why is my gradient None: explain mode, unconnected_gradients="raise", tape statistics."""
import os
import subprocess
import sys
import warnings

import numpy as np
import pytest

import tapegrad as tf
from tapegrad import diagnosis
from tapegrad._dispatch import REGISTRY


def here():
    """The caller's line number (put it on the line being checked)."""
    return sys._getframe(1).f_lineno


def raised(tape, target, sources, **kw):
    with pytest.raises(tf.errors.UnconnectedGradientError) as e:
        tape.gradient(target, sources, unconnected_gradients="raise", **kw)
    return e.value


def only_cause(err, index=0):
    d = err.diagnoses[index]
    assert len(d.causes) == 1, [str(c) for c in d.causes]
    return d.causes[0]


def at(cause, line):
    assert (cause.filename, cause.lineno) == (__file__, line), (cause.filename, cause.lineno)
    assert f"{__file__}:{line}" in cause.message


X = tf.constant([1.0, 2.0])


# ---------------------------------------------------------------------------- the API
def test_error_is_a_value_error_and_lists_every_unconnected_source():
    y0 = tf.constant(0.0)
    with tf.GradientTape() as tape:
        tape.watch(X)
        y = tf.reduce_sum(X * X)
    err = raised(tape, y, [X, y0, tf.constant(1)])
    assert isinstance(err, ValueError)
    assert [d.index for d in err.diagnoses] == [1, 2]
    assert str(err).startswith("No gradient for 2 of 3 sources:")
    assert "sources[1] (Tensor float32[])" in str(err) and "sources[2] (Tensor int32[])" in str(err)


def test_raise_mode_returns_gradients_when_all_connected():
    with tf.GradientTape() as tape:
        tape.watch(X)
        y = tf.reduce_sum(X * X)
    g = tape.gradient(y, X, unconnected_gradients=tf.UnconnectedGradients.RAISE)
    np.testing.assert_array_equal(g.numpy(), [2.0, 4.0])


def test_unknown_mode_lists_raise():
    with tf.GradientTape() as tape:
        tape.watch(X)
        y = X * 2.0
    with pytest.raises(ValueError, match="'raise'"):
        tape.gradient(y, X, unconnected_gradients="loud")


def test_raise_for_jacobian_and_batch_jacobian():
    x = tf.constant([[1.0, 2.0]])
    z = tf.constant([[1.0, 2.0]])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
    np.testing.assert_array_equal(tape.jacobian(y, x, unconnected_gradients="raise").numpy().shape,
                                  (1, 2, 1, 2))
    for call in (tape.jacobian, tape.batch_jacobian):
        with pytest.raises(tf.errors.UnconnectedGradientError, match="never watched|not following"):
            call(y, z, unconnected_gradients="raise")


def test_none_and_zero_modes_are_unchanged_in_explain_mode():
    with tf.GradientTape(persistent=True).explain(warn=False) as tape:
        tape.watch(X)
        y = tf.reduce_sum(X * X)
    other = tf.constant(3.0)
    assert tape.gradient(y, [X, other])[1] is None
    assert float(tape.gradient(y, other, unconnected_gradients="zero")) == 0.0
    np.testing.assert_array_equal(tape.gradient(y, X).numpy(), [2.0, 4.0])


def test_explain_returns_the_tape_and_works_as_context():
    tape = tf.GradientTape()
    assert tape.explain() is tape
    assert diagnosis.explain(tape) is tape
    with pytest.raises(TypeError, match="GradientTape"):
        diagnosis.explain(object())


def test_explain_warns_with_the_causes_at_the_gradient_call():
    with tf.GradientTape().explain() as tape:
        y = X * X
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        g = tape.gradient(y, X); line = here()  # noqa: E702
    assert g is None
    (w,) = caught
    assert w.category is diagnosis.NoneGradientWarning
    assert (w.filename, w.lineno) == (__file__, line)
    assert "never watched" in str(w.message)


def test_explain_warn_false_is_silent():
    with tf.GradientTape().explain(warn=False) as tape:
        y = X * X
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert tape.gradient(y, X) is None


def test_enable_disable_and_explaining():
    try:
        diagnosis.enable(warn=False)
        assert tf.GradientTape()._rec.explain is not None
    finally:
        diagnosis.disable()
    assert tf.GradientTape()._rec.explain is None
    with diagnosis.explaining(cotangents=True):
        t = tf.GradientTape()
        assert t._rec.explain is not None and t._rec.explain.on_cotangent is not None
    assert tf.GradientTape()._rec.explain is None


def test_environment_variable_turns_explain_mode_on():
    code = "import tapegrad as tf; print(tf.GradientTape()._rec.explain is not None)"
    env = dict(os.environ, TAPEGRAD_EXPLAIN="1",
               PYTHONPATH=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.stdout.strip() == "True", out.stderr


# ---------------------------------------------------------------------------- the causes
def test_constant_never_watched():
    with tf.GradientTape().explain() as tape:
        y = X * X; line = here()  # noqa: E702
    c = only_cause(raised(tape, y, X))
    assert c.kind == "not_watched" and "tape.watch(x)" in c.message and "Mul" in c.message
    at(c, line)


def test_constant_never_watched_without_explain():
    with tf.GradientTape() as tape:
        y = X * X
    err = raised(tape, y, X)
    assert only_cause(err).kind in ("not_watched", "outside_tape")
    assert "explain mode" in str(err)


def test_integer_source():
    i = tf.constant([1, 2])
    with tf.GradientTape() as tape:
        with pytest.warns(UserWarning, match="floating"):
            tape.watch(i)
        y = tf.cast(i, tf.float32) * 2.0
    c = only_cause(raised(tape, y, i))
    assert c.kind == "int_dtype" and "int32" in c.message and "tf.cast" in c.message


def test_integer_variable_mentions_float_literal():
    v = tf.Variable(3)
    with tf.GradientTape() as tape:
        y = tf.cast(v, tf.float32) * 2.0
    c = only_cause(raised(tape, y, v))
    assert c.kind == "int_dtype" and "tf.Variable(0.0)" in c.message


def test_variable_not_trainable():
    v = tf.Variable(2.0, trainable=False, name="frozen")
    with tf.GradientTape() as tape:
        y = v * v
    c = only_cause(raised(tape, y, v))
    assert c.kind == "not_trainable" and "'frozen:0'" in c.message and "tape.watch(v)" in c.message


def test_variable_under_watch_accessed_variables_false():
    v = tf.Variable(2.0)
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        y = v * v
    c = only_cause(raised(tape, y, v))
    assert c.kind == "watch_accessed" and "watch_accessed_variables=False" in c.message


def test_variable_read_before_the_tape():
    v = tf.Variable(2.0)
    h = v * 3.0
    with tf.GradientTape().explain() as tape:
        y = h * h
    c = only_cause(raised(tape, y, v))
    assert c.kind == "not_read" and "before the `with` block" in c.message
    # The tape cannot tell `h` (made from v before it) from input data made before it: naming
    # the first use of such a tensor blamed the input `x` when a variable was simply unused.
    assert c.filename is None and "made before the tape" not in c.message


# ---------------------------------------------------------------------------- unused variables and layers
def test_unused_variable_is_named_and_the_input_is_not_blamed():
    x = tf.constant([1.0, 2.0])
    w = tf.Variable(1.0, name="w")
    u = tf.Variable(2.0, name="u")
    with tf.GradientTape().explain() as tape:
        y = tf.reduce_sum(w * x)
    err = raised(tape, y, [w, u])
    c = only_cause(err)
    assert c.kind == "not_read"
    assert c.message.startswith("Variable 'u:0' was never used by the computation of the target")
    assert c.filename is None and __file__ not in str(err)  # no line of the input `x`
    assert "sources[1] (Variable 'u:0', float32[])" in str(err)


def test_unused_variable_without_explain_mode_says_the_same():
    u = tf.Variable(2.0, name="u")
    with tf.GradientTape() as tape:
        y = X * 2.0
    c = only_cause(raised(tape, y, u))
    assert c.kind == "not_read" and "'u:0' was never used by the computation" in c.message


class _WithSpareLayer(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden = tf.keras.layers.Dense(4)
        self.out = tf.keras.layers.Dense(1)
        self.spare = tf.keras.layers.Dense(3)  # built, never called in call()

    def call(self, x):
        return self.out(self.hidden(x))


def _model_with_a_spare_layer():
    model = _WithSpareLayer()
    model.spare.build((None, 3))
    x = tf.constant(np.ones((2, 3), np.float32))
    model(x)
    return model, x


def test_unused_keras_layer_is_named_by_its_weights_paths():
    model, x = _model_with_a_spare_layer()
    spare = [v.path for v in model.spare.weights]
    assert [p.rsplit("/", 1)[1] for p in spare] == ["kernel", "bias"]
    with tf.GradientTape().explain(warn=False) as tape:
        loss = tf.reduce_sum(model(x))
    grads = tape.gradient(loss, model.trainable_variables)
    assert [g is None for g in grads] == [False] * 4 + [True] * 2
    d = diagnosis.diagnose(tape, loss, model.trainable_variables)
    assert [s.index for s in d] == [4, 5]
    for s, path in zip(d, spare):
        assert s.label().startswith(f"sources[{s.index}] (Variable '{path}', float32[")
        assert [c.kind for c in s.causes] == ["not_read"]
        assert s.causes[0].message.startswith(f"Variable '{path}' was never used by the computation")
        assert s.causes[0].filename is None  # not the line where x was first used


def test_keras_output_the_loss_leaves_out_is_disconnected_and_named():
    inp = tf.keras.Input((3,))
    head = tf.keras.layers.Dense(2, name="head_b")
    model = tf.keras.Model(inp, [tf.keras.layers.Dense(4, name="head_a")(inp), head(inp)])
    x = tf.constant(np.ones((2, 3), np.float32))
    with tf.GradientTape().explain(warn=False) as tape:
        loss = tf.reduce_sum(model(x)[0]); line = here()  # noqa: E702
    err = raised(tape, loss, head.kernel)
    c = only_cause(err)
    assert c.kind == "disconnected"
    assert "Variable 'head_b/kernel' is used (first by" in c.message
    assert "nothing computed from it reaches the target" in c.message
    at(c, line)


def test_watched_after_use():
    x = tf.constant(3.0)
    with tf.GradientTape().explain() as tape:
        y = x * x; use = here()  # noqa: E702
        tape.watch(x); watch = here()  # noqa: E702
        z = y + 1.0
    c = only_cause(raised(tape, z, x))
    assert c.kind == "watched_late"
    at(c, watch)
    assert f"{__file__}:{use}" in c.message


def test_stop_gradient():
    with tf.GradientTape().explain() as tape:
        tape.watch(X)
        y = tf.reduce_sum(tf.stop_gradient(X) * 2.0); line = here()  # noqa: E702
    c = only_cause(raised(tape, y, X))
    assert c.kind == "stop_gradient"
    at(c, line)


def test_stop_recording():
    with tf.GradientTape().explain() as tape:
        tape.watch(X)
        with tape.stop_recording():
            h = X * X; line = here()  # noqa: E702
        y = tf.reduce_sum(h * 2.0)
    c = only_cause(raised(tape, y, X))
    assert c.kind == "stop_recording" and "Mul" in c.message
    at(c, line)
    assert f"{__file__}:{line - 1}" in c.message  # the stop_recording line


def test_stop_recording_in_explain_mode_still_records_after_it():
    x = tf.constant(2.0)
    with tf.GradientTape().explain() as tape:
        tape.watch(x)
        with tape.stop_recording():
            c = x * x
        y = c * x
    assert float(tape.gradient(y, x)) == 4.0
    from tapegrad._recorders import tls as _tls
    assert _tls.stack == []


def test_non_differentiable_op_is_named():
    with tf.GradientTape().explain() as tape:
        tape.watch(X)
        y = tf.reduce_sum((X // 1.0) * 2.0); line = here()  # noqa: E702
    c = only_cause(raised(tape, y, X))
    assert c.kind == "nondiff_op" and "FloorDiv" in c.message
    at(c, line)


def test_comparison_on_the_path():
    with tf.GradientTape().explain() as tape:
        tape.watch(X)
        y = tf.reduce_sum(tf.where(X > 1.5, 1.0, 0.0))
    causes = raised(tape, y, X).diagnoses[0].causes
    assert [c.kind for c in causes] == ["nondiff_op"] and "Greater" in causes[0].message
    assert "bool" in causes[0].message


def test_integer_output_on_the_path_is_named():
    c = diagnosis._cut_cause(REGISTRY["Cast"], 0, (np.dtype("int32"),), False, ("f.py", 3, "g"), [], 0)
    assert c.kind == "int_on_path" and "Cast at f.py:3" in c.message and "int32" in c.message


def test_cast_to_int_hints_at_integer_casts():
    with tf.GradientTape().explain() as tape:
        tape.watch(X)
        y = tf.reduce_sum(tf.cast(tf.cast(X, tf.int32), tf.float32) * 2.0); line = here()  # noqa: E702
    c = only_cause(raised(tape, y, X))
    assert c.kind == "nondiff_op" and "CastToNonFloat" in c.message and c.lineno == line


@pytest.mark.parametrize("how,expect", [
    (lambda x: tf.constant(x.numpy()), ".numpy()"),
    (lambda x: tf.constant(float(x[0])), "float()"),
    (lambda x: tf.constant(np.asarray(x)), "conversion to a NumPy array"),
    (lambda x: tf.constant(np.percentile(x, [50.0, 100.0])), "NumPy call np.percentile"),
], ids=["numpy", "float", "asarray", "np.percentile"])
@pytest.mark.filterwarnings("ignore:np.percentile was given")
def test_value_left_the_tape(how, expect):
    with tf.GradientTape().explain() as tape:
        tape.watch(X)
        h = X * 2.0
        y = tf.reduce_sum(how(h) * 3.0)
    c = only_cause(raised(tape, y, X))
    assert c.kind == "escaped" and expect in c.message
    at(c, how.__code__.co_firstlineno)  # the conversion runs in the lambda


def test_variable_numpy_is_an_escape():
    v = tf.Variable([1.0, 2.0])
    with tf.GradientTape().explain() as tape:
        y = tf.reduce_sum(tf.constant(v.numpy()) * 2.0); line = here()  # noqa: E702
    c = only_cause(raised(tape, y, v))
    assert c.kind in ("not_read", "escaped")


def test_escape_unrelated_to_the_target_is_not_blamed():
    x = tf.constant(2.0)
    with tf.GradientTape().explain() as tape:
        tape.watch(x)
        y = tf.constant(3.0) * 2.0
        _ = float(x)
    c = only_cause(raised(tape, y, x))
    assert c.kind == "disconnected"


def test_internal_conversions_are_not_escapes():
    with tf.GradientTape().explain() as tape:
        tape.watch(X)
        n = tf.reshape(X, tf.constant([2, 1]))
        _ = tf.reduce_sum(n)
    assert tape._rec.explain.escapes == []


def test_variable_changed_by_assign():
    v, w = tf.Variable(1.0, name="v"), tf.Variable(2.0, name="w")
    with tf.GradientTape().explain() as tape:
        v.assign(w * 3.0); line = here()  # noqa: E702
        y = v * v
    c = only_cause(raised(tape, y, w))
    assert c.kind == "assign" and "'v:0'" in c.message
    at(c, line)


def test_target_computed_outside_the_tape():
    x = tf.constant(2.0)
    y = x * x
    with tf.GradientTape().explain() as tape:
        tape.watch(x)
    c = only_cause(raised(tape, y, x))
    assert c.kind == "outside_tape" and "outside the tape's `with` block" in c.message


def test_target_is_a_constant_made_inside_the_tape():
    x = tf.constant(2.0)
    with tf.GradientTape().explain() as tape:
        tape.watch(x)
        y = tf.constant(4.0)
    assert only_cause(raised(tape, y, x)).kind == "outside_tape"


def test_target_does_not_use_the_source():
    a, b = tf.constant(1.0), tf.constant(2.0)
    with tf.GradientTape().explain() as tape:
        tape.watch([a, b])
        _ = a * 2.0; line = here()  # noqa: E702
        y = b * 3.0
    c = only_cause(raised(tape, y, a))
    assert c.kind == "disconnected" and f"{__file__}:{line}" in c.message


def test_explain_turned_on_late_says_so():
    with tf.GradientTape() as tape:
        tape.watch(X)
        h = X * 2.0
        tape.explain(warn=False)
        y = tf.stop_gradient(h) * 2.0
    kinds = [c.kind for c in raised(tape, y, X).diagnoses[0].causes]
    assert kinds[-1] == "partial"


def test_reset_clears_the_log():
    with tf.GradientTape().explain(warn=False) as tape:
        tape.watch(X)
        _ = X * 2.0
        tape.reset()
        assert tape._rec.explain.ops == [] and tape._rec.explain.watches == []
        tape.watch(X)
        y = X * 3.0
    np.testing.assert_array_equal(tape.gradient(y, X).numpy(), [3.0, 3.0])


# ---------------------------------------------------------------------------- diagnose()
def test_diagnose_after_a_one_shot_gradient():
    a, b = tf.constant(1.0), tf.constant(2.0)
    with tf.GradientTape().explain(warn=False) as tape:
        tape.watch(a)
        y = a * b
    assert tape.gradient(y, [a, b])[1] is None
    d = diagnosis.diagnose(tape, y, [a, b])
    assert [x.index for x in d] == [1] and d[0].causes[0].kind == "not_watched"
    assert str(d).startswith("sources[1] (Tensor float32[]):")


def test_diagnose_connected_sources_are_left_out():
    with tf.GradientTape(persistent=True).explain() as tape:
        tape.watch(X)
        y = X * X
    assert diagnosis.diagnose(tape, y, X) == []


def test_diagnose_without_explain_mode():
    v = tf.Variable(1.0, trainable=False)
    with tf.GradientTape(persistent=True) as tape:
        y = v * 2.0
    d = diagnosis.diagnose(tape, y, v)
    assert d[0].causes[0].kind == "not_trainable"


# ---------------------------------------------------------------------------- stats
def test_stats_counts_ops_and_bytes():
    x = tf.ones([1000])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.exp(x) * x)
    s = tape.stats()
    assert (s.ops, s.bytes, s.tensors, s.variables) == (3, 3 * 4000 + 4, 4, 0)
    assert "3 ops recorded" in str(s) and "KiB" in str(s)
    assert diagnosis.stats(tape) == s


def test_stats_after_one_shot_gradient_is_empty():
    v = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(v * v)
    assert tape.stats().variables == 1
    tape.gradient(y, v)
    s = tape.stats()
    assert (s.ops, s.bytes) == (0, 0)


# ---------------------------------------------------------------------------- cost
def test_explain_log_holds_no_values():
    x = tf.ones([100000])
    with tf.GradientTape(persistent=True).explain() as tape:
        tape.watch(x)
        y = tf.reduce_sum(x * 2.0)
    tape.gradient(y, x)
    for rec in tape._rec.explain.ops:
        assert not any(isinstance(f, (np.ndarray, tf.Tensor)) for f in rec)


def test_explain_mode_gives_the_same_gradients():
    def run(explain):
        w = tf.Variable([[1.0, -2.0], [0.5, 3.0]])
        x = tf.constant([[1.0, 2.0]])
        tape = tf.GradientTape()
        if explain:
            tape.explain()
        with tape:
            y = tf.reduce_sum(tf.tanh(x @ w) ** 2)
        return tape.gradient(y, w).numpy()
    np.testing.assert_array_equal(run(False), run(True))


def test_forgotten_second_input_is_located():
    x, w = tf.constant(2.0), tf.constant(3.0)
    with tf.GradientTape().explain() as tape:
        tape.watch(x)
        y = x * w; line = here()  # noqa: E702
    err = raised(tape, y, [x, w])
    assert [d.index for d in err.diagnoses] == [1]
    c = only_cause(err)
    assert c.kind == "not_watched"
    at(c, line)


def test_recorded_ops_locate_the_user_line_that_ran_them():
    # every recorded op notes the line of user code that ran it (the tape picture shows it)
    x = tf.constant(2.0)
    with tf.GradientTape().explain() as tape:
        tape.watch(x)
        y = x
        for _ in range(5):
            line = sys._getframe().f_lineno + 1
            y = y * 1.5
    wheres = [rec[5] for rec in tape._rec.explain.ops]
    assert len(wheres) == 5 and all(w == (__file__, line) or w == (os.path.realpath(__file__), line)
                                    for w in wheres), wheres


def test_docstring_examples():
    import doctest
    from tapegrad import _tape
    for obj in (diagnosis, _tape.GradientTape.explain, _tape.GradientTape.stats):
        finder = doctest.DocTestFinder()
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        for test in finder.find(obj, globs={}):
            runner.run(test)
        assert runner.failures == 0, obj


def test_diagnose_a_used_tape_without_explain_says_it_cannot_tell():
    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.stop_gradient(x) * 2.0
    assert tape.gradient(y, x) is None
    c = diagnosis.diagnose(tape, y, x)[0].causes[0]
    assert c.kind == "disconnected" and "tape.explain()" in c.message


# ---------------------------------------------------------------------------- the first hour
# The classic None-gradient mistakes. The first message a user meets (the optimizer's warning or
# error, or the "raise" error) names TAPEGRAD_EXPLAIN=1; one run with it must give cause and line.
CLASSIC = '''\
import numpy as np
import tapegrad as tf
x = tf.constant(2.0)
with tf.GradientTape() as tape:
    y = x * x  # @unwatched
g = tape.gradient(y, x)
v = tf.Variable(2.0)
with tf.GradientTape() as tape:
    y = tf.constant(np.square(v.numpy()))  # @numpy
g = tape.gradient(y, v)
n = tf.Variable(2)
with tf.GradientTape() as tape:
    y = n * n  # @int_source
g = tape.gradient(y, n)
c = tf.Variable(2.5)
with tf.GradientTape() as tape:
    y = tf.cast(tf.cast(c, tf.int32), tf.float32) * 2.0  # @int_cast
g = tape.gradient(y, c)
o = tf.Variable(2.0)
with tf.GradientTape() as tape:  # @outside
    y = o * o
z = y * 3.0
g = tape.gradient(z, o)
with tf.GradientTape() as t2:  # @second
    with tf.GradientTape() as t1:
        y = o ** 3
dy = t1.gradient(y, o)
g = t2.gradient(dy, o)
w = tf.Variable([1.0, 2.0])
with tf.GradientTape() as tape:
    loss = tf.constant(float(tf.reduce_sum(w * w)))  # @float
grads = tape.gradient(loss, [w])
tf.optimizers.SGD(0.1).apply_gradients(zip(grads, [w]))
'''

CLASSIC_CAUSES = {"unwatched": "never watched", "numpy": "left the tape through .numpy()",
                  "int_source": "holds int32", "int_cast": "CastToNonFloat",
                  "outside": "after the tape's `with` block", "second": "after the tape's `with` block",
                  "float": "left the tape through float()"}


def _run_classic(tmp_path, **env):
    script = tmp_path / "classic.py"
    script.write_text(CLASSIC)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict({k: v for k, v in os.environ.items() if k != "TAPEGRAD_EXPLAIN"},
               PYTHONPATH=root, PYTHONWARNINGS="default", **env)
    out = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True,
                         cwd=str(tmp_path))
    lines = {tag: i + 1 for i, s in enumerate(CLASSIC.splitlines()) for tag in CLASSIC_CAUSES
             if s.endswith(f"# @{tag}")}
    return script, out, lines


def test_first_message_says_how_to_get_cause_and_line(tmp_path):
    _, out, _ = _run_classic(tmp_path)
    assert "No gradients provided for any variable" in out.stderr
    assert "TAPEGRAD_EXPLAIN=1" in out.stderr


def test_one_run_with_explain_gives_cause_and_line_of_classic_mistakes(tmp_path):
    script, out, lines = _run_classic(tmp_path, TAPEGRAD_EXPLAIN="1")
    # explain mode is on: the optimizer's error points at the warnings, never says to turn it on
    assert "No gradients provided for any variable" in out.stderr
    assert "Explain mode is on: the NoneGradientWarning" in out.stderr
    assert "TAPEGRAD_EXPLAIN=1" not in out.stderr
    warnings_ = out.stderr.split("NoneGradientWarning: ")[1:]
    assert len(warnings_) == len(CLASSIC_CAUSES), out.stderr
    for text, (tag, cause) in zip(warnings_, CLASSIC_CAUSES.items()):
        assert cause in text, (tag, text)
        assert f"{script}:{lines[tag]}" in text, (tag, text)


def test_raise_without_explain_mode_names_the_environment_variable():
    with tf.GradientTape() as tape:
        y = X * X
    assert "TAPEGRAD_EXPLAIN=1" in str(raised(tape, y, X))
