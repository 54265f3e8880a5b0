"""Record what TensorFlow 2.21 / Keras 3.15 give for the cases tests/test_keras_legacy.py replays on
tapegrad: tf.keras's legacy backend functions (``tf.keras.backend.sum``, ``softmax``, ``batch_dot``,
``rnn``, ... values and gradients), ``tf.data.Dataset.counter`` with the stateless-random pattern
of the data augmentation tutorial, ``timeseries_dataset_from_array`` (also as
``tf.keras.preprocessing``'s), the legacy ``tf.keras.preprocessing`` helpers, and the text
layers' dtypes.

    $TAPEGRAD_TF_PYTHON tools/record_keras_legacy.py [--only SUBSTRING]

Each case is a snippet that uses ``tf``, ``np``, ``K`` (``tf.keras.backend``), ``keras``
(``tf.keras``) and ``D`` (``tf.data.Dataset``) and sets ``out``; the snippets and the encoding of
``out`` (tools/record_tf_data.py's ``encode``) go into ``tests/fixtures/keras_legacy.json``.
"""
import argparse
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from record_tf_data import encode  # noqa: E402,F401

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURE = os.path.join(REPO, "tests", "fixtures", "keras_legacy.json")

_X = "x = K.constant(np.linspace(-2.0, 3.0, 24).reshape(2, 3, 4))\n"
_M = "m = K.constant(np.linspace(-1.5, 1.0, 12).reshape(3, 4))\n"
_P = "p = K.constant(np.array([[0.2, 0.7, 0.1], [0.5, 0.25, 0.25]]))\nt = K.constant(np.array([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]]))\n"


def _grad(expr: str, var: str = "x") -> str:
    """A case giving ``expr``'s value and its gradient with respect to ``var``."""
    return (f"with tf.GradientTape() as tape:\n    tape.watch({var})\n    y = {expr}\n"
            f"out = (y, tape.gradient(y, {var}))")


