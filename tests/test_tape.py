"""GradientTape behaviour (spec section 1) and the engine's guarantees."""
import collections
import gc
import threading
import weakref

import numpy as np
import pytest

import tapegrad as tf


def grad(f, *xs, **kw):
    xs = [tf.constant(x) if not isinstance(x, (tf.Tensor, tf.Variable)) else x for x in xs]
    with tf.GradientTape() as tape:
        tape.watch(xs)
        y = f(*xs)
    return tape.gradient(y, xs, **kw)


def test_seed_program_numbers():
    inputs = tf.convert_to_tensor([[0.1, 0], [0.5, 0.51]])
    w = tf.Variable(initial_value=inputs)
    b = tf.Variable(tf.zeros((2,)))
    labels = tf.convert_to_tensor([0, 1])

    def forward():
        logits = tf.matmul(inputs, w) + b
        return tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)

    with tf.GradientTape() as g:
        xentropy = forward()
    grads = g.gradient(xentropy, [w, b])
    with tf.GradientTape() as g:
        reduced = tf.reduce_mean(forward())
    grads_reduced = g.gradient(reduced, [w, b])
    np.testing.assert_allclose(xentropy.numpy(), [0.6881597, 0.71584916], rtol=1e-6)
    np.testing.assert_allclose(grads[0].numpy(), [[0.20586157, -0.20586154], [0.2607238, -0.26072377]], rtol=1e-5)
    np.testing.assert_allclose(grads_reduced[0].numpy(), grads[0].numpy() / 2, rtol=1e-6)
    np.testing.assert_allclose(float(reduced), 0.70200443, rtol=1e-6)


def test_list_target_is_summed_and_structure_mirrors_sources():
    x = tf.constant(2.0)
    y = tf.constant(3.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, y])
        a, b = x * y, x * x
    g = tape.gradient([a, b], {"y": y, "x": x})
    assert float(g["x"]) == 3 + 4 and float(g["y"]) == 2
    P = collections.namedtuple("P", "x y")
    g2 = tape.gradient({"a": a, "b": b}, P(x, y))
    assert isinstance(g2, P) and float(g2.x) == 7
    g3 = tape.gradient(a, (x, [y, x]))
    assert isinstance(g3, tuple) and isinstance(g3[1], list) and float(g3[1][1]) == 3


def test_output_gradients_is_the_v_of_vjp():
    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
    v = tf.constant([3.0, 0.0, 10.0])
    np.testing.assert_allclose(tape.gradient(y, x, output_gradients=v).numpy(), [6, 0, 60])
    np.testing.assert_allclose(tape.gradient([y, y], x, output_gradients=[v, None]).numpy(), [8, 4, 66])
    np.testing.assert_allclose(tape.gradient(y, x, output_gradients=np.array([1, 1, 1])).numpy(), [2, 4, 6])
    with pytest.raises(ValueError, match="3 entries but there is 1 target"):
        tape.gradient(y, x, output_gradients=[3.0, 0.0, 10.0])
    with pytest.raises(ValueError, match=r"output_gradients\[0\] has shape \[2\] but target\[0\] has shape \[3\]"):
        tape.gradient(y, x, output_gradients=tf.constant([1.0, 2.0]))
    with pytest.raises(ValueError, match="2 entries but there is 1 target"):
        tape.gradient([y], x, output_gradients=[v, v])
    g = tape.gradient(y, x, output_gradients=tf.constant([1, 1, 1]))   # int seed is cast
    assert g.dtype == tf.float32


def test_unconnected_gradients():
    x, z = tf.constant(1.0), tf.constant([1.0, 2.0], tf.float64)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, z])
        y = x * 2.0
    assert tape.gradient(y, z) is None
    g = tape.gradient(y, z, unconnected_gradients=tf.UnconnectedGradients.ZERO)
    assert g.dtype == tf.float64 and g.numpy().tolist() == [0, 0]
    assert tape.gradient(y, z, unconnected_gradients="zero").shape == (2,)
    with pytest.raises(ValueError, match="Unknown value for unconnected_gradients: 'nonsense'"):
        tape.gradient(y, z, unconnected_gradients="nonsense")
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.zeros_like(x) + tf.nn.relu(-x)
    assert float(tape.gradient(y, x)) == 0.0   # dead relu: connected, zero


