"""The cases of tools/record_tf_api_more.py, shared with tests/test_tf_api_more.py: TensorFlow names
tapegrad added late (tf.dtypes' ops, tf.test.TestCase, tf.train.ExponentialMovingAverage and the
checkpoint-file helpers, tf.train.Coordinator, tf.bitwise, tf.sets, tf.debugging's asserts and
check_numerics). Each case is a function of ``tf`` (TensorFlow when recorded, tapegrad when
replayed), encoded as tests/sparse_cases.py encodes (an error as its type and message: the test
compares the type, and the words of ``MESSAGES``)."""
import os
import tempfile
import threading

import numpy as np

from sparse_cases import encode, run  # noqa: F401  (run: the recorder's and the test's entry)


# ---- tf.dtypes ----------------------------------------------------------------------------------

def _dtypes(tf):
    c = [tf.dtypes.complex(tf.constant([1.0]), tf.constant([2.0])),
         tf.dtypes.complex(tf.constant(1.0, tf.float64), tf.constant(2.0, tf.float64))]
    return [tf.dtypes.cast(tf.constant([1.7, -2.5]), tf.int32), tf.dtypes.saturate_cast(tf.constant([300.0, -5.0]), tf.uint8),
            [[z.dtype.name, tf.math.real(z), tf.math.imag(z)] for z in c], tf.dtypes.cast is tf.cast]


# ---- tf.test.TestCase ---------------------------------------------------------------------------

def _case(tf):
    class T(tf.test.TestCase):
        def runTest(self):  # noqa: N802
            pass
    t = T()
    t.setUp()
    return t


def _outcome(f):
    """``"ok"``, or the type of the error ``f()`` raised."""
    try:
        f()
        return "ok"
    except Exception as e:  # noqa: BLE001
        return type(e).__name__


def _seeded(tf):
    import random
    _case(tf)
    return [tf.random.uniform([3]), tf.random.normal([2]), float(np.random.rand()), random.random()]


def _assertions(tf):
    t = _case(tf)
    x = tf.constant([1.0, 2.0, 3.0])
    checks = [
        lambda: t.assertAllClose(x, [1.0, 2.0, 3.0]),
        lambda: t.assertAllClose(x, [1.0, 2.0, 3.1]),
        lambda: t.assertAllClose(x, [1.0, 2.0, 3.000001], rtol=1e-6, atol=0),
        lambda: t.assertAllClose({"a": x, "b": (1, 2)}, {"a": [1.0, 2.0, 3.0], "b": (1, 2)}),
        lambda: t.assertAllClose({"a": x}, [x]),
        lambda: t.assertAllClose([x, x], [x]),
        lambda: t.assertAllClose(x, [1.0, 2.0]),
        lambda: t.assertAllClose(np.nan, np.nan),
        lambda: t.assertAllEqual(tf.constant([1, 2]), [1, 2]),
        lambda: t.assertAllEqual(tf.constant([1, 2]), [1, 3]),
        lambda: t.assertAllEqual(tf.constant(["a", "b"]), [b"a", b"b"]),
        lambda: t.assertAllEqual(tf.constant([np.nan]), [np.nan]),
        lambda: t.assertNotAllClose(x, x + 1.0),
        lambda: t.assertNotAllClose(x, x),
        lambda: t.assertNotAllEqual(x, x),
        lambda: t.assertAllGreater(x, 0.5), lambda: t.assertAllGreater(x, 1.0),
        lambda: t.assertAllLess(x, 3.0), lambda: t.assertAllLessEqual(x, 3.0),
        lambda: t.assertAllGreaterEqual(x, 1.0),
        lambda: t.assertAllInRange(x, 1.0, 3.0), lambda: t.assertAllInRange(x, 1.0, 3.0, open_upper_bound=True),
        lambda: t.assertAllInRange(tf.constant([np.nan]), 0.0, 1.0),
        lambda: t.assertAllInRange(tf.constant([True]), 0, 1),
        lambda: t.assertAllInSet(tf.constant([1, 2, 2]), [1, 2]), lambda: t.assertAllInSet(tf.constant([1, 5]), {1, 2}),
        lambda: t.assertDTypeEqual(x, np.float32), lambda: t.assertDTypeEqual(x, np.float64),
        lambda: t.assertDTypeEqual(x, tf.float32),
        lambda: t.assertNear(1.0, 1.05, 0.1), lambda: t.assertNear(1.0, 1.5, 0.1),
        lambda: t.assertArrayNear([1.0, 2.0], [1.01, 2.0], 0.1), lambda: t.assertNDArrayNear(np.ones(2), np.ones(2) * 1.1, 0.1),
        lambda: t.assertShapeEqual(np.zeros([2, 3]), tf.zeros([2, 3])),
        lambda: t.assertShapeEqual(np.zeros([2, 3]), tf.zeros([3, 2])),
        lambda: t.assertShapeEqual([1], tf.zeros([1])),
        lambda: t.assertAllCloseAccordingToType(tf.constant([1.0], tf.float16), [1.0005]),
        lambda: t.assertAllCloseAccordingToType(tf.constant([1.0], tf.float64), [1.0005]),
        lambda: t.assertLen([1, 2], 2), lambda: t.assertLen([1, 2], 3),
        lambda: t.assertEmpty([]), lambda: t.assertNotEmpty([]),
        lambda: t.assertItemsEqual([1, 2], [2, 1]),
    ]
    return [_outcome(c) for c in checks]