BACKEND = {
    # reductions, keepdims and bool rules
    "sum": _X + "out = (K.sum(x), K.sum(x, axis=1), K.sum(x, axis=[0, 2], keepdims=True))",
    "mean_bool": _X + "out = (K.mean(x, axis=-1), K.mean(K.greater(x, 0.0)), K.mean(x > 0, axis=0, keepdims=True))",
    "max_min_prod": _X + "out = (K.max(x, 1), K.min(x, axis=(1, 2)), K.prod(x[0], axis=0, keepdims=True))",
    "std_var": _X + "out = (K.std(x), K.var(x, axis=1), K.std(K.greater(x, 0.0), axis=0), K.var(x, 2, True))",
    "all_any": _X + "out = (K.all(x), K.any(x > 2.5, axis=1), K.all(K.constant([[1, 0], [2, 3]]), keepdims=True))",
    "argmax_argmin": _X + "out = (K.argmax(x), K.argmin(x, axis=1))",
    "cumsum_cumprod": _M + "out = (K.cumsum(m), K.cumsum(m, axis=1), K.cumprod(m, axis=1))",
    # elementwise
    "elementwise": _M + ("out = [K.abs(m), K.cos(m), K.sin(m), K.exp(m), K.log(K.abs(m) + 1), K.round(m * 2),"
                         " K.sign(m), K.square(m), K.sqrt(m), K.pow(m, 2), K.tanh(m), K.sigmoid(m),"
                         " K.softplus(m), K.softsign(m), K.hard_sigmoid(m * 3)]"),
    "comparisons": _M + ("out = [K.equal(m, 0.0), K.not_equal(m, 0.0), K.greater(m, 0.0), K.greater_equal(m, 0.0),"
                         " K.less(m, 0.0), K.less_equal(m, 0.0), K.maximum(m, 0.1), K.minimum(m, 0.1)]"),
    "clip": _M + "out = (K.clip(m, -0.5, 0.5), K.clip(m, 0.5, -0.5), K.clip(m, None, 0.2), K.clip(m, -0.2, None))",
    # activations
    "softmax": _X + "out = (K.softmax(x), K.softmax(x, axis=1), K.softmax(x, axis=(1, 2)))",
    "softmax_1d": "out = K.softmax(K.constant([1.0, 2.0]))",
    "relu": _M + ("out = [K.relu(m), K.relu(m, alpha=0.1), K.relu(m, max_value=0.5), K.relu(m * 8, max_value=6),"
                  " K.relu(m, threshold=0.25), K.relu(m, alpha=0.2, max_value=0.5, threshold=-0.5)]"),
    "elu": _M + "out = (K.elu(m), K.elu(m, alpha=0.5))",
    "l2_normalize": _M + "out = (K.l2_normalize(m), K.l2_normalize(m, axis=1))",
    "in_top_k": "out = K.in_top_k(K.constant([[0.1, 0.6, 0.3], [0.5, 0.2, 0.3]]), K.constant([2, 0], dtype='int32'), 2)",
    # losses
    "binary_crossentropy": _P + "out = (K.binary_crossentropy(t, p), K.binary_crossentropy(t, p * 4 - 1, from_logits=True))",
    "binary_focal": _P + ("out = (K.binary_focal_crossentropy(t, p), K.binary_focal_crossentropy(t, p, "
                          "apply_class_balancing=True, alpha=0.3, gamma=1.5), "
                          "K.binary_focal_crossentropy(t, p * 4 - 1, from_logits=True))"),
    "categorical_crossentropy": _P + ("out = (K.categorical_crossentropy(t, p), K.categorical_crossentropy(t, p * 4, "
                                      "from_logits=True), K.categorical_crossentropy(K.transpose(t), K.transpose(p), axis=0))"),
    "categorical_focal": _P + ("out = (K.categorical_focal_crossentropy(t, p), K.categorical_focal_crossentropy(t, p, "
                               "alpha=0.5, gamma=1.0, from_logits=True))"),
    "sparse_categorical_crossentropy": _P + (
        "y = K.constant([1, 2], dtype='int32')\n"
        "out = (K.sparse_categorical_crossentropy(y, p), K.sparse_categorical_crossentropy(y, p, from_logits=True),"
        " K.sparse_categorical_crossentropy(K.constant([[1], [0]]), p),"
        " K.sparse_categorical_crossentropy(y, K.transpose(p), axis=0),"
        " K.sparse_categorical_crossentropy(K.constant([[1, 2], [0, 1]], dtype='int32'), K.stack([p, p]), ignore_class=1))"),
    "ctc_batch_cost": (
        "rng = np.random.RandomState(0)\n"
        "yp = K.softmax(K.constant(rng.randn(2, 6, 4)))\n"
        "out = K.ctc_batch_cost(K.constant([[1, 2, 0], [2, 0, 0]], dtype='int32'), yp, "
        "K.constant([[6], [5]], dtype='int32'), K.constant([[3], [1]], dtype='int32'))"),
    "ctc_decode_greedy": (
        "rng = np.random.RandomState(1)\n"
        "yp = K.softmax(K.constant(rng.randn(2, 6, 4) * 2))\n"
        "d, lp = K.ctc_decode(yp, K.constant([6, 4], dtype='int32'))\nout = (d, lp)"),
    "ctc_label_dense_to_sparse": (
        "s = K.ctc_label_dense_to_sparse(K.constant([[1, 2, 3], [4, 5, 6]], dtype='int32'), K.constant([2, 3], dtype='int32'))\n"
        "out = (s.indices, s.values, s.dense_shape)"),
    # shapes and arrays
    "arange": "out = (K.arange(5), K.arange(2, 9, 3), K.arange(-3), K.arange(0, 4, dtype='float32'))",
    "cast_floatx": "out = (K.cast(K.constant([1.7, -2.2]), 'int32'), K.cast_to_floatx([1, 2]), K.cast_to_floatx(K.constant([1, 2], dtype='int32')))",
    "constant": "out = (K.constant(3), K.constant([1, 2], dtype='int32'), K.constant(1.5, shape=(2, 2)))",
    "concatenate": _X + "out = (K.concatenate([x, x]), K.concatenate([x, x], axis=0), K.concatenate([x, x], axis=-2))",
    "shapes": _X + ("out = (K.int_shape(x), K.ndim(x), K.shape(x), K.dtype(x), K.count_params(x),"
                    " K.flatten(x), K.batch_flatten(x), K.expand_dims(x).shape.as_list(), K.expand_dims(x, 0).shape.as_list())"),
    "one_hot_gather": "out = (K.one_hot(K.constant([0, 2, 1], dtype='int32'), 4), K.gather(K.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]), [2, 0]))",
    "permute_transpose_reshape": _X + "out = (K.permute_dimensions(x, (2, 0, 1)), K.transpose(x), K.reshape(x, (4, -1)))",
    "repeat": _M + "out = (K.repeat(m, 3), K.repeat_elements(m, 2, axis=1), K.repeat_elements(m, 3, 0))",
    "repeat_rank3": _X + "out = K.repeat(x, 2)",
    "reverse_squeeze_stack_tile": _X + ("out = (K.reverse(x, 1), K.reverse(x, [0, 2]), K.squeeze(x[:, :1], 1),"
                                        " K.stack([x, x], axis=1), K.tile(x, [1, 2, 1]), K.tile(x[0, 0], 2))"),
    "switch": _M + ("out = (K.switch(K.greater(m, 0), m, -m), K.switch(K.constant(True, dtype='bool'), lambda: m, lambda: -m),"
                    " K.switch(K.constant([[1, 0, 1, 1]]), m, K.zeros_like(m)))"),
    "switch_rank1_condition": _M + "out = K.switch(K.constant([1, 0, 1]), m, K.zeros_like(m))",
    "paddings": _X + ("out = (K.temporal_padding(x), K.temporal_padding(x, (0, 2)),"
                      " K.spatial_2d_padding(K.reshape(x, (1, 2, 3, 4))),"
                      " K.spatial_2d_padding(K.reshape(x, (1, 2, 3, 4)), ((0, 1), (2, 0)), 'channels_first'),"
                      " K.spatial_3d_padding(K.reshape(x, (1, 2, 3, 4, 1)), ((1, 0), (0, 1), (1, 1))))"),
    "resize": _X + ("im = K.reshape(x, (1, 2, 3, 4))\n"
                    "out = (K.resize_images(im, 2, 3, 'channels_last'), K.resize_images(im, 2, 1, 'channels_first', interpolation='bilinear'),"
                    " K.resize_volumes(K.reshape(x, (1, 2, 3, 2, 2)), 2, 1, 2, 'channels_last'))"),
    # products
    "dot": _X + _M + ("out = (K.dot(m, K.transpose(m)), K.dot(x, K.transpose(m)), K.dot(x, K.permute_dimensions(x, (0, 2, 1))),"
                      " K.dot(m, K.reshape(x, (2, 4, 3))))"),
    "batch_dot": _X + ("y = K.permute_dimensions(x, (0, 2, 1))\nv = K.constant(np.arange(8.0).reshape(2, 4))\n"
                       "out = [K.batch_dot(x, y), K.batch_dot(x, x, axes=2), K.batch_dot(x, x, axes=(1, 1)),"
                       " K.batch_dot(v, v), K.batch_dot(x, v), K.batch_dot(v, y, axes=(1, 1)), K.batch_dot(x, K.reshape(x, (2, 3, 4, 1)), axes=(2, 2))]"),
    "batch_dot_axis0": _X + "out = K.batch_dot(x, x, axes=0)",
    "bias_add": _X + ("out = (K.bias_add(x, K.constant([1.0, 2.0, 3.0, 4.0])), K.bias_add(x, K.constant([1.0, 2.0, 3.0]), 'channels_first'),"
                      " K.bias_add(x, K.ones((3, 4)) * 0.5), K.bias_add(x, K.reshape(K.arange(12, dtype='float32'), (4, 3)), data_format='channels_first'))"),
    "batch_normalization": _X + "out = K.batch_normalization(x, K.constant(0.5), K.constant(2.0), K.constant(0.1), K.constant(1.5))",
    # convolutions and pooling
    "conv": (
        "rng = np.random.RandomState(2)\nimg = K.constant(rng.randn(1, 5, 6, 2))\nk2 = K.constant(rng.randn(3, 3, 2, 3))\n"
        "seq = K.constant(rng.randn(2, 7, 2))\nk1 = K.constant(rng.randn(3, 2, 4))\n"
        "vol = K.constant(rng.randn(1, 4, 4, 4, 2))\nk3 = K.constant(rng.randn(2, 2, 2, 2, 1))\n"
        "out = [K.conv1d(seq, k1), K.conv1d(seq, k1, padding='causal', dilation_rate=2), K.conv1d(seq, k1, strides=2, padding='same'),"
        " K.conv2d(img, k2), K.conv2d(img, k2, strides=(2, 2), padding='same'), K.conv2d(img, k2, dilation_rate=(2, 2)),"
        " K.conv3d(vol, k3, padding='same')]"),
    "conv_transpose_depthwise_separable": (
        "rng = np.random.RandomState(3)\nimg = K.constant(rng.randn(2, 4, 4, 2))\n"
        "out = [K.conv2d_transpose(img, K.constant(rng.randn(3, 3, 5, 2)), (2, 8, 8, 5), strides=(2, 2), padding='same'),"
        " K.conv2d_transpose(img, K.constant(rng.randn(3, 3, 5, 2)), (None, 6, 6, 5)),"
        " K.depthwise_conv2d(img, K.constant(rng.randn(2, 2, 2, 2))),"
        " K.separable_conv2d(img, K.constant(rng.randn(3, 3, 2, 1)), K.constant(rng.randn(1, 1, 2, 3)), padding='same')]"),
    "pool": (
        "rng = np.random.RandomState(4)\nimg = K.constant(rng.randn(1, 5, 6, 2))\nvol = K.constant(rng.randn(1, 4, 4, 4, 2))\n"
        "out = [K.pool2d(img, (2, 2)), K.pool2d(img, (2, 3), strides=(2, 2), padding='same', pool_mode='avg'),"
        " K.pool3d(vol, (2, 2, 2), strides=(2, 2, 2)), K.pool3d(vol, (2, 2, 2), pool_mode='avg')]"),
    "bad_padding": "out = K.conv2d(K.ones((1, 3, 3, 1)), K.ones((2, 2, 1, 1)), padding='full')",
    # variables
    "variables": ("v = K.variable([[1, 2], [3, 4]])\nz = K.zeros((2, 3), dtype='int32')\no = K.ones((2,))\ne = K.eye(3)\n"
                  "K.set_value(v, [[5, 6], [7, 8]])\nK.update_add(o, [1.0, 2.0])\nK.moving_average_update(v, K.constant([[1.0, 1.0], [1.0, 1.0]]), 0.9)\n"
                  "out = (K.get_value(v), K.eval(z), K.batch_get_value([o, e]), type(v).__name__ == type(tf.Variable(1.0)).__name__,"
                  " K.zeros_like(v, dtype='int32'), K.ones_like(e), K.dtype(v), K.is_float_dtype('bfloat16'), K.is_int_dtype('uint8'))"),
    "zeros_empty": "z = K.zeros((0, 2))\nout = (z, hasattr(z, 'assign'))",
    "stop_gradient": _M + _grad("K.sum(K.stop_gradient(m) * m)", "m"),
    "map_fold": _M + ("out = (K.map_fn(lambda r: K.sum(r), m), K.foldl(lambda a, r: a + r, m),"
                      " K.foldr(lambda a, r: a * 0.5 + r, m, initializer=K.zeros((4,))))"),
    # gradients through the functions
    "grad_softmax": _X + _grad("K.sum(K.softmax(x) * K.constant(np.arange(24.0).reshape(2, 3, 4)))"),
    "grad_batch_dot": _X + _grad("K.sum(K.batch_dot(x, K.permute_dimensions(x, (0, 2, 1))) ** 2)"),
    "grad_dot": _X + _M + _grad("K.sum(K.dot(x, K.transpose(m)))"),
    "grad_std_sqrt_relu": _M + _grad("K.sum(K.std(m, axis=0)) + K.sum(K.sqrt(m)) + K.sum(K.relu(m, alpha=0.1, max_value=0.6))", "m"),
    "grad_crossentropy": _P + _grad("K.sum(K.categorical_crossentropy(t, p)) + K.sum(K.binary_crossentropy(t, p))", "p"),
    "grad_repeat_elements": _M + _grad("K.sum(K.repeat_elements(m, 3, axis=1) * K.arange(12, dtype='float32'))", "m"),
    "grad_ctc": ("rng = np.random.RandomState(0)\nz = K.constant(rng.randn(2, 6, 4))\n"
                 + _grad("K.sum(K.ctc_batch_cost(K.constant([[1, 2, 0], [2, 0, 0]], dtype='int32'), K.softmax(z), "
                         "K.constant([[6], [5]], dtype='int32'), K.constant([[3], [1]], dtype='int32')))", "z")),
    # rnn
    "rnn": ("rng = np.random.RandomState(5)\nxs = K.constant(rng.randn(2, 4, 3))\nw = K.constant(rng.randn(3, 2))\n"
            "def step(inp, states):\n    h = K.tanh(K.dot(inp, w) + states[0])\n    return h, [h]\n"
            "h0 = K.zeros_like(xs[:, 0, :2])\n"
            "mask = K.constant([[1, 1, 0, 1], [1, 0, 0, 0]]) > 0\n"
            "out = [K.rnn(step, xs, [h0]), K.rnn(step, xs, [h0], go_backwards=True),"
            " K.rnn(step, xs, [h0], mask=mask), K.rnn(step, xs, [h0], mask=mask, zero_output_for_mask=True, go_backwards=True),"
            " K.rnn(step, xs, [h0], unroll=True, mask=mask), K.rnn(step, xs, [h0], return_all_outputs=False),"
            " K.rnn(step, K.permute_dimensions(xs, (1, 0, 2)), [h0], time_major=True)]"),
    "rnn_grad": ("rng = np.random.RandomState(5)\nxs = K.constant(rng.randn(2, 4, 3))\nw = K.constant(rng.randn(3, 2))\n"
                 "def step(inp, states):\n    h = K.tanh(K.dot(inp, w) + states[0])\n    return h, [h]\n"
                 + _grad("K.sum(K.rnn(step, xs, [K.zeros_like(xs[:, 0, :2])], mask=K.constant([[1, 1, 0, 1], [1, 0, 1, 1]]))[1])", "w")),
    "random_bernoulli": "out = (K.random_bernoulli((2, 3), p=1.0, seed=1), K.random_bernoulli((2, 2), p=0.0, seed=2))",
    "uid": "K.clear_session()\nout = (K.get_uid('block'), K.get_uid('block'), K.get_uid())",
}

