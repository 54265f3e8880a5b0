"""Sampled losses and candidate samplers: TensorFlow's losses and gradients for given sampled ids
(tests/sampled_programs.py, recorded in tests/fixtures/tf_signal_image.npz), the samplers'
distributions and seeds (their exact draws: tests/test_philox.py, programs ``candidate_samplers``
and ``samplers_in_function`` of tests/random_programs.py), errors."""
from __future__ import annotations

import numpy as np
import pytest

import tapegrad as tf
from sampled_programs import PROGRAMS
from test_signal import compare


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_gives_tensorflows_numbers(name):
    compare(name, PROGRAMS[name](tf))


@pytest.mark.parametrize("sampler,prob", [
    (tf.random.log_uniform_candidate_sampler, lambda k: np.log((k + 2) / (k + 1)) / np.log(21)),
    (tf.random.uniform_candidate_sampler, lambda k: np.full(k.shape, 1 / 20)),
])
def test_sampler_frequencies_follow_the_distribution(sampler, prob):
    ids = sampler(tf.constant([[0]], tf.int64), 1, 20000, False, 20, seed=7)[0].numpy()
    assert ids.dtype == np.int64 and ids.min() >= 0 and ids.max() < 20
    freq = np.bincount(ids, minlength=20) / ids.size
    p = prob(np.arange(20))
    # 5 standard deviations of a binomial frequency
    assert np.all(np.abs(freq - p) <= 5 * np.sqrt(p * (1 - p) / ids.size)), (freq, p)


def test_fixed_unigram_frequencies_follow_the_unigrams():
    unigrams = [1.0, 4.0, 0.0, 9.0]
    ids = tf.random.fixed_unigram_candidate_sampler(tf.constant([[0]], tf.int64), 1, 20000, False, 4,
                                                    unigrams=unigrams, distortion=0.5, seed=1)[0].numpy()
    freq = np.bincount(ids, minlength=4) / ids.size
    np.testing.assert_allclose(freq, [1 / 6, 2 / 6, 0, 3 / 6], atol=0.02)


def test_unique_sampling_and_its_expected_counts():
    ids, true_count, sampled_count = tf.random.log_uniform_candidate_sampler(
        tf.constant([[0], [3]], tf.int64), 1, 30, True, 50, seed=2)
    v = ids.numpy()
    assert len(set(v.tolist())) == 30
    p = np.log((v + 2) / (v + 1)) / np.log(51)
    # 1 - (1 - p)^tries for one number of tries >= 30 shared by all (counts that round to 1.0 in
    # float32, the commonest ids after many tries, say nothing of the tries)
    sc = sampled_count.numpy().astype(np.float64)
    ok = sc < 1.0 - 1e-6
    tries = np.log1p(-sc[ok]) / np.log1p(-p[ok])
    assert ok.sum() >= 10 and tries.min() >= 30 - 1e-3 and np.ptp(tries) < 1e-2 * tries.mean()
    assert np.all((1 - p[~ok]) ** tries.mean() < 1e-6)
    assert true_count.shape == (2, 1) and true_count.dtype == tf.float32


def test_seeded_samplers_repeat_after_set_seed_and_unseeded_ones_vary():
    tc = tf.constant([[0]], tf.int64)

    def draws():
        return [tf.random.log_uniform_candidate_sampler(tc, 1, 10, True, 1000, seed=s)[0].numpy()
                for s in (5, 5, None)]
    tf.random.set_seed(1)
    first = draws()
    tf.random.set_seed(1)
    assert all(np.array_equal(a, b) for a, b in zip(first, draws()))
    assert not np.array_equal(first[0], first[1])  # (one kernel: the second call goes on)
    tf.random.set_seed(None)
    c = [tf.random.log_uniform_candidate_sampler(tc, 1, 10, True, 1000)[0].numpy() for _ in range(3)]
    assert not all(np.array_equal(c[0], x) for x in c[1:])


