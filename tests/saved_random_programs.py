"""Programs that save and load functions drawing random numbers, run by TensorFlow
(``tools/record_tf_saved_random.py``, fixture ``tests/fixtures/tf_saved_random.npz``) and by
tapegrad (``tests/test_saved_random.py``). Each takes the module ``tf`` and a fresh directory and
returns a list of arrays; those of ``FAILING`` raise (the fixture holds the exception's type name)."""
import os

import numpy as np


def _draws(tf, path, module, name, args, calls=2, loads=2):
    """The original function's draws (``calls`` calls), then those of ``loads`` loads of it
    (``calls`` calls each)."""
    out = [_flat(getattr(module, name)(*args)) for _ in range(calls)]
    tf.saved_model.save(module, path)
    for _ in range(loads):
        loaded = tf.saved_model.load(path)
        out += [_flat(getattr(loaded, name)(*args)) for _ in range(calls)]
    return [a for arrays in out for a in arrays]


def _flat(result):
    return [np.asarray(t) for t in (result if isinstance(result, (tuple, list)) else [result])]


def stateful_ops(tf, d):
    """Unseeded and seeded stateful ops under a global seed: their op seeds are the trace's."""
    tf.random.set_seed(7)

    class M(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([2, 3], tf.float32)])
        def f(self, logits):
            return (tf.random.uniform([4]), tf.random.normal([2, 2], seed=3),
                    tf.random.categorical(logits, 5), tf.random.shuffle(tf.range(6)),
                    tf.random.uniform([3], 0, 100, dtype=tf.int32, seed=11),
                    tf.random.truncated_normal([3]), tf.random.gamma([2], [1.0, 3.0], seed=5),
                    tf.random.poisson([3], 4.0))
    return _draws(tf, os.path.join(d, "m"), M(), "f", [tf.constant([[0.0, 1.0, 2.0], [1.0, 0.0, -1.0]])])


def unseeded_trace_order(tf, d):
    """A function traced after eager draws: its graph's op seeds count from 0 within the graph."""
    tf.random.set_seed(3)
    tf.random.uniform([2])

    class M(tf.Module):
        @tf.function
        def f(self, x):
            return x + tf.random.uniform([3]), tf.random.normal([2])

    m = M()
    x = tf.constant(1.0)
    first = [m.f(x) for _ in range(2)]
    tf.saved_model.save(m, os.path.join(d, "m"))
    loaded = tf.saved_model.load(os.path.join(d, "m"))
    later = [loaded.f(x) for _ in range(2)]
    return [np.asarray(t) for pair in first + later for t in pair]


def stateless(tf, d):
    """Stateless ops: a function of the seed argument alone."""
    class M(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([2], tf.int32)])
        def f(self, seed):
            return (tf.random.stateless_uniform([3], seed) + tf.random.stateless_normal([3], seed + 1)
                    + tf.cast(tf.random.stateless_categorical([[0.0, 1.0, 2.0]], 3, seed)[0], tf.float32))
    return _draws(tf, os.path.join(d, "m"), M(), "f", [tf.constant([1, 2])])


def generator(tf, d):
    """A tf.random.Generator tracked by the module: its state is a saved variable; a loaded
    function draws from the loaded state, which each load restores."""
    class M(tf.Module):
        def __init__(self):
            super().__init__()
            self.g = tf.random.Generator.from_seed(5)

        @tf.function(input_signature=[])
        def f(self):
            return self.g.normal([3]) + self.g.uniform([3])

    m = M()
    out = _draws(tf, os.path.join(d, "m"), m, "f", [])
    return out + [np.asarray(m.g.state)]


def categorical_step(tf, d):
    """The text generation tutorial's pattern: categorical sampling from logits in a function
    traced for two batch sizes, saved, loaded and called in a loop."""
    tf.random.set_seed(0)

    class M(tf.Module):
        @tf.function
        def f(self, logits):
            return tf.squeeze(tf.random.categorical(logits, num_samples=1), axis=-1)

    m = M()
    one = tf.constant([[0.0, 0.5, 1.0, 1.5]])
    five = tf.tile(one, [5, 1])
    out = [np.asarray(m.f(one)) for _ in range(3)] + [np.asarray(m.f(five)) for _ in range(2)]
    tf.saved_model.save(m, os.path.join(d, "m"))
    loaded = tf.saved_model.load(os.path.join(d, "m"))
    return out + [np.asarray(loaded.f(one)) for _ in range(4)] + [np.asarray(loaded.f(five))]