def test_non_persistent_tape_single_use_and_distinct_errors():
    x = tf.constant(1.0)
    tape = tf.GradientTape()
    with pytest.raises(RuntimeError, match="never entered"):
        tape.gradient(x, x)
    with pytest.raises(RuntimeError, match="never entered"):
        tape.watch(x)
    with tape:
        tape.watch(x)
        y = x * x
    with pytest.raises(ValueError, match="Unknown value"):
        tape.gradient(y, x, unconnected_gradients="bad")   # checked before the tape is consumed
    assert float(tape.gradient(y, x)) == 2.0
    with pytest.raises(RuntimeError, match="only be used to compute one set of gradients"):
        tape.gradient(y, x)
    with pytest.raises(ValueError, match="still recording"):
        with tf.GradientTape() as t2:
            t2.__enter__()


def test_bad_targets_and_sources():
    x = tf.constant(1.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
    with pytest.raises(TypeError, match="received None"):
        tape.gradient(None, x)
    with pytest.raises(TypeError, match="ndarray.*tf.constant"):
        tape.gradient(y, np.array(1.0))
    with pytest.raises(TypeError, match=r"sources\[1\]"):
        tape.gradient(y, [x, 2.0])
    with pytest.raises(TypeError, match="float"):
        tape.gradient(2.0, x)
    with pytest.raises(ValueError, match="not tf.Tensor or tf.Variable"):
        tape.watch(np.ones(2))


def test_gradient_in_context():
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
        g = tape.gradient(y, x)
        z = y * x   # the non-persistent tape stopped recording at the in-context call
    assert float(g) == 6.0
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x * x
        with pytest.warns(UserWarning, match="less efficient"):
            g = tape.gradient(y, x)
        g2 = tape.gradient(g, x)
    assert float(g2) == 18.0


def test_higher_order_nested_tapes():
    x = tf.constant(2.0)
    with tf.GradientTape() as t2:
        t2.watch(x)
        with tf.GradientTape() as t1:
            t1.watch(x)
            y = x ** 3
        dy = t1.gradient(y, x)
    d2 = t2.gradient(dy, x)
    assert float(dy) == 12.0 and float(d2) == 12.0
    with tf.GradientTape() as t1:
        t1.watch(x)
        y = x ** 3
    assert t1.gradient(y, x) is not None
    with tf.GradientTape() as t3:   # computed outside the outer tape: not recorded
        t3.watch(x)
    assert t3.gradient(dy, x) is None


def test_variables_auto_watch():
    v = tf.Variable(2.0)
    nt = tf.Variable(3.0, trainable=False)
    iv = tf.Variable(1)
    before = v * 1.0
    with tf.GradientTape() as tape:
        y = v * nt + before + tf.cast(iv, tf.float32)
    gv, gnt, gb = tape.gradient(y, [v, nt, before])
    assert float(gv) == 3.0 and gnt is None and gb is None   # `before` was never watched
    assert tape.watched_variables() == (v, iv) or [w.name for w in tape.watched_variables()] == [v.name, iv.name]
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        y = v * v
    assert tape.gradient(y, v) is None
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(nt)
        y = nt * v
    assert float(tape.gradient(y, nt)) == 2.0
    with tf.GradientTape() as tape:
        z = v * 2.0
        v.assign(z)          # state: not connected
        y = v * 1.0
    assert float(tape.gradient(y, v)) == 1.0
    with tf.GradientTape() as tape:
        pass
    assert float(tape.gradient(v, v)) == 1.0


def test_targets_sources_identity_rules():
    x = tf.constant(3.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
        z = y * y + x
    gy, gx = tape.gradient(z, [y, x])
    assert float(gy) == 18.0 and float(gx) == 109.0
    assert [float(g) for g in tape.gradient(z, [x, x])] == [109.0, 109.0]
    assert float(tape.gradient([x, y], x)) == 7.0
    assert float(tape.gradient([y, z], x, output_gradients=[10.0, 1.0])) == 60.0 + 109.0
    u = tf.constant(5.0)   # never watched, target is source
    assert float(tape.gradient(u, u)) == 1.0


def test_int_sources_warn_and_get_none():
    i = tf.constant(2)
    with tf.GradientTape() as tape:
        with pytest.warns(UserWarning, match="must be floating"):
            tape.watch(i)
        y = tf.cast(i, tf.float32) * 2.0
    assert tape.gradient(y, i) is None
    with tf.GradientTape() as tape:
        tape.watch(i)
        y = tf.cast(i, tf.float32) * 2.0
    z = tape.gradient(y, i, unconnected_gradients="zero")
    assert z.dtype == tf.int32 and int(z) == 0


def test_stop_gradient_stop_recording_reset():
    x = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        with tape.stop_recording():
            y = x * x
        z = y * x
        w = tf.stop_gradient(x * x) + x
    assert float(tape.gradient(z, x)) == 4.0 and float(tape.gradient(w, x)) == 1.0
    assert tape.gradient(y, x) is None
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
        tape.reset()
        tape.watch(x)
        y = x * 5.0
    assert float(tape.gradient(y, x)) == 5.0
    with pytest.raises(ValueError, match="not recording"):
        tape.reset()
    with pytest.raises(ValueError, match="not recording"):
        tape.stop_recording()


def test_nested_stop_recording_only_pauses_one_tape():
    x = tf.constant(2.0)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            with inner.stop_recording():
                y = x * x
    assert inner.gradient(y, x) is None and float(outer.gradient(y, x)) == 4.0


def test_gather_gives_indexed_slices_and_aggregates():
    p = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(p)
        a = tf.gather(p, [0, 2])
        b = tf.gather(p, [2])
        c = p * 2.0
    g = tape.gradient(a, p)
    assert isinstance(g, tf.IndexedSlices)
    assert g.indices.numpy().tolist() == [0, 2] and g.dense_shape.numpy().tolist() == [3, 2]
    gs = tape.gradient([a, b], p)
    assert isinstance(gs, tf.IndexedSlices) and sorted(gs.indices.numpy().tolist()) == [0, 2, 2]
    gd = tape.gradient([a, c], p)
    assert isinstance(gd, tf.Tensor)
    np.testing.assert_allclose(gd.numpy(), [[3, 3], [2, 2], [3, 3]])


def test_broadcasting_gradients_have_source_shapes():
    a = tf.constant(np.ones((2, 1, 3)))
    b = tf.constant(np.ones((4, 1)))
    ga, gb = grad(lambda a, b: a * b, a, b)
    assert ga.shape == (2, 1, 3) and gb.shape == (4, 1)
    assert float(gb[0, 0]) == 6.0 and float(ga[0, 0, 0]) == 4.0


def test_dtypes_of_gradients():
    for dt in (tf.float16, tf.float32, tf.float64):
        x = tf.constant([1.0, 2.0], dt)
        assert grad(lambda x: x * x, x)[0].dtype == dt
    x = tf.constant(1.0)
    g = grad(lambda x: tf.cast(x, tf.float64) * 2.0, x)[0]
    assert g.dtype == tf.float32 and float(g) == 2.0


def test_complex_conventions():
    z = tf.constant(1 + 2j)
    g = grad(lambda z: z * z, z)[0]
    assert complex(g) == 2 - 4j
    g = grad(lambda z: tf.abs(z), tf.constant(3 + 4j))[0]
    np.testing.assert_allclose(complex(g), 0.6 + 0.8j)
    x = tf.constant(2.0, tf.float64)
    g = grad(lambda x: tf.complex(x, x * x), x)[0]
    assert float(g) == 1.0


def test_kink_conventions():
    assert grad(tf.reduce_max, tf.constant([2.0, 2.0, 1.0]))[0].numpy().tolist() == [0.5, 0.5, 0.0]
    gx, gy = grad(tf.maximum, tf.constant([1.0, 2.0]), tf.constant([1.0, 3.0]))
    assert gx.numpy().tolist() == [1, 0] and gy.numpy().tolist() == [0, 1]
    for f in (tf.abs, tf.sign, tf.nn.relu):
        assert float(grad(f, tf.constant(0.0))[0]) == 0.0
    assert np.isinf(float(grad(tf.sqrt, tf.constant(0.0))[0]))
    assert grad(lambda x: tf.clip_by_value(x, 0.0, 1.0), tf.constant([0.0, 1.0, 2.0, -1.0]))[0].numpy().tolist() == [1, 1, 0, 0]
    gx, gp = grad(lambda x, p: x ** p, tf.constant(0.0), tf.constant(2.0))
    assert float(gx) == 0 and float(gp) == 0
    g = grad(lambda x: tf.reduce_prod(x), tf.constant([0.0, 2.0, 3.0]))[0]
    assert g.numpy().tolist() == [6.0, 0.0, 0.0]
    assert grad(lambda x: tf.cast(x, tf.int32), tf.constant(1.5))[0] is None


def test_stable_cross_entropies_at_large_logits():
    logits = tf.constant([[1000.0, -1000.0], [-1000.0, 1000.0]])
    for f in (lambda l: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.constant([1, 1]), logits=l),
              lambda l: tf.nn.softmax_cross_entropy_with_logits(labels=tf.constant([[0.0, 1.0], [0.0, 1.0]]), logits=l),
              lambda l: tf.nn.sigmoid_cross_entropy_with_logits(labels=tf.ones_like(l), logits=l),
              lambda l: tf.nn.log_softmax(l), lambda l: tf.reduce_logsumexp(l, axis=1)):
        with tf.GradientTape() as tape:
            tape.watch(logits)
            y = f(logits)
        g = tape.gradient(y, logits)
        assert np.all(np.isfinite(y.numpy())) and np.all(np.isfinite(g.numpy()))


def test_threads_have_their_own_tapes():
    results = {}
    errors = []

    def work(k):
        try:
            x = tf.constant(float(k))
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = x
                for _ in range(200):
                    y = y * 1.0 + x * 0.0
                y = y * x
            results[k] = float(tape.gradient(y, x))
        except Exception as e:   # pragma: no cover
            errors.append(e)

    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert not errors and results == {k: 2.0 * k for k in range(8)}
    assert tape._rec.entries == []   # ops in other threads were not recorded here


def test_long_chain_no_recursion_error():
    x = tf.constant(1.0, tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x
        for _ in range(1_000_000):
            y = y + 1.0
    assert float(tape.gradient(y, x)) == 1.0


def test_one_shot_tape_frees_saved_values_and_persistent_tape_on_delete():
    x = tf.constant(np.ones(1000))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.sin(x)
        z = tf.reduce_sum(y * y)
    ref = weakref.ref(y)
    del y
    tape.gradient(z, x)
    gc.collect()
    assert ref() is None and tape._rec.entries == []
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.sin(x)
    ref = weakref.ref(y)
    del y
    tape.gradient(tf.constant(1.0), x)
    gc.collect()
    assert ref() is not None
    del tape
    gc.collect()
    assert ref() is None


def test_failed_backward_leaves_clear_error():
    x = tf.constant(1.0)

    def bad_rule(*a, **k):
        raise ZeroDivisionError("boom")

    from tapegrad._dispatch import apply, defop
    op = defop("TestFailingRule", np.sin, vjp=(bad_rule,), register=False)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = apply(op, (x,))
    with pytest.raises(ZeroDivisionError):
        tape.gradient(y, x)
    with pytest.raises(RuntimeError):
        tape.gradient(y, x)
    with tf.GradientTape() as t2:   # other tapes are unaffected
        t2.watch(x)
        y = tf.sin(x)
    assert abs(float(t2.gradient(y, x)) - np.cos(1.0)) < 1e-6


def test_forward_accumulator_basics():
    x = tf.constant([1.0, 2.0])
    with tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 0.0])) as acc:
        y = x * x
        s = tf.sign(x)
    assert acc.jvp(y).numpy().tolist() == [2.0, 0.0]
    assert acc.jvp(s).numpy().tolist() == [0.0, 0.0]   # zeros, not None (TF gives None)
    assert acc.jvp(tf.constant(1.0)) is None
    v = tf.constant([1.0, 1.0])
    with tf.autodiff.ForwardAccumulator(x, v) as acc:   # forward-over-reverse HVP
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(x ** 3)
        g = tape.gradient(y, x)
    np.testing.assert_allclose(acc.jvp(g).numpy(), [6.0, 12.0])
    with tf.GradientTape() as tape:   # reverse-over-forward
        tape.watch(x)
        with tf.autodiff.ForwardAccumulator(x, v) as acc:
            y = tf.reduce_sum(x ** 3)
        j = acc.jvp(y)
    np.testing.assert_allclose(tape.gradient(j, x).numpy(), [6.0, 12.0])
    with pytest.raises(ValueError, match="multiple times"):
        tf.autodiff.ForwardAccumulator([x, x], [v, v])