def test_learned_unigram_learns_the_true_classes():
    tc = tf.constant([[3]] * 50, tf.int64)
    _, t0, _ = tf.random.learned_unigram_candidate_sampler(tc, 1, 2000, False, 10, seed=1)
    ids, t1, _ = tf.random.learned_unigram_candidate_sampler(tc, 1, 2000, False, 10, seed=1)  # (one kernel)
    np.testing.assert_allclose(t0.numpy()[0], 2000 * 1 / 10)
    np.testing.assert_allclose(t1.numpy()[0], 2000 * 51 / 60, rtol=1e-6)  # weight 1 + 50 of total 60
    assert abs(np.mean(ids.numpy() == 3) - 51 / 60) < 0.05


def test_all_candidate_sampler_and_accidental_hits_take_op_seeds():
    tc = tf.constant([[1]], tf.int64)
    tf.random.set_seed(3)
    a = tf.random.normal([2])
    tf.random.set_seed(3)
    ids, t, s = tf.random.all_candidate_sampler(tc, 1, 4, True)
    tf.nn.compute_accidental_hits(tc, ids, 1)
    b = tf.random.normal([2])
    tf.random.set_seed(3)
    tf.random.normal([2]), tf.random.normal([2])
    c = tf.random.normal([2])
    assert ids.numpy().tolist() == [0, 1, 2, 3] and t.numpy().tolist() == [[1.0]] and s.numpy().tolist() == [1.0] * 4
    assert not np.array_equal(a.numpy(), b.numpy()) and np.array_equal(b.numpy(), c.numpy())


def test_losses_without_sampled_values_draw_log_uniform_candidates():
    w = tf.Variable(tf.random.stateless_normal([50, 4], seed=[1, 2]))
    b = tf.zeros([50])
    x = tf.random.stateless_normal([8, 4], seed=[3, 4])
    labels = tf.constant(np.arange(8).reshape(8, 1))
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.nn.sampled_softmax_loss(w, b, labels, x, 10, 50, seed=3))
        nce = tf.reduce_mean(tf.nn.nce_loss(w, b, labels, x, 10, 50))
    assert loss.shape == () and np.isfinite(loss.numpy()) and np.isfinite(nce.numpy())
    assert tape.gradient(loss, w).shape == (50, 4)


@pytest.mark.parametrize("call,err,match", [
    (lambda: tf.random.log_uniform_candidate_sampler(tf.constant([0], tf.int64), 1, 2, True, 5),
     tf.errors.InvalidArgumentError, "batch_size, num_true"),
    (lambda: tf.random.uniform_candidate_sampler(tf.constant([[0]], tf.int64), 1, 6, True, 5),
     tf.errors.InvalidArgumentError, "num_sampled <= range_max"),
    (lambda: tf.random.fixed_unigram_candidate_sampler(tf.constant([[0]], tf.int64), 1, 2, True, 3,
                                                       unigrams=[1.0, 2.0]), tf.errors.InvalidArgumentError,
     "must be equal to weights size"),
    (lambda: tf.random.fixed_unigram_candidate_sampler(tf.constant([[0]], tf.int64), 1, 2, True, 3),
     tf.errors.InvalidArgumentError, "one of vocab_file and unigrams"),
    (lambda: tf.random.uniform_candidate_sampler(tf.constant([[7]], tf.int64), 1, 2, True, 5),
     tf.errors.InvalidArgumentError, r"out of range \[0, 5\), received 7"),
    (lambda: tf.nn.nce_loss(tf.ones([5, 2]), tf.zeros([5]), tf.constant([[1, 2]]), tf.ones([1, 2]), 2, 5),
     ValueError, "num_true = 1"),
    (lambda: tf.nn.sampled_softmax_loss(tf.ones([5, 2]), tf.zeros([5]), tf.constant([[1]]), tf.ones([2]), 2, 5),
     ValueError, "batch_size, dim"),
])
def test_bad_input(call, err, match):
    with pytest.raises(err, match=match):
        call()