DATA = {
    "counter_default": "c = tf.data.experimental.Counter()\nout = (el(c.take(4)), c.element_spec, c.cardinality(), repr(c))",
    "counter_args": ("out = (el(D.counter(10, -3).take(4)), el(D.counter(2, 5, tf.int32).take(3)),"
                     " D.counter(dtype=tf.int32).element_spec, el(D.counter(0.5, 0.25, tf.float32).take(3)),"
                     " el(tf.data.experimental.Counter(start=2147483646, dtype=tf.int32).take(3)),"
                     " el(D.counter(tf.constant(3, tf.int64), 2).take(2)))"),
    "counter_float_start": "out = D.counter(0.5)",
    "counter_string": "out = D.counter(dtype=tf.string)",
    "counter_zip_batch": ("c = D.counter()\nds = D.zip((D.range(5, 10), (c, c))).batch(2)\n"
                          "out = (el(ds), ds.element_spec, D.zip(D.range(3), c).cardinality(), c.take(7).cardinality(),"
                          " el(c.map(lambda i: i * 2).skip(3).take(2)))"),
    "counter_in_function": ("total = tf.function(lambda ds: ds.reduce(tf.constant(0, tf.int64), lambda s, v: s + v))\n"
                            "out = (total(D.counter(1).take(10)), total(D.counter(1, 3).map(lambda v: v * v).take(4)))"),
    "counter_checkpoint": ("import os, tempfile\nit = iter(D.counter(5, 2).map(lambda v: v * v))\nnext(it); next(it)\n"
                           "ck = tf.train.Checkpoint(it=it)\np = ck.save(os.path.join(tempfile.mkdtemp(), 'c'))\n"
                           "a = [next(it), next(it)]\nit2 = iter(D.counter(5, 2).map(lambda v: v * v))\n"
                           "tf.train.Checkpoint(it=it2).restore(p)\nout = (a, [next(it2), next(it2)])"),
    "counter_stateless_seeds": (
        "imgs = np.linspace(0.0, 1.0, 4 * 8 * 8 * 3).reshape(4, 8, 8, 3).astype(np.float32)\n"
        "ds = D.from_tensor_slices((imgs, np.arange(4)))\nc = tf.data.experimental.Counter()\n"
        "def aug(image_label, seed):\n    image, label = image_label\n"
        "    new_seed = tf.random.experimental.stateless_split(seed, num=1)[0, :]\n"
        "    image = tf.image.stateless_random_crop(tf.image.resize_with_crop_or_pad(image, 10, 10), size=[8, 8, 3], seed=seed)\n"
        "    image = tf.image.stateless_random_brightness(image, max_delta=0.5, seed=new_seed)\n"
        "    return tf.clip_by_value(image, 0, 1), label\n"
        "out = el(D.zip((ds, (c, c))).map(aug).batch(2))"),
}

