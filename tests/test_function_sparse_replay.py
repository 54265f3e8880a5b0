"""A tf.function that applies a sparse gradient (IndexedSlices, from tf.gather or Embedding)
replays it with each call's rows and values, not the ones of the trace."""
import numpy as np

import tapegrad as tf


def test_a_replayed_sparse_update_uses_each_call_s_rows():
    def run(traced):
        table = tf.Variable(np.arange(12, dtype=np.float32).reshape(6, 2))
        opt = tf.keras.optimizers.Adam(0.1)

        def step(ids):
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(tf.square(tf.gather(table, ids)))
            (g,) = tape.gradient(loss, [table])
            assert isinstance(g, tf.IndexedSlices)
            opt.apply_gradients([(g, table)])
            return loss

        fn = tf.function(step) if traced else step
        losses = [float(fn(tf.constant(ids))) for ids in ([0, 1], [4, 5], [2, 2])]
        return losses, table.numpy()

    eager, traced = run(False), run(True)
    assert eager[0] == traced[0]
    np.testing.assert_array_equal(eager[1], traced[1])   # (the same operations, one process)
    assert not np.array_equal(traced[1][4:], np.arange(8, 12, dtype=np.float32).reshape(2, 2))
