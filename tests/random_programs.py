"""Seeded random programs run by TensorFlow (tools/record_tf_random.py records their results in
tests/fixtures/tf_random.npz) and by tapegrad (tests/test_philox.py compares). Each takes the
``tf`` module and returns a list of arrays."""
import numpy as np

SEEDS = [(1, 2), (0, 0), (-5, 123456789), (2**31 - 1, -(2**31))]
SHAPES = [[1], [7], [3, 5], [2, 0], [4, 1, 3]]


def _np(xs):
    return [np.asarray(x.numpy() if hasattr(x, "numpy") else x) for x in xs]


def stateless_floats(tf):
    out = []
    for i, seed in enumerate(SEEDS):
        sd = tf.constant(seed, tf.int64 if i % 2 else tf.int32)
        for shape in SHAPES:
            for dt in (tf.float16, tf.float32, tf.float64):
                out += [tf.random.stateless_normal(shape, sd, dtype=dt),
                        tf.random.stateless_uniform(shape, sd, dtype=dt),
                        tf.random.stateless_truncated_normal(shape, sd, dtype=dt)]
    out += [tf.random.stateless_normal([3, 2], [4, 5], mean=2.0, stddev=3.0, alg="philox"),
            tf.random.stateless_uniform([5], [4, 5], minval=-2.0, maxval=6.0, alg=1),
            tf.random.stateless_truncated_normal([5], [4, 5], mean=1.0, stddev=0.5)]
    return _np(out)


def stateless_ints(tf):
    out = []
    for seed in SEEDS:
        for shape in SHAPES:
            for dt in (tf.int32, tf.int64, tf.uint32, tf.uint64):
                out.append(tf.random.stateless_uniform(shape, seed, minval=None, maxval=None, dtype=dt))
            for dt in (tf.int32, tf.int64):
                out.append(tf.random.stateless_uniform(shape, seed, minval=-7, maxval=1000, dtype=dt))
        out.append(tf.random.stateless_uniform([9], seed, minval=-2**62, maxval=2**62, dtype=tf.int64))
        out.append(tf.random.stateless_uniform([9], seed, minval=-2**31, maxval=2**31 - 1, dtype=tf.int32))
    return _np(out)


def stateless_large(tf):
    return _np([tf.random.stateless_normal([10001], [3, 4]),
                tf.random.stateless_normal([5001], [3, 4], dtype=tf.float64),
                tf.random.stateless_truncated_normal([10001], [3, 4]),
                tf.random.stateless_uniform([10001], [3, 4])])


def stateless_misc(tf):
    return _np([tf.random.split([1, 2], 3), tf.random.split(tf.constant([5, 6], tf.int64)),
                tf.random.fold_in([1, 2], 3), tf.random.experimental.stateless_fold_in([7, 8], 2**40),
                tf.random.stateless_categorical([[0., 1., 2.], [3., -np.inf, 1.]], 7, seed=[4, 5]),
                tf.random.stateless_categorical(tf.constant([[0., 1., 2.]], tf.float64), 3, seed=[4, 5],
                                                dtype=tf.int32)])