TIMESERIES = {
    "timeseries_basic": ("out = el(keras.utils.timeseries_dataset_from_array(np.arange(10), np.arange(10) * 10,"
                         " sequence_length=3, sequence_stride=2, batch_size=2))"),
    "timeseries_preprocessing_alias": (
        "f = keras.preprocessing.timeseries_dataset_from_array\n"
        "ds = f(np.arange(40.0).reshape(20, 2), None, sequence_length=4, sampling_rate=2, start_index=2, end_index=18, batch_size=3)\n"
        "out = (el(ds), ds.element_spec)"),
    "timeseries_shuffle_seed": (
        "ds = keras.utils.timeseries_dataset_from_array(np.arange(100), np.arange(100), sequence_length=5,"
        " sequence_stride=3, shuffle=True, seed=7, batch_size=4)\nout = el(ds)"),
    "timeseries_shuffle_unbatched": (
        "ds = keras.utils.timeseries_dataset_from_array(np.arange(30), None, sequence_length=4, shuffle=True, seed=3,"
        " batch_size=None)\nout = (el(ds), ds.element_spec)"),
    "timeseries_targets_shorter": (
        "out = el(keras.utils.timeseries_dataset_from_array(np.arange(12), np.arange(5), sequence_length=3, batch_size=None))"),
    "timeseries_bad_stride": "out = keras.utils.timeseries_dataset_from_array(np.arange(10), None, 3, sequence_stride=0)",
    "timeseries_bad_start": "out = keras.utils.timeseries_dataset_from_array(np.arange(10), None, 3, start_index=10)",
}