def _raises_op_error(tf):
    t = _case(tf)

    def failing():
        with t.assertRaisesOpError("must be"):
            tf.debugging.assert_equal(tf.constant(1), tf.constant(2), message="must be equal")

    def wrong_words():
        with t.assertRaisesOpError("nothing like it"):
            tf.debugging.assert_equal(tf.constant(1), tf.constant(2), message="must be equal")

    def none_raised():
        with t.assertRaisesOpError("x"):
            pass

    def shapes():
        with t.assertRaisesIncompatibleShapesError():
            tf.zeros([2]) + tf.zeros([3])

    def predicate():
        with t.assertRaisesWithPredicateMatch(ValueError, lambda e: "rank" in str(e)):
            tf.debugging.assert_rank(tf.zeros([2]), 2)
    return [_outcome(f) for f in (failing, wrong_words, none_raised, shapes, predicate)]


def _evaluate(tf):
    t = _case(tf)
    st = t.evaluate(tf.SparseTensor([[0, 1]], [5.0], [2, 3]))
    with t.cached_session() as sess:
        run_value = sess.run(tf.constant([1, 2]) * 2)
    out = t.evaluate({"a": tf.constant([1, 2]), "b": [tf.constant(1.5), None], "c": tf.Variable([3.0])})
    return [out, [st.indices, st.values, st.dense_shape], run_value, _outcome(lambda: sess.run(tf.constant(1), feed_dict={1: 2}))]


def _assert_message(tf, which):
    t = _case(tf)
    try:
        if which == "in_range":
            t.assertAllInRange(tf.constant([0.5, 4.0, 5.0]), 1.0, 4.0, open_upper_bound=True)
        elif which == "in_set":
            t.assertAllInSet(tf.constant([1, 5, 7]), [1, 2])
        elif which == "near":
            t.assertNear(1.0, 1.5, 0.1, msg="m")
        elif which == "not_close":
            t.assertNotAllClose([1.0], [1.0], msg="m")
        elif which == "dict":
            t.assertAllClose({"a": 1}, [1])
        elif which == "length":
            t.assertAllClose([[1.0], [1.0, 2.0]], [[1.0]])
    except Exception as e:  # noqa: BLE001
        return encode(e)
    return "ok"


# ---- tf.train -----------------------------------------------------------------------------------

def _ema_basic(tf):
    w = tf.Variable([1.0, 2.0], name="basic_w")  # (names of their own: TF makes shadow names unique per program)
    u = tf.Variable(3.0, dtype=tf.float64, name="basic_u")
    ema = tf.train.ExponentialMovingAverage(0.9)
    before = ema.average_name(w)
    ema.apply([w, u])
    out = [before, ema.name, ema.average(w).name, ema.average(w).trainable, ema.average(u).dtype.name]
    for vals in ([3.0, 5.0], [-1.0, 0.5], [2.0, 2.0]):
        w.assign(vals)
        u.assign(vals[0] * 3)
        ema.apply([w, u])
        out.append([ema.average(w), ema.average(u)])
    out.append(ema.average_name(u))
    out.append(sorted(ema.variables_to_restore([w, u])))
    out.append(ema.average(tf.Variable(1.0)) is None)
    return out


def _ema_num_updates(tf, as_variable):
    w = tf.Variable([1.0, -4.0], name="nuv" if as_variable else "nu")  # (names of their own: TF uniquifies)
    step = tf.Variable(0, dtype=tf.int64) if as_variable else None
    out, ema = [], None
    for i in range(4):
        n = step if as_variable else i * 3
        if ema is None or not as_variable:
            ema = tf.train.ExponentialMovingAverage(0.99, num_updates=n, name="avg")
        ema.apply([w])
        w.assign_add([1.5, 2.0])
        ema.apply([w])
        if as_variable:
            step.assign_add(3)
        out.append([ema.average(w), ema.average_name(w)])
    return out


def _ema_function(tf):
    w = tf.Variable([1.0, 2.0], name="fn")
    ema = tf.train.ExponentialMovingAverage(0.5, num_updates=tf.Variable(7.0))

    @tf.function
    def step(x):
        ema.apply([w])  # (before the update: TF starts the shadow at w's value before the call, docs/differences.md)
        w.assign_add(x)
        ema.apply([w])
        return ema.average(w).read_value()
    return [step(tf.constant([1.0, 1.0])) for _ in range(3)] + [step(tf.constant([-2.0, 0.5]))]


def _ema_zero_debias(tf):
    w = tf.Variable([2.0])
    ema = tf.train.ExponentialMovingAverage(0.8, zero_debias=True)
    ema.apply([w])
    w.assign([4.0])
    ema.apply([w])
    return ema.average(w)


def _ckpt_state(tf):
    d = tempfile.mkdtemp()
    ckpt = tf.train.Checkpoint(v=tf.Variable(1.0))
    empty = tf.train.get_checkpoint_state(d)
    for _ in range(3):
        ckpt.save(os.path.join(d, "ckpt"))
    state = tf.train.get_checkpoint_state(d)
    paths = [os.path.basename(state.model_checkpoint_path), [os.path.basename(p) for p in state.all_model_checkpoint_paths],
             os.path.dirname(state.model_checkpoint_path) == d]
    it = [os.path.basename(p) for p in tf.train.checkpoints_iterator(d, timeout=0)]
    opts = tf.train.CheckpointOptions(experimental_io_device="/job:localhost")
    ckpt.write(os.path.join(d, "w"), options=opts)
    return [empty is None, paths, it, opts.experimental_io_device, opts.experimental_enable_async_checkpoint]