def any_batch(tf, d):
    """A signature with a None dimension: the draws' shapes and counter steps follow each call's
    size, from one kernel per op."""
    tf.random.set_seed(5)

    class M(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
        def f(self, logits):
            return tf.random.categorical(logits, 2), tf.random.shuffle(logits), logits * tf.random.normal([3])

    m = M()
    small, big = tf.zeros([2, 3]), tf.reshape(tf.range(27.0), [9, 3]) / 9
    out = [m.f(small), m.f(big), m.f(small)]
    tf.saved_model.save(m, os.path.join(d, "m"))
    loaded = tf.saved_model.load(os.path.join(d, "m"))
    out += [loaded.f(big), loaded.f(small), loaded.f(big)]
    return [np.asarray(t) for res in out for t in res]


def seed_at_save(tf, d):
    """TensorFlow traces a function again when it saves it: the saved op seeds come from the global
    seed at save time (none: an op with seed= takes TF's default graph seed)."""
    out = []
    for later in (2, None):
        tf.random.set_seed(1)

        class M(tf.Module):
            @tf.function
            def f(self, x):
                return x + tf.random.uniform([3]), tf.random.uniform([2], seed=4)

        m = M()
        out += [np.asarray(t) for t in m.f(tf.zeros([3]))]
        tf.random.set_seed(later)
        tf.saved_model.save(m, os.path.join(d, str(later)))
        tf.random.set_seed(1)
        got = tf.saved_model.load(os.path.join(d, str(later))).f(tf.zeros([3]))
        out += [np.asarray(t) for t in (got if later is not None else got[1:])]
    return out


def image_and_nn(tf, d):
    """Random ops built on the stateful and stateless ones: tf.nn.dropout, tf.image.random_* and
    tf.image.stateless_random_*."""
    tf.random.set_seed(3)

    class M(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([4, 4, 1], tf.float32)])
        def f(self, x):
            return (tf.nn.dropout(x, 0.5), tf.image.random_flip_left_right(x, seed=2),
                    tf.image.random_brightness(x, 0.3), tf.image.stateless_random_brightness(x, 0.3, seed=[1, 2]),
                    tf.image.stateless_random_contrast(x, 0.2, 0.8, seed=[3, 4]))
    return _draws(tf, os.path.join(d, "m"), M(), "f", [tf.reshape(tf.range(16.0), [4, 4, 1])])


def candidate_samplers(tf, d):
    """The candidate samplers: a learned sampler's kernel keeps weights that start afresh at load."""
    tf.random.set_seed(2)

    class M(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([2, 1], tf.int64)])
        def f(self, true):
            return (tf.random.log_uniform_candidate_sampler(true, 1, 4, True, 20, seed=1)
                    + tf.random.learned_unigram_candidate_sampler(true, 1, 3, False, 6)
                    + tf.random.fixed_unigram_candidate_sampler(true, 1, 3, False, 6,
                                                                unigrams=[1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
                    + tf.random.uniform_candidate_sampler(true, 1, 2, True, 6, seed=7))
    return _draws(tf, os.path.join(d, "m"), M(), "f", [tf.constant([[1], [4]], tf.int64)], calls=3)


PROGRAMS = {"stateful_ops": stateful_ops, "unseeded_trace_order": unseeded_trace_order,
            "stateless": stateless, "generator": generator, "categorical_step": categorical_step, "any_batch": any_batch,
            "seed_at_save": seed_at_save, "image_and_nn": image_and_nn,
            "candidate_samplers": candidate_samplers}


def keras_dropout(tf, d):
    """Keras 3's Dropout in a tf.Module's saved function: its SeedGenerator's state variable is not
    tracked there, and saving fails."""
    keras = tf.keras
    keras.utils.set_random_seed(1)

    class M(tf.Module):
        def __init__(self):
            super().__init__()
            self.drop = keras.layers.Dropout(0.5, seed=3)

        @tf.function(input_signature=[tf.TensorSpec([8], tf.float32)])
        def f(self, x):
            return self.drop(x, training=True)
    return _draws(tf, os.path.join(d, "m"), M(), "f", [tf.range(1.0, 9.0)])


FAILING = {"keras_dropout": keras_dropout}