TEXT = {
    "text_vectorization_dtypes": (
        "t = keras.layers.TextVectorization()\ns = keras.layers.StringLookup()\ni = keras.layers.IntegerLookup()\n"
        "out = (t.dtype, t.compute_dtype, t.variable_dtype, t.get_config()['dtype']['config']['name'],"
        " s.dtype, s.compute_dtype, i.dtype, i.compute_dtype)"),
    "text_vectorization_sequential_build": (
        "t = keras.layers.TextVectorization(output_mode='multi_hot', max_tokens=6)\nt.adapt(['a b c', 'a b', 'a'])\n"
        "model = keras.Sequential([t, keras.layers.Dense(1, kernel_initializer='ones')])\nmodel.build((None,))\n"
        "out = (model.inputs[0].dtype, model(tf.constant(['a c', 'b'])))"),
    "text_vectorization_float_input": "t = keras.layers.TextVectorization()\nt.adapt(['a b'])\nout = t(tf.constant([1.0, 2.0]))",
}

_TEXTS = "texts = ['The cat sat on the mat.', 'The dog ate my homework!', 'Cat and dog: friends?', ['Pre', 'split', 'cat']]\n"
LEGACY_PREPROCESSING = {
    "preprocessing_names": ("import importlib\n"
                            "out = sorted(n for n in dir(importlib.import_module(keras.__name__ + '.preprocessing')) if not n.startswith('_'))"),
    "text_to_word_sequence": ("T = keras.preprocessing.text\nout = (T.text_to_word_sequence('Hello, World!  a-b'),"
                              " T.text_to_word_sequence('A;B C', filters=';', lower=False), T.text_to_word_sequence('x|y', split='|'))"),
    "hashing_trick_md5": "out = keras.preprocessing.text.hashing_trick('The cat sat, the end', 7, hash_function='md5')",
    "tokenizer": (_TEXTS + "tok = keras.preprocessing.text.Tokenizer(num_words=8, oov_token='<oov>')\ntok.fit_on_texts(texts)\n"
                  "seqs = tok.texts_to_sequences(texts + ['unknown words cat'])\n"
                  "out = (tok.word_index, dict(tok.word_counts), dict(tok.word_docs), {str(k): v for k, v in tok.index_docs.items()},"
                  " tok.document_count, seqs, tok.sequences_to_texts(seqs),"
                  " [tok.texts_to_matrix(texts, mode=m) for m in ('binary', 'count', 'freq', 'tfidf')])"),
    "tokenizer_plain": (_TEXTS + "tok = keras.preprocessing.text.Tokenizer()\ntok.fit_on_texts(texts)\ntok.fit_on_sequences([[1, 2, 2], [3]])\n"
                        "out = (tok.texts_to_sequences(['the cat and a bird']), tok.sequences_to_matrix([[1, 2, 2], []], mode='tfidf'),"
                        " tok.sequences_to_texts([[1, 40, 2]]))"),
    "tokenizer_char_level_json": (
        "tok = keras.preprocessing.text.Tokenizer(char_level=True, lower=False)\ntok.fit_on_texts(['abca', 'Bca'])\n"
        "back = keras.preprocessing.text.tokenizer_from_json(tok.to_json())\n"
        "out = (tok.word_index, back.word_index, {str(k): v for k, v in back.index_word.items()}, back.texts_to_sequences(['cab']),"
        " sorted(tok.get_config()))"),
    "tokenizer_errors": "out = keras.preprocessing.text.Tokenizer().texts_to_matrix(['a'])",
    "tokenizer_bad_kwarg": "out = keras.preprocessing.text.Tokenizer(nb_wordz=3)",
    "sampling_table": "out = keras.preprocessing.sequence.make_sampling_table(6, sampling_factor=1e-3)",
    "skipgrams": ("import random\nS = keras.preprocessing.sequence\nrandom.seed(0)\n"
                  "a = S.skipgrams([1, 2, 0, 3, 4], 6, window_size=2, seed=5)\n"
                  "b = S.skipgrams([1, 2, 3], 5, window_size=1, negative_samples=0.5, categorical=True, shuffle=False)\n"
                  "c = S.skipgrams([1, 2, 3, 4, 5], 6, sampling_table=np.array([0.0, 1.0, 0.0, 1.0, 0.5, 0.5]), negative_samples=0, shuffle=False)\n"
                  "out = (a, b, c)"),
    "timeseries_generator": ("S = keras.preprocessing.sequence\ndata = np.arange(40.0).reshape(20, 2)\n"
                             "g = S.TimeseriesGenerator(data, np.arange(20), length=4, sampling_rate=2, stride=3, batch_size=2, start_index=1, end_index=17)\n"
                             "r = S.TimeseriesGenerator(data, np.arange(20), length=3, reverse=True, batch_size=5)\n"
                             "np.random.seed(3)\nsh = S.TimeseriesGenerator(data, np.arange(20), length=3, shuffle=True, batch_size=4)\n"
                             "out = (len(g), [g[i] for i in range(len(g))], len(r), r[3], sh[0], g.start_index, g.end_index)"),
    "timeseries_generator_errors": "out = keras.preprocessing.sequence.TimeseriesGenerator(np.arange(5), np.arange(4), length=2)",
    "timeseries_generator_too_long": "out = keras.preprocessing.sequence.TimeseriesGenerator(np.arange(5), np.arange(5), length=5)",
    "timeseries_generator_config": ("g = keras.preprocessing.sequence.TimeseriesGenerator(np.arange(5), np.arange(5), length=2)\n"
                                    "out = g.get_config()"),
}