def _coordinator(tf):
    out = []
    coord = tf.train.Coordinator()
    out.append(coord.should_stop())

    def clean():
        with coord.stop_on_exception():
            raise tf.errors.OutOfRangeError(None, None, "end of data")
    t = threading.Thread(target=clean)
    t.start()
    coord.join([t])
    out += [coord.should_stop(), coord.joined]
    coord.clear_stop()
    out.append(coord.should_stop())

    def bad():
        with coord.stop_on_exception():
            raise ValueError("bad worker")
    ts = [threading.Thread(target=bad) for _ in range(2)]
    for t in ts:
        t.start()
    out.append(_outcome(lambda: coord.join(ts)))
    coord.clear_stop()
    try:
        raise RuntimeError("stop now")
    except RuntimeError as e:
        coord.request_stop(e)
    out.append(_outcome(coord.raise_requested_exception))
    out.append(coord.wait_for_stop(0.01))
    return out


# ---- tf.bitwise ---------------------------------------------------------------------------------

_INTS = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")


def _bits(tf, dt):
    rng = np.random.default_rng(3)
    info = np.iinfo(dt)
    x = rng.integers(info.min, info.max, size=6, dtype=dt, endpoint=True)
    y = rng.integers(info.min, info.max, size=6, dtype=dt, endpoint=True)
    bits = 8 * np.dtype(dt).itemsize
    s = np.array([0, 1, bits - 1, bits, bits + 5, -1 if info.min < 0 else 3], dt)
    b = tf.bitwise
    tx, ty, ts = tf.constant(x), tf.constant(y), tf.constant(s)
    return [b.bitwise_and(tx, ty), b.bitwise_or(tx, ty), b.bitwise_xor(tx, ty), b.invert(tx),
            b.left_shift(tx, ts), b.right_shift(tx, ts)]


# ---- tf.sets ------------------------------------------------------------------------------------

def _a(tf):
    return tf.constant([[[1, 2], [3, 3]], [[5, 0], [7, 8]]])


def _b(tf):
    return tf.constant([[[1, 7], [3, 4]], [[5, 6], [9, 9]]])


def _sa(tf):
    return tf.SparseTensor([[0, 0, 0], [0, 1, 0], [0, 1, 1], [1, 0, 1]], [1, 3, 4, 9], [2, 2, 3])


# ---- tf.debugging -------------------------------------------------------------------------------

def _numerics(tf, f):
    tf.debugging.enable_check_numerics()
    try:
        return f()
    finally:
        tf.debugging.disable_check_numerics()


def _numerics_function(tf):
    @tf.function
    def f(x):
        return tf.sqrt(x) * 2.0
    ok = f(tf.constant(4.0))
    return _numerics(tf, lambda: [ok, _outcome(lambda: f(tf.constant(-1.0))), f(tf.constant(9.0))])


# ---- tf.image: non-max suppression, crop_and_resize ----------------------------------------------

def _boxes(n, seed):
    rng = np.random.default_rng(seed)
    yx = rng.uniform(0, 1, (n, 2)).astype(np.float32)
    hw = rng.uniform(0.05, 0.5, (n, 2)).astype(np.float32)
    b = np.concatenate([yx, yx + hw], 1)
    flip = rng.uniform(size=n) < 0.3  # (some boxes given with their corners swapped)
    b[flip] = b[flip][:, [2, 3, 0, 1]]
    scores = rng.permutation(n).astype(np.float32) / n + 0.01  # (distinct scores: TF's heap order on ties)
    return b, scores


def _nms(tf, f, n=40, seed=0, **kw):
    b, s = _boxes(n, seed)
    return f(tf.constant(b), tf.constant(s), **kw)


def _combined(tf, q, **kw):
    rng = np.random.default_rng(5)
    b = np.stack([np.stack([_boxes(12, 10 + k)[0] for _ in range(q)], 1) for k in range(2)])  # [2, 12, q, 4]
    b[0, 3] = [-0.2, -0.1, 0.3, 1.4]  # (clipped with clip_boxes)
    s = rng.permutation(2 * 12 * 3).reshape(2, 12, 3).astype(np.float32) / 72
    return tf.image.combined_non_max_suppression(tf.constant(b), tf.constant(s), **kw)


def _image(tf):
    return tf.reshape(tf.sin(tf.range(2 * 5 * 6 * 3, dtype=tf.float32) * 0.37), [2, 5, 6, 3])


_CROP_BOXES = [[0.1, 0.2, 0.8, 0.9], [0.5, 0.5, 0.5, 0.5], [-0.2, 0.3, 0.6, 1.3], [0.9, 0.8, 0.1, 0.0], [0.0, 0.0, 1.0, 1.0]]


def _crop_grads(tf, **kw):
    img, boxes = tf.Variable(_image(tf)), tf.Variable(_CROP_BOXES)
    w = tf.reshape(tf.cos(tf.range(5 * 4 * 3 * 3, dtype=tf.float32)), [5, 4, 3, 3])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.image.crop_and_resize(img, boxes, [0, 1, 1, 0, 1], [4, 3], **kw) * w)
    return [y] + tape.gradient(y, [img, boxes])


def _ctc(tf, lengths=(6, 4, 0), **kw):
    x = np.random.default_rng(0).normal(size=(6, 3, 4)).astype(np.float32)
    (d,), n = tf.nn.ctc_greedy_decoder(x, list(lengths), **kw)
    return [d, n]