def stateful(tf):
    out = []
    tf.random.set_seed(3)
    out.append(tf.random.normal([3]))
    out += [tf.random.normal([5], seed=7), tf.random.normal([5], seed=7)]
    out.append(tf.random.normal([2], seed=7, dtype=tf.float64))
    out.append(tf.random.uniform([7]))
    out += [tf.random.uniform([6], seed=1, minval=2, maxval=5), tf.random.uniform([3], seed=1, minval=2, maxval=5)]
    out += [tf.random.uniform([9], 0, 100, dtype=tf.int64, seed=4), tf.random.uniform([9], -5, 100, dtype=tf.int32)]
    out += [tf.random.truncated_normal([11]), tf.random.truncated_normal([3], seed=2),
            tf.random.truncated_normal([3], seed=2)]
    out += [tf.random.shuffle(tf.range(10)), tf.random.shuffle(tf.reshape(tf.range(12), [6, 2]), seed=5),
            tf.random.shuffle(tf.range(1)), tf.random.shuffle(tf.range(33), seed=5)]
    out += [tf.random.categorical([[0.0, 1.0, 2.0], [1., -np.inf, 1.]], 5),
            tf.random.categorical([[0.0, 1.0, 2.0]], 3, seed=9), tf.random.categorical([[0.0, 1.0, 2.0]], 3, seed=9)]
    out.append(tf.random.normal([1001], dtype=tf.float16))
    tf.random.set_seed(None)
    out += [tf.random.normal([4], seed=5), tf.random.normal([4], seed=5)]
    tf.random.set_seed(None)
    out.append(tf.random.normal([4], seed=5))
    tf.random.set_seed(0)
    out += [tf.random.uniform([4], seed=0), tf.random.uniform([4], seed=0)]
    tf.random.set_seed(2**40 + 17)
    out += [tf.random.normal([6]), tf.random.uniform([2], seed=2**35)]
    tf.random.set_seed(3)  # set_seed restarts every stream and the op-seed counter
    out += [tf.random.normal([3]), tf.random.normal([5], seed=7)]
    return _np(out)


def generator(tf):
    out = []
    g = tf.random.Generator.from_seed(1)
    out += [g.normal([3]), g.normal([5], dtype=tf.float64), g.uniform([7]), g.uniform([3], 2, 5, dtype=tf.int32),
            g.uniform([4], 2, 50, dtype=tf.int64), g.uniform_full_int([3]), g.uniform_full_int([3], tf.int32),
            g.uniform([3], minval=None, maxval=None, dtype=tf.int64), g.truncated_normal([6]), g.state]
    g.skip(10)
    out += [g.state, g.make_seeds(3)]
    gs = g.split(2)
    out += [x.normal([3]) for x in gs] + [x.state for x in gs] + [g.state]
    g2 = tf.random.Generator.from_seed(2**70 + 12345, alg="philox")
    out += [g2.normal([4], mean=1.0, stddev=2.0), g2.state]
    g3 = tf.random.Generator.from_state([5, -1, 77], tf.random.Algorithm.PHILOX)
    out += [g3.uniform([5]), g3.state]  # the counter's low word wraps into the high word
    g3.reset_from_seed(7)
    out += [g3.normal([2]), g3.state]
    g4 = tf.random.Generator(copy_from=g3)
    out += [g4.normal([2]), g3.normal([2])]
    g5 = tf.random.Generator.from_key_counter(key=9, counter=[1, 2], alg="philox")
    out += [g5.normal([2, 3], dtype=tf.float16), g5.state]
    return _np(out)


def variable_samples(tf):
    """gamma, poisson and binomial (each output its own 256-block window of the stream)."""
    out = []
    for seed in SEEDS[:3]:
        for dt in (tf.float16, tf.float32, tf.float64):
            out += [tf.random.stateless_gamma([40, 4], seed, alpha=tf.constant([0.2, 1.0, 2.5, 30.0], dt), dtype=dt),
                    tf.random.stateless_gamma([3, 2, 2], seed, alpha=tf.constant([[0.7], [4.0]], dt),
                                              beta=tf.constant([1.0, 3.0], dt), dtype=dt),
                    tf.random.stateless_poisson([30, 5], seed, lam=tf.constant([0.1, 2.5, 9.9, 10.0, 300.0], dt)),
                    tf.random.stateless_binomial([25, 5], seed, counts=tf.constant([3.0, 20.0, 50.0, 200.0, 0.0], dt),
                                                 probs=tf.constant([0.2, 0.5, 0.93, 0.4, 0.5], dt), output_dtype=dt)]
        out += [tf.random.stateless_poisson([6], seed, lam=4.0, dtype=tf.int64),
                tf.random.stateless_poisson([2, 3], seed, lam=[20, 1, 3], dtype=tf.float32),
                tf.random.stateless_binomial([4, 2, 2], seed, counts=[[10.0], [1000.0]], probs=[0.3, 0.999])]
    tf.random.set_seed(11)
    out += [tf.random.gamma([30], [0.5, 1.0, 3.0]), tf.random.gamma([4], 2.0, beta=[1.0, 10.0], seed=3),
            tf.random.gamma([4], 2.0, beta=[1.0, 10.0], seed=3), tf.random.gamma([5], 0.3, dtype=tf.float64),
            tf.random.poisson([20], [0.5, 12.0]), tf.random.poisson([3, 2], 40.0, dtype=tf.int32, seed=4),
            tf.random.poisson([3, 2], 40.0, dtype=tf.int32, seed=4),
            tf.random.shuffle(tf.range(12)), tf.random.uniform([2]), tf.random.shuffle(tf.range(7), seed=2)]
    tf.random.set_seed(None)
    out += [tf.random.gamma([3], 1.5, seed=9), tf.random.poisson([3], 2.0, seed=9)]
    g = tf.random.Generator.from_seed(4)
    out += [g.binomial([5, 1], counts=[30.0], probs=[0.25]), g.binomial([3], counts=[10.0, 10.0, 10.0], probs=0.5),
            g.binomial([2, 2], counts=100.0, probs=[0.01, 0.6], dtype=tf.float32), g.state]
    return _np(out)