CASES = {**BACKEND, **DATA, **TIMESERIES, **TEXT, **LEGACY_PREPROCESSING}


def run_case(tf, code: str):
    env = {"tf": tf, "np": np, "D": tf.data.Dataset, "keras": tf.keras, "K": tf.keras.backend,
           "el": lambda ds: list(ds.as_numpy_iterator())}
    try:
        exec(code, env)
    except Exception as e:  # noqa: BLE001  (the error is the recorded result)
        return encode(e)
    return encode(_plain(env["out"]))


def _plain(x):
    """Python values the encoder takes: ``map`` objects and dtypes of KerasTensors as lists/names."""
    if isinstance(x, map):
        return list(x)
    if isinstance(x, (list, tuple)):
        return type(x)(_plain(v) for v in x)
    if hasattr(x, "as_list") and not hasattr(x, "numpy"):  # a TensorShape
        return x.as_list()
    if hasattr(x, "name") and type(x).__name__ == "DType":
        return x.name
    return x


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help="print the results of cases whose name contains this")
    args = parser.parse_args(argv)
    from _tf import quiet_tensorflow  # (one inter-op thread deadlocks a tf.function iterating a dataset)
    tf = quiet_tensorflow()
    names = [n for n in CASES if args.only is None or args.only in n]
    results = {}
    for name in names:
        tf.random.set_seed(0)
        np.random.seed(0)
        first = run_case(tf, CASES[name])
        results[name] = {"code": CASES[name], "tf": first}
        if args.only is not None:
            print(name, json.dumps(first)[:3000])
    if args.only is None:
        with open(FIXTURE, "w", encoding="utf-8") as fh:
            json.dump({"tensorflow": tf.__version__, "cases": results}, fh, indent=1, sort_keys=True)
            fh.write("\n")
        print(f"wrote {len(results)} cases to {FIXTURE}")


if __name__ == "__main__":
    main()