def _sp_ids(tf, rows=4):
    idx = [[0, 0], [0, 1], [0, 2], [2, 0], [2, 1], [3, 0]][:5 if rows < 4 else 6]
    vals = [1, 4, 1, 0, 3, 2][:len(idx)]
    return tf.SparseTensor(idx, tf.constant(vals, tf.int64), [rows, 3])


def _sp_w(tf, rows=4, vals=(0.5, 2.0, 1.5, 1.0, -1.0, 3.0)):
    ids = _sp_ids(tf, rows)
    return tf.SparseTensor(ids.indices, tf.constant(list(vals[:int(ids.values.shape[0])]), tf.float32), [rows, 3])


def _lookup(tf, weights, combiner, rows=4, grads=True, **kw):
    params = tf.Variable(tf.reshape(tf.sin(tf.range(15, dtype=tf.float32)), [5, 3]))
    with tf.GradientTape() as tape:
        y = tf.nn.embedding_lookup_sparse(params, _sp_ids(tf, rows), _sp_w(tf, rows) if weights else None,
                                          combiner=combiner, **kw)
        loss = tf.reduce_sum(y * tf.reshape(tf.cos(tf.range(tf.size(y), dtype=tf.float32)), tf.shape(y)))
    g = tape.gradient(loss, params)
    return [y, tf.convert_to_tensor(g)] if grads else y


def _safe(tf, weights, default_id=None, combiner="mean"):
    params = tf.reshape(tf.sin(tf.range(15, dtype=tf.float32)), [5, 3])
    ids = tf.SparseTensor([[0, 0, 0], [0, 0, 1], [1, 1, 0], [1, 1, 1], [1, 0, 0]],
                          tf.constant([1, -1, 4, 2, -3], tf.int64), [2, 2, 2])
    w = tf.SparseTensor(ids.indices, [1.0, 2.0, 0.0, 0.5, 1.0], ids.dense_shape) if weights else None
    return tf.nn.safe_embedding_lookup_sparse(params, ids, w, combiner=combiner, default_id=default_id)


def _morph(tf, op, strides, padding, rates, seed=0):
    rng = np.random.default_rng(seed)
    x = tf.Variable(rng.normal(size=(2, 7, 8, 3)).astype(np.float32))
    f = tf.Variable(rng.normal(size=(3, 2, 3)).astype(np.float32) * 0.3)
    w = tf.constant(rng.normal(size=(64 * 3 * 2,)).astype(np.float32))
    with tf.GradientTape() as tape:
        y = getattr(tf.nn, op)(x, f, strides, padding, "NHWC", rates)
        loss = tf.reduce_sum(y * tf.reshape(w[:tf.size(y)], tf.shape(y)))
    return [y] + tape.gradient(loss, [x, f])


def _queue(tf):
    q = tf.queue.FIFOQueue(3, [tf.float32, tf.int32], shapes=[[2], []])
    out = [[d.name for d in q.dtypes], [s.as_list() for s in q.shapes], q.names]
    q.enqueue([[1.0, 2.0], 5])
    q.enqueue_many([[[3.0, 4.0], [5.0, 6.0]], [6, 7]])
    out += [q.size(), q.dequeue(), q.dequeue_many(2)]
    q.enqueue(([9.0, 9.0], 1))
    q.close()
    out += [q.is_closed(), _outcome(lambda: q.enqueue(([9.0, 9.0], 1))), q.dequeue_up_to(5), _outcome(q.dequeue)]
    d = tf.queue.FIFOQueue(5, tf.float32, names="x")
    d.enqueue({"x": 1.0})
    s = tf.queue.FIFOQueue(3, tf.float32)
    s.enqueue(2.0)
    s.enqueue_many([[3.0, 4.0]])
    return out + [d.dequeue(), s.dequeue(), _outcome(lambda: s.dequeue_many(2)), s.dequeue(),
                  _outcome(lambda: s.enqueue(tf.constant(1)))]


def _padding_queue(tf):
    p = tf.queue.PaddingFIFOQueue(5, [tf.int32, tf.string], shapes=[[None], [None]])
    p.enqueue([[1, 2, 3], ["a"]])
    p.enqueue([[4], ["b", "c"]])
    pq = tf.queue.PriorityQueue(5, [tf.string], shapes=[[]])
    for k, v in ((3, "c"), (1, "a"), (2, "b")):
        pq.enqueue((tf.constant(k, tf.int64), v))
    return [p.dequeue_many(2), pq.dequeue(), pq.dequeue_many(2)]


def _queue_threads(tf):
    q = tf.queue.FIFOQueue(2, tf.int32)
    got = []

    def consume():
        try:
            while True:
                got.append(int(q.dequeue()))
        except tf.errors.OutOfRangeError:
            pass
    t = threading.Thread(target=consume)
    t.start()
    for i in range(6):
        q.enqueue(i)  # (blocks while the queue holds 2)
    q.close()
    t.join()
    return got


_QX = [-7.0, -6.0, -0.05, 0.0, 0.1, 0.37, 2.5, 3.33, 5.99, 6.2, 100.0]


def _fq_args(tf, lo, hi, bits, narrow):
    x = tf.Variable(_QX)
    with tf.GradientTape() as tape:
        y = tf.quantization.fake_quant_with_min_max_args(x, lo, hi, bits, narrow)
        loss = tf.reduce_sum(y * tf.range(11, dtype=tf.float32))
    return [y, tape.gradient(loss, x)]