def shuffles(tf):
    """index_shuffle (Simon cipher), stateless_shuffle, and shuffle under set_seed sequences."""
    ex = tf.random.experimental
    out = [ex.index_shuffle(tf.range(10), [5, 8], tf.constant([9] * 10)),
           ex.index_shuffle(tf.constant([0, 100000, 5], tf.int64), [3, 4], tf.constant([10, 10**6, 2**40], tf.int64)),
           ex.index_shuffle(tf.constant([7, 2**62], tf.int64), tf.constant([-3, 2**40], tf.int64),
                            tf.constant([2**20, 2**63 - 1], tf.int64)),
           ex.index_shuffle(np.int32(0), [1, 1], np.int32(0)), ex.index_shuffle(np.uint32(12), [0, 7], np.uint32(40000)),
           ex.stateless_shuffle(tf.range(10), [1, 2]), ex.stateless_shuffle(tf.reshape(tf.range(12.0), [6, 2]), [7, 3]),
           ex.stateless_shuffle(tf.range(300, dtype=tf.int64), [-1, 9], alg="philox")]
    for s in (0, 5, 12345):
        tf.random.set_seed(s)
        out += [tf.random.shuffle(tf.range(9)), tf.random.shuffle(tf.range(9)), tf.random.normal([2]),
                tf.random.shuffle(tf.range(20), seed=4), tf.random.shuffle(tf.range(20), seed=4)]
    tf.random.set_seed(None)
    return _np(out)


def gamma_gradient(tf):
    """d sample / d alpha (RandomGammaGrad), and the gradient through beta."""
    alpha, beta = tf.Variable([0.3, 1.0, 4.0, 25.0]), tf.Variable(2.0)
    with tf.GradientTape() as tape:
        x = tf.random.stateless_gamma([50, 4], [4, 2], alpha, beta=beta)
        y = tf.reduce_sum(x * np.linspace(0.5, 1.5, 200).reshape(50, 4).astype(np.float32))
    return _np([x] + tape.gradient(y, [alpha, beta]))


