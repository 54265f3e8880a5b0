"""tf.nn's sampled losses and candidate samplers, run by TensorFlow
(tools/record_tf_signal_image.py records their results in tests/fixtures/tf_signal_image.npz) and
by tapegrad (tests/test_sampled.py compares). Each takes the ``tf`` module and returns a list of
arrays. Sampled ids are passed explicitly (``sampled_values``): TensorFlow's own draws come from
its kernel's random stream."""
import numpy as np

from signal_programs import _data, _np


def _loss_and_grads(tf, loss_fn, w, b, x, **kw):
    w, b, x = tf.constant(w), tf.constant(b), tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch([w, b, x])
        loss = loss_fn(w, b, inputs=x, **kw)
        total = tf.reduce_sum(loss * tf.constant(np.linspace(0.5, 1.5, loss.shape[0]).astype(np.float32)))
    return [loss] + [tf.convert_to_tensor(g) for g in tape.gradient(total, [w, b, x])]


def sampled_losses(tf):
    w, b, x = _data((12, 4), seed=20), _data((12,), seed=21), _data((5, 4), seed=22)
    labels1 = np.array([[3], [0], [7], [3], [11]], np.int64)
    labels2 = np.array([[3, 5], [0, 1], [7, 7], [3, 2], [11, 4]], np.int64)
    sampled = np.array([5, 3, 9, 0, 7, 1], np.int64)
    sv1 = (sampled, np.full((5, 1), 0.3, np.float32), np.linspace(0.1, 0.9, 6).astype(np.float32))
    sv2 = (sampled, np.linspace(0.2, 0.7, 10).reshape(5, 2).astype(np.float32), sv1[2])
    out = []
    for fn in (tf.nn.nce_loss, tf.nn.sampled_softmax_loss):
        for labels, sv, nt in ((labels1, sv1, 1), (labels2, sv2, 2)):
            for hits in (False, True):
                out += _loss_and_grads(tf, fn, w, b, x, labels=labels, num_sampled=6, num_classes=12,
                                       num_true=nt, sampled_values=sv, remove_accidental_hits=hits)
    out += list(tf.nn.compute_accidental_hits(labels2, sampled, 2))
    out += list(tf.nn.compute_accidental_hits(np.array([[1, 1], [2, 3]], np.int64), np.array([1, 3, 1], np.int64), 2))
    return _np(out)


def sampler_counts(tf):
    tc = np.array([[0, 5], [99, 2]], np.int64)
    out = []
    for f in (tf.random.log_uniform_candidate_sampler, tf.random.uniform_candidate_sampler):
        out.append(f(tc, 2, 7, False, 100, seed=3)[1])  # (the other outputs depend on the draws)
    _, t, _ = tf.random.fixed_unigram_candidate_sampler(tc[:, :1], 1, 4, False, 100,
                                                        unigrams=list(range(1, 101)), distortion=0.5, seed=2)
    return _np(out + [t])


PROGRAMS = {f.__name__: f for f in (sampled_losses, sampler_counts)}