def _fq_vars(tf, lo, hi, bits, narrow, per_channel=False):
    x = tf.Variable(tf.reshape(tf.constant(_QX + [1.0]), [4, 3]) if per_channel else _QX)
    lo, hi = tf.Variable(lo), tf.Variable(hi)
    f = (tf.quantization.fake_quant_with_min_max_vars_per_channel if per_channel
         else tf.quantization.fake_quant_with_min_max_vars)
    with tf.GradientTape() as tape:
        y = f(x, lo, hi, bits, narrow)
        loss = tf.reduce_sum(y * tf.reshape(tf.range(tf.size(y), dtype=tf.float32), tf.shape(y)))
    return [y] + tape.gradient(loss, [x, lo, hi])


CASES = {
    "dtypes": _dtypes,
    "test_seeded": _seeded,
    "test_assertions": _assertions,
    "test_raises_op_error": _raises_op_error,
    "test_evaluate": _evaluate,
    **{f"test_message_{w}": (lambda tf, w=w: _assert_message(tf, w))
       for w in ("in_range", "in_set", "near", "not_close", "dict", "length")},
    "ema_basic": _ema_basic,
    "ema_num_updates": lambda tf: _ema_num_updates(tf, False),
    "ema_num_updates_variable": lambda tf: _ema_num_updates(tf, True),
    "ema_function": _ema_function,
    "ema_zero_debias": _ema_zero_debias,
    "ema_tensor": lambda tf: tf.train.ExponentialMovingAverage(0.9).apply([tf.constant(1.0)]),
    "ema_int": lambda tf: tf.train.ExponentialMovingAverage(0.9).apply([tf.Variable(1)]),
    "ckpt_state": _ckpt_state,
    "coordinator": _coordinator,
    "coordinator_outside_except": lambda tf: tf.train.Coordinator().request_stop(RuntimeError("x")),
    **{f"bitwise_{dt}": (lambda tf, dt=dt: _bits(tf, dt)) for dt in _INTS},
    "bitwise_broadcast": lambda tf: tf.bitwise.bitwise_and(tf.constant([[12], [7]]), tf.constant([10, 3, 1])),
    "bitwise_python": lambda tf: tf.bitwise.bitwise_or([1, 2], 4),
    "bitwise_mixed": lambda tf: tf.bitwise.bitwise_and(tf.constant([1]), tf.constant([1], tf.int64)),
    "bitwise_float": lambda tf: tf.bitwise.bitwise_xor(tf.constant([1.0]), tf.constant([1.0])),
    "bitwise_bool": lambda tf: tf.bitwise.bitwise_and(tf.constant([True]), tf.constant([True])),
    "invert_float": lambda tf: tf.bitwise.invert(tf.constant([1.0])),
    "shift_function": lambda tf: tf.function(lambda x, y: tf.bitwise.left_shift(x, y))(
        tf.constant([3, 3], tf.int16), tf.constant([2, 40], tf.int16)),
    "sets_intersection": lambda tf: tf.sets.intersection(_a(tf), _b(tf)),
    "sets_union": lambda tf: tf.sets.union(_a(tf), _b(tf)),
    "sets_difference": lambda tf: tf.sets.difference(_a(tf), _b(tf)),
    "sets_difference_b": lambda tf: tf.sets.difference(_a(tf), _b(tf), aminusb=False),
    "sets_size": lambda tf: tf.sets.size(_sa(tf)),
    "sets_size_dense": lambda tf: tf.sets.size(_a(tf)),
    "sets_sparse_dense": lambda tf: tf.sets.intersection(_sa(tf), _b(tf)),
    "sets_sparse_difference": lambda tf: tf.sets.difference(_sa(tf), _b(tf)),
    "sets_dense_sparse_union": lambda tf: tf.sets.union(_a(tf), _sa(tf)),
    "sets_sparse_sparse": lambda tf: tf.sets.difference(_sa(tf), tf.SparseTensor([[0, 1, 2], [1, 1, 0]], [4, 2], [2, 2, 3])),
    "sets_rank1": lambda tf: tf.sets.intersection(tf.constant([1, 2, 3]), tf.constant([2, 3, 4])),
    "sets_float": lambda tf: tf.sets.intersection(tf.constant([[1.0]]), tf.constant([[1.0]])),
    "sets_strings": lambda tf: tf.sets.intersection(tf.constant([["a", "b", "c"]]), tf.constant([["b", "c", "d"]])),
    "sets_string_union": lambda tf: tf.sets.union(tf.constant([["b", "a"], ["x", "x"]]), tf.constant([["c", "a"], ["y", "x"]])),
    "sets_batch_mismatch": lambda tf: tf.sets.union(tf.constant([[1, 2]]), tf.constant([[1, 2], [3, 4]])),
    "sets_dtype_mismatch": lambda tf: tf.sets.union(tf.constant([[1, 2]], tf.int64), tf.constant([[1, 2]])),
    "sets_empty": lambda tf: tf.sets.intersection(tf.constant([[1, 2]]), tf.constant([[3, 4]])),
    "sets_unsorted": lambda tf: tf.sets.size(tf.SparseTensor([[0, 1], [0, 0]], [1, 2], [1, 2])),
    "sets_unsorted_unvalidated": lambda tf: tf.sets.size(tf.SparseTensor([[0, 1], [0, 0]], [1, 2], [1, 2]),
                                                         validate_indices=False),
    "sets_lists": lambda tf: tf.sets.union([[1, 2]], [[2, 5]]),
    "sets_size_float": lambda tf: tf.sets.size(tf.SparseTensor([[0, 1]], [1.0], [1, 2])),
    "sets_uint8": lambda tf: tf.sets.union(tf.constant([[2, 1, 1]], tf.uint8), tf.constant([[2, 5]], tf.uint8)),
    "sets_int64_4d": lambda tf: tf.sets.union(tf.reshape(tf.range(24, dtype=tf.int64) % 5, [2, 1, 3, 4]),
                                              tf.reshape(tf.range(24, dtype=tf.int64) % 7, [2, 1, 3, 4])),
    "nms": lambda tf: _nms(tf, lambda b, s: tf.image.non_max_suppression(b, s, 20, 0.3)),
    "nms_score_threshold": lambda tf: _nms(tf, lambda b, s: tf.image.non_max_suppression(b, s, 10, 0.5, 0.5)),
    "nms_zero_threshold": lambda tf: _nms(tf, lambda b, s: tf.image.non_max_suppression(b, s, 40, 0.0), seed=1),
    "nms_with_scores": lambda tf: _nms(tf, lambda b, s: tf.image.non_max_suppression_with_scores(b, s, 15, 0.4)),
    "nms_soft": lambda tf: _nms(tf, lambda b, s: tf.image.non_max_suppression_with_scores(
        b, s, 25, 0.4, 0.05, soft_nms_sigma=0.3), seed=2),
    "nms_overlaps": lambda tf: tf.image.non_max_suppression_overlaps(
        tf.constant(np.abs(np.sin(np.arange(64.0)).reshape(8, 8)).astype(np.float32)),
        tf.constant(np.arange(8, dtype=np.float32)[::-1] / 8 + 0.01), 5, 0.6),
    "nms_padded": lambda tf: _nms(tf, lambda b, s: tf.image.non_max_suppression_padded(b, s, 30, 0.3,
                                                                                       pad_to_max_output_size=True)),
    "nms_padded_unpadded": lambda tf: _nms(tf, lambda b, s: tf.image.non_max_suppression_padded(b, s, 30, 0.3)),
    "nms_bad_threshold": lambda tf: _nms(tf, lambda b, s: tf.image.non_max_suppression(b, s, 5, 1.5)),
    "nms_bad_boxes": lambda tf: tf.image.non_max_suppression(tf.zeros([4, 3]), tf.zeros([4]), 2),
    "combined": lambda tf: _combined(tf, 1, max_output_size_per_class=4, max_total_size=7, iou_threshold=0.3),
    "combined_per_class_boxes": lambda tf: _combined(tf, 3, max_output_size_per_class=3, max_total_size=20,
                                                     score_threshold=0.2, clip_boxes=False),
    "combined_pad_per_class": lambda tf: _combined(tf, 1, max_output_size_per_class=2, max_total_size=20,
                                                   pad_per_class=True),
    "crop_and_resize": lambda tf: tf.image.crop_and_resize(_image(tf), _CROP_BOXES, [0, 1, 1, 0, 1], [4, 3]),
    "crop_and_resize_nearest": lambda tf: tf.image.crop_and_resize(_image(tf), _CROP_BOXES, [0, 1, 1, 0, 1], [3, 4],
                                                                   method="nearest", extrapolation_value=-1.0),
    "crop_and_resize_one": lambda tf: tf.image.crop_and_resize(_image(tf), _CROP_BOXES, [1, 1, 0, 0, 1], [1, 1]),
    "crop_and_resize_ints": lambda tf: tf.image.crop_and_resize(tf.reshape(tf.range(32), [2, 4, 4, 1]),
                                                                [[0.0, 0.0, 1.0, 1.0]], [1], [3, 3]),
    "crop_and_resize_grads": _crop_grads,
    "crop_and_resize_bad_index": lambda tf: tf.image.crop_and_resize(_image(tf), [[0.0, 0.0, 1.0, 1.0]], [2], [2, 2]),
    "ctc_greedy": _ctc,
    "ctc_greedy_unmerged": lambda tf: _ctc(tf, merge_repeated=False),
    "ctc_greedy_blank0": lambda tf: _ctc(tf, blank_index=0),
    "ctc_greedy_blank_neg": lambda tf: _ctc(tf, blank_index=-2),
    "ctc_greedy_blank1_unmerged": lambda tf: _ctc(tf, blank_index=1, merge_repeated=False),
    "ctc_greedy_too_long": lambda tf: _ctc(tf, lengths=(7, 1, 1)),
    "draw_boxes": lambda tf: tf.image.draw_bounding_boxes(
        tf.zeros([2, 7, 9, 3]), [[[0.1, 0.2, 0.8, 0.7], [-0.2, 0.5, 0.5, 1.3], [0.6, 0.6, 0.2, 0.9]],
                                 [[0.0, 0.0, 1.0, 1.0], [1.2, 0.1, 1.5, 0.4], [0.3, 0.3, 0.3, 0.3]]],
        [[1.0, 0.5, 0.25, 1.0], [0.0, 1.0, 0.0, 1.0]]),
    "draw_boxes_default_colors": lambda tf: tf.image.draw_bounding_boxes(
        tf.ones([1, 5, 5, 1]) * 0.5, [[[0.0, 0.0, 0.5, 0.5], [0.5, 0.5, 1.0, 1.0]]], None),
    "draw_boxes_grey_colors": lambda tf: tf.image.draw_bounding_boxes(
        tf.zeros([1, 4, 4, 1]), [[[0.0, 0.0, 1.0, 1.0]]], [[0.3, 0.2, 0.3, 0.4]]),
    "draw_boxes_rgba": lambda tf: tf.image.draw_bounding_boxes(
        tf.zeros([1, 4, 4, 4]), [[[0.0, 0.0, 1.0, 1.0]]], [[0.1, 0.2, 0.3, 0.4]]),
    **{f"lookup_sparse_{c}": (lambda tf, c=c: _lookup(tf, False, c)) for c in ("sum", "mean", "sqrtn")},
    **{f"lookup_sparse_weighted_{c}": (lambda tf, c=c: _lookup(tf, True, c)) for c in ("sum", "mean", "sqrtn")},
    "lookup_sparse_trailing_empty": lambda tf: _lookup(tf, False, "mean", rows=5, grads=False),
    "lookup_sparse_max_norm": lambda tf: _lookup(tf, False, "sum", max_norm=0.5),
    "lookup_sparse_shards": lambda tf: tf.nn.embedding_lookup_sparse(
        [tf.reshape(tf.range(9, dtype=tf.float32), [3, 3]), tf.reshape(tf.range(6, dtype=tf.float32), [2, 3]) * -1.0],
        _sp_ids(tf), None, combiner="sum"),
    "lookup_sparse_bad_combiner": lambda tf: tf.nn.embedding_lookup_sparse(tf.zeros([5, 2]), _sp_ids(tf), None, "max"),
    "safe_lookup": lambda tf: _safe(tf, False),
    "safe_lookup_weighted": lambda tf: _safe(tf, True, combiner="sum"),
    "safe_lookup_default": lambda tf: _safe(tf, False, default_id=3),
    "fingerprint_strings": lambda tf: tf.fingerprint(tf.constant(["abc", "", "hello world"])),
    "fingerprint_ints": lambda tf: tf.fingerprint(tf.constant([[1, 2], [3, 4]])),
    "fingerprint_float64": lambda tf: tf.fingerprint(tf.constant([[1.5], [2.0]], tf.float64)),
    "fingerprint_string_rows": lambda tf: tf.fingerprint(tf.constant([["a", "bc"], ["d", "e"]])),
    "fingerprint_scalar": lambda tf: tf.fingerprint(tf.constant(1)),
    "dilation2d_same": lambda tf: _morph(tf, "dilation2d", [1, 1, 1, 1], "SAME", [1, 1, 1, 1]),
    "dilation2d_valid_strided": lambda tf: _morph(tf, "dilation2d", [1, 2, 3, 1], "VALID", [1, 1, 1, 1], 1),
    "dilation2d_same_dilated": lambda tf: _morph(tf, "dilation2d", [1, 2, 1, 1], "SAME", [1, 2, 2, 1], 2),
    "erosion2d_same": lambda tf: _morph(tf, "erosion2d", [1, 1, 2, 1], "SAME", [1, 1, 1, 1], 3),
    "erosion2d_valid_dilated": lambda tf: _morph(tf, "erosion2d", [1, 1, 1, 1], "VALID", [1, 2, 1, 1], 4),
    "queue_fifo": _queue,
    "queue_padding_priority": _padding_queue,
    "queue_threads": _queue_threads,
    "aggregation_method": lambda tf: [tf.AggregationMethod.ADD_N, tf.AggregationMethod.DEFAULT,
                                      tf.AggregationMethod.EXPERIMENTAL_TREE, tf.AggregationMethod.EXPERIMENTAL_ACCUMULATE_N],
    "fake_quant_args": lambda tf: _fq_args(tf, -6.0, 6.0, 8, False),
    "fake_quant_args_4bit_narrow": lambda tf: _fq_args(tf, -1.0, 3.0, 4, True),
    "fake_quant_args_offset": lambda tf: _fq_args(tf, 0.3, 5.0, 3, False),
    "fake_quant_vars": lambda tf: _fq_vars(tf, -1.5, 4.2, 8, False),
    "fake_quant_vars_narrow": lambda tf: _fq_vars(tf, 0.2, 3.0, 5, True),
    "fake_quant_per_channel": lambda tf: _fq_vars(tf, [-1.0, 0.0, -5.0], [1.0, 4.0, 2.0], 6, False, True),
    "fake_quant_args_gradient": lambda tf: tf.quantization.fake_quant_with_min_max_args_gradient(
        tf.ones([11]), tf.constant(_QX), -1.0, 3.0, 4),
    "fake_quant_vars_gradient": lambda tf: tf.quantization.fake_quant_with_min_max_vars_gradient(
        tf.range(11, dtype=tf.float32), tf.constant(_QX), tf.constant(-1.0), tf.constant(3.0)),
    "fake_quant_bad_bits": lambda tf: tf.quantization.fake_quant_with_min_max_vars(
        tf.constant(_QX), tf.constant(-1.0), tf.constant(3.0), num_bits=1),
    "assert_integer": lambda tf: tf.debugging.assert_integer(tf.constant([1])),
    "assert_integer_float": lambda tf: tf.debugging.assert_integer(tf.constant([1.0]), message="msg"),
    "assert_scalar": lambda tf: tf.debugging.assert_scalar(tf.constant(1.0)),
    "assert_scalar_vector": lambda tf: tf.debugging.assert_scalar(tf.constant([1.0]), message="msg"),
    "assert_rank_in": lambda tf: tf.debugging.assert_rank_in(tf.constant([1.0]), [1, 2]),
    "assert_rank_in_bad": lambda tf: tf.debugging.assert_rank_in(tf.constant([1.0]), (0, 2), message="msg"),
    "same_float": lambda tf: tf.debugging.assert_same_float_dtype([tf.constant(1.0), tf.constant(2.0)]).name,
    "same_float_mixed": lambda tf: tf.debugging.assert_same_float_dtype([tf.constant(1.0), tf.constant(2.0, tf.float64)]),
    "same_float_int": lambda tf: tf.debugging.assert_same_float_dtype([tf.constant(1)]),
    "same_float_dtype_only": lambda tf: tf.debugging.assert_same_float_dtype(None, tf.float64).name,
    "same_float_nothing": lambda tf: tf.debugging.assert_same_float_dtype().name,
    "same_float_against": lambda tf: tf.debugging.assert_same_float_dtype([tf.constant(1.0)], tf.float64),
    "proper_iterable": lambda tf: [_outcome(lambda v=v: tf.debugging.assert_proper_iterable(v))
                                   for v in ([1, 2], (1,), {1}, "ab", b"ab", tf.constant([1]), np.array([1]), 3)],
    "traceback_filtering": lambda tf: [tf.debugging.enable_traceback_filtering(),
                                       tf.debugging.is_traceback_filtering_enabled(),
                                       tf.debugging.disable_traceback_filtering(),
                                       tf.debugging.is_traceback_filtering_enabled(),
                                       tf.debugging.enable_traceback_filtering(),
                                       tf.debugging.is_traceback_filtering_enabled()],
    "testcase_disables_filtering": lambda tf: [tf.debugging.enable_traceback_filtering(), _case(tf) and None,
                                               tf.debugging.is_traceback_filtering_enabled(),
                                               tf.debugging.enable_traceback_filtering()],
    "numerics_log": lambda tf: _numerics(tf, lambda: tf.math.log(tf.constant([-1.0, 1.0]))),
    "numerics_div": lambda tf: _numerics(tf, lambda: tf.constant([1.0, -1.0]) / tf.constant([0.0, 0.0])),
    "numerics_all": lambda tf: _numerics(tf, lambda: tf.constant([1.0, -1.0, 0.0]) / tf.constant([0.0, 0.0, 0.0])),
    "numerics_neg_inf": lambda tf: _numerics(tf, lambda: tf.math.log(tf.constant([0.0], tf.float64))),
    "numerics_fine": lambda tf: _numerics(tf, lambda: [tf.exp(tf.constant([1.0])), tf.constant([np.nan]),
                                                       tf.constant([1]) // tf.constant([1])]),
    "numerics_function": _numerics_function,
    "numerics_off": lambda tf: [_numerics(tf, lambda: 0), tf.math.log(tf.constant([-1.0]))],
}

# the words of TensorFlow's message that tapegrad's must hold too
MESSAGES = {
    "ema_tensor": "does not support non-Variable tensors",
    "ema_int": "The variables must be half, float, or double",
    "bitwise_mixed": "int32",
    "bitwise_float": "is not in the list of allowed values: int8, int16, int32, int64, uint8, uint16, uint32, uint64",
    "bitwise_bool": "Value for attr 'T' of bool is not in the list of allowed values",
    "invert_float": "is not in the list of allowed values",
    "sets_size_dense": "Expected `SparseTensor`, got",
    "sets_rank1": "Shape [3] has rank 1 < 2",
    "sets_float": "'a' has invalid dtype `<dtype: 'float32'>` not in supported dtypes",
    "sets_batch_mismatch": "Mismatched shapes [1] vs [2]",
    "sets_dtype_mismatch": "Types don't match, <dtype: 'int64'> vs <dtype: 'int32'>.",
    "sets_unsorted": "indices[1] = [0,0] is out of order. Many sparse ops require sorted indices.",
    "sets_size_float": "Invalid dtype `<dtype: 'float32'>` not in supported dtypes",
    "assert_integer_float": "msg.  Expected \"x\" to be integer type.  Found: tensor of dtype <dtype: 'float32'>",
    "assert_scalar_vector": "msg.  Expected scalar shape, saw shape: (1,).",
    "assert_rank_in_bad": "msg.  Tensor  must have rank in (0, 2).  Received rank 1, shape (1,)",
    "same_float_mixed": ", type=<dtype: 'float64'>, must be of the same type (<dtype: 'float32'>) as ",
    "same_float_int": "Expected floating point type, got <dtype: 'int32'>.",
    "same_float_against": ", type=<dtype: 'float32'>, must be of the same type (<dtype: 'float64'>).",
    "testcase_disables_filtering": lambda tf: [tf.debugging.enable_traceback_filtering(), _case(tf) and None,
                                               tf.debugging.is_traceback_filtering_enabled(),
                                               tf.debugging.enable_traceback_filtering()],
    "numerics_log": "!!! Detected Infinity or NaN in output 0 of eagerly-executing op \"Log\" (# of outputs: 1) !!!\n"
                    "  dtype: <dtype: 'float32'>\n  shape: (2,)\n  # of +NaN elements: 1\n",
    "numerics_div": "# of -Inf elements: 1\n  # of +Inf elements: 1\n",
    "numerics_all": "Tensor had -Inf, +Inf, and NaN values",
    "numerics_neg_inf": ": Tensor had -Inf values",
    "nms_bad_threshold": "iou_threshold must be in [0, 1]",
    "ctc_greedy_too_long": "sequence_length(0) <= 6",
    "fingerprint_scalar": "`data` should have at least one dimension",
    "lookup_sparse_bad_combiner": "combiner must be one of 'mean', 'sqrtn' or 'sum'",
    "nms_bad_boxes": "boxes must have 4 columns",
    "crop_and_resize_bad_index": "box_index has values outside [0, batch_size)",
}