def candidate_samplers(tf):
    """The candidate samplers' draws and expected counts (TF's kernels on SimplePhilox), their
    op seeds from the global seed's counter, the kernels that seeded calls share."""
    out = []
    tc = tf.constant([[1, 7], [0, 3], [12, 2]], tf.int64)
    tf.random.set_seed(0)
    for unique in (True, False):
        out += list(tf.random.log_uniform_candidate_sampler(tc, 2, 9, unique, 40))
        out += list(tf.random.uniform_candidate_sampler(tc, 2, 9, unique, 13))
        out += list(tf.random.log_uniform_candidate_sampler(tc, 2, 5, unique, 10**6, seed=3))
        out += list(tf.random.log_uniform_candidate_sampler(tc, 2, 5, unique, 10**6, seed=3))
        out += list(tf.random.uniform_candidate_sampler(tc[:, :1], 1, 6, unique, 2**40 + 3, seed=8))
        out += list(tf.random.uniform_candidate_sampler(tc[:, :1], 1, 7, unique, 16, seed=8))
    out += list(tf.random.log_uniform_candidate_sampler(tc, 2, 13, True, 14))  # many rejections
    out += list(tf.random.uniform_candidate_sampler(tc, 2, 13, True, 13))
    uni = [5.0, 0.0, 1.0, 3.5, 20.0, 2.0, 7.0, 1.0, 0.5, 9.0, 4.0, 1.5, 6.0, 2.5]
    out += list(tf.random.fixed_unigram_candidate_sampler(tc, 2, 8, False, 14, unigrams=uni))
    out += list(tf.random.fixed_unigram_candidate_sampler(tc, 2, 8, True, 14, unigrams=uni, distortion=0.75,
                                                          seed=2))
    out += list(tf.random.fixed_unigram_candidate_sampler(tc[:, :1] % 5, 1, 4, True, 8, unigrams=uni,
                                                          num_reserved_ids=3, num_shards=2, shard=1, seed=2))
    for _ in range(3):  # one kernel learns from each call's true classes
        out += list(tf.random.learned_unigram_candidate_sampler(tc, 2, 6, True, 15, seed=4))
    out += list(tf.random.learned_unigram_candidate_sampler(tc, 2, 6, False, 15, seed=5))
    out += list(tf.random.all_candidate_sampler(tc % 5, 2, 5, True))
    out += list(tf.nn.compute_accidental_hits(tc, out[0], 2))
    out.append(tf.random.normal([3]))  # (the op-seed counter after all of them)
    tf.random.set_seed(None)
    return _np(out)


def samplers_in_function(tf):
    """Samplers in a tf.function: graph op seeds, kernels that go on from call to call."""
    tf.random.set_seed(6)
    tc = tf.constant([[1], [4]], tf.int64)

    @tf.function
    def f(x):
        a = tf.random.log_uniform_candidate_sampler(x, 1, 6, True, 30)
        b = tf.random.uniform([2])
        c = tf.random.learned_unigram_candidate_sampler(x, 1, 3, False, 8)
        return list(a) + [b] + list(c) + [tf.random.uniform([2], seed=1)]
    out = f(tc) + f(tc) + f(tc[:1])
    tf.random.set_seed(None)
    return _np(out)


def loop_draws(tf):
    """Random ops in ``for t in tf.range(n)`` in a tf.function: one op (one op seed, one kernel)
    per op of the loop body, whatever the iteration, going on from call to call; ops after the
    loop take the next op seeds of the function's graph. (Each draw depends on the previous
    one: TF runs independent iterations out of order.)"""
    tf.random.set_seed(4)

    @tf.function
    def f(n):
        a = tf.random.uniform([2])
        ta = tf.TensorArray(tf.int64, size=0, dynamic_size=True)
        logits = tf.zeros([1, 50])
        for t in tf.range(n):
            k = tf.random.categorical(logits, 1)
            logits = logits + tf.cast(k, tf.float32) * 1e-3
            j = tf.random.categorical(logits * 0 + tf.cast(k, tf.float32) * 0, 2)
            logits = logits + tf.cast(j[:, :1], tf.float32) * 1e-3
            ta = ta.write(t, k[0, 0] * 100 + j[0, 1])
        b = tf.random.uniform([2])
        return a, ta.stack(), b

    @tf.function
    def g(n, m):
        ta = tf.TensorArray(tf.int64, size=0, dynamic_size=True)
        logits = tf.zeros([1, 20])
        for t in tf.range(n):
            for s in tf.range(m):
                k = tf.random.categorical(logits, 1, seed=3)
                logits = logits + tf.cast(k, tf.float32) * 0
                ta = ta.write(t * m + s, k[0, 0])
            if t == 1:
                break
        return ta.stack(), tf.random.normal([2])
    @tf.function
    def h(x):  # tf.while_loop and map_fn bodies (map_fn one iteration at a time: in order)
        def body(i, logits, ta):
            k = tf.random.categorical(logits, 1)
            return i + 1, logits + tf.cast(k, tf.float32) * 0, ta.write(i, k[0, 0])
        _, _, ta = tf.while_loop(lambda i, lg, ta: i < 3, body,
                                 (tf.constant(0), tf.zeros([1, 9]), tf.TensorArray(tf.int64, size=3)))
        m = tf.map_fn(lambda r: tf.random.categorical(r[None], 1)[0, 0], x, parallel_iterations=1,
                      fn_output_signature=tf.int64)
        return ta.stack(), m, tf.random.uniform([2])
    out = []
    for n in (3, 2, 4):
        out += list(f(tf.constant(n)))
    for n, m in ((2, 3), (4, 2)):
        out += list(g(tf.constant(n), tf.constant(m)))
    for _ in range(2):
        out += list(h(tf.zeros([4, 7])))
    tf.random.set_seed(None)
    return _np(out)


def keras_step_draws(tf):
    """Random ops in Keras's train_step (a tf.function: graph op seeds, kernels going on from
    step to step and from fit to fit, whatever the batch shape): the last step's draws of each
    epoch, as ``fit`` logs them."""
    class M(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.d = tf.keras.layers.Dense(1)

        def call(self, x):
            return self.d(x)

        def train_step(self, data):
            return {"a": tf.random.uniform([]), "b": tf.random.normal([]), "c": tf.random.uniform([], seed=3)}
    m = M()
    m.compile()
    tf.random.set_seed(5)
    h1 = m.fit(np.zeros((10, 1), np.float32), batch_size=4, epochs=2, verbose=0).history
    h2 = m.fit(np.zeros((3, 1), np.float32), batch_size=2, epochs=2, verbose=0).history
    tf.random.set_seed(None)
    return _np([h[k] for h in (h1, h2) for k in "abc"])


def branch_draws(tf):
    """Random ops in tf.cond, tf.switch_case and tf.case branches in a tf.function: each branch
    a graph with op seeds 0, 1, ... of its own and one kernel per op; the function's counter goes
    on after the conditional as if it had no ops."""
    tf.random.set_seed(5)

    @tf.function
    def f(x):
        a = tf.random.uniform([2])
        r = tf.cond(x > 0, lambda: tf.random.uniform([2]) + tf.random.uniform([2]) * 0,
                    lambda: -tf.random.uniform([2]))
        q = tf.switch_case(tf.cast(x > 1, tf.int32) + tf.cast(x > 5, tf.int32) * 5,
                           [lambda: tf.random.uniform([2]) * 0 + tf.random.uniform([2]),
                            lambda: tf.random.normal([2], seed=4)])
        return a, r, q, tf.random.uniform([2])

    @tf.function
    def g(x):  # tf.case: nested tf.conds
        c = tf.case([(x < 0, lambda: tf.random.uniform([2])),
                     (x < 5, lambda: tf.random.uniform([2]) * 0 + tf.random.uniform([2], seed=2))],
                    default=lambda: -tf.random.uniform([2]))
        d = tf.case([(x > 8, lambda: tf.random.uniform([3])), (x > -8, lambda: tf.random.uniform([3]) + 1)])
        return c, d, tf.random.uniform([2])
    out = []
    for v in (1.0, -1.0, 2.0, -1.0, 9.0):
        out += list(f(tf.constant(v))) + list(g(tf.constant(v)))
    tf.random.set_seed(None)
    return _np(out)


PROGRAMS = {f.__name__: f for f in (stateless_floats, stateless_ints, stateless_large, stateless_misc,
                                    stateful, generator, variable_samples, shuffles, gamma_gradient,
                                    candidate_samplers, samplers_in_function, loop_draws, keras_step_draws,
                                    branch_draws)}
# programs whose last arrays are derivatives TF computes with a series tapegrad does not share:
# compared to a relative 1e-5 (the rest of every program: as the module docstring says)
APPROXIMATE = {"gamma_gradient": 2}
