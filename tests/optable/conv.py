"""Op table: the conv family (tapegrad/ops/conv.py): convolutions and pooling."""
import tapegrad as tf
from optable import OpCase

IMG = ((2, 5, 5, 3),)


def _conv(x, w):
    return tf.nn.conv2d(x, w, strides=[1, 2, 1, 1], padding="SAME", dilations=1)


def _grad_of(f, x, w, g, wrt):
    """The gradient of ``f(x, w)`` with respect to ``x`` or ``w`` seeded with ``g`` (a backprop op)."""
    with tf.GradientTape() as tape:
        tape.watch([x, w])
        y = f(x, w)
    return tape.gradient(y, x if wrt == 0 else w, output_gradients=g)


def _mp(x):
    return tf.nn.max_pool2d(x, 3, 2, "SAME")


def _pool_grad(pool, x, g):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = pool(x)
    return tape.gradient(y, x, output_gradients=g)


def _ap(x):
    return tf.nn.avg_pool2d(x, [2, 3], [1, 2], "SAME")


CASES = [
    # convolutions
    OpCase("Conv2D", _conv, [((2, 5, 4, 3), (3, 2, 3, 2))]),
    OpCase("Conv2D-valid-dilated", lambda x, w: tf.nn.conv2d(x, w, 1, "VALID", dilations=[2, 1]),
           [((1, 6, 5, 2), (2, 3, 2, 2))], ops=("Conv2D",)),
    OpCase("Conv2D-explicit-grouped", lambda x, w: tf.nn.conv2d(x, w, 2, [[0, 0], [1, 2], [0, 1], [0, 0]]),
           [((1, 5, 5, 4), (3, 3, 2, 4))], ops=("Conv2D",)),
    OpCase("Conv2D-batch-axes-NCHW", lambda x, w: tf.nn.conv2d(x, w, 1, "SAME", data_format="NCHW"),
           [((2, 1, 2, 4, 4), (2, 2, 2, 1))], ops=("Conv2D",)),
    OpCase("conv1d", lambda x, w: tf.nn.conv1d(x, w, 2, "SAME", dilations=1), [((2, 7, 2), (3, 2, 3))],
           ops=("Conv2D",)),
    OpCase("depthwise_conv2d", lambda x, w: tf.nn.depthwise_conv2d(x, w, [1, 1, 1, 1], "SAME", dilations=[1, 2]),
           [((1, 4, 5, 2), (2, 2, 2, 2))], ops=("Conv2D",)),
    OpCase("Conv2DBackpropInput", lambda g, w: tf.nn.conv2d_transpose(g, w, [2, 5, 4, 3], [1, 2, 1, 1], "SAME"),
           [((2, 3, 4, 2), (3, 2, 3, 2))]),
    OpCase("Conv2DBackpropInput-via-tape", lambda x, w, g: _grad_of(_conv, x, w, g, 0),
           [((2, 5, 4, 3), (3, 2, 3, 2), (2, 3, 4, 2))], ops=("Conv2DBackpropInput",)),
    OpCase("conv1d_transpose", lambda g, w: tf.nn.conv1d_transpose(g, w, [2, 7, 2], 2, "SAME", dilations=1),
           [((2, 4, 3), (3, 2, 3))], ops=("Conv2DBackpropInput",)),
    OpCase("separable_conv2d", lambda x, d, p: tf.nn.separable_conv2d(x, d, p, [1, 1, 1, 1], "SAME", dilations=[2, 1]),
           [((1, 5, 4, 2), (2, 2, 2, 2), (1, 1, 4, 3))], ops=("Conv2D",)),
    OpCase("Conv2DBackpropFilter", lambda x, w, g: _grad_of(_conv, x, w, g, 1),
           [((2, 5, 4, 3), (3, 2, 3, 2), (2, 3, 4, 2))]),
    OpCase("Conv2DBackpropFilter-grouped", lambda x, w, g: _grad_of(
        lambda a, b: tf.nn.conv2d(a, b, 1, "VALID"), x, w, g, 1),
        [((1, 4, 4, 4), (2, 2, 2, 4), (1, 3, 3, 4))], ops=("Conv2DBackpropFilter",)),
    # pooling
    OpCase("MaxPool", _mp, [IMG]),
    OpCase("MaxPool1d-valid", lambda x: tf.nn.max_pool1d(x, 2, 1, "VALID"), [((2, 5, 3),)], ops=("MaxPool",)),
    OpCase("MaxPoolGrad", lambda x, g: _pool_grad(_mp, x, g), [((2, 5, 5, 3), (2, 3, 3, 3))],
           ops=("MaxPoolGrad", "MaxPoolGradGrad")),
    OpCase("AvgPool", _ap, [IMG]),
    OpCase("AvgPool1d-valid", lambda x: tf.nn.avg_pool1d(x, 3, 2, "VALID"), [((2, 7, 3),)], ops=("AvgPool",)),
    OpCase("AvgPoolGrad", lambda x, g: _pool_grad(_ap, x, g), [((2, 5, 5, 3), (2, 5, 3, 3))]),
    OpCase("conv3d", lambda x, w: tf.nn.conv3d(x, w, [1, 2, 1, 1, 1], "SAME"), [((1, 3, 3, 2, 2), (2, 2, 1, 2, 2))],
           ops=("Conv2D",)),
    OpCase("max_pool3d", lambda x: tf.nn.max_pool3d(x, [2, 2, 1], [1, 1, 1], "SAME"), [((1, 3, 2, 2, 2),)],
           ops=("MaxPool",)),
    OpCase("avg_pool3d", lambda x: tf.nn.avg_pool3d(x * x, [2, 1, 2], [2, 1, 1], "SAME"), [((1, 3, 2, 3, 1),)],
           ops=("AvgPool",)),
    OpCase("conv3d_transpose", lambda x, w: tf.nn.conv3d_transpose(x, w, [1, 3, 3, 2, 2], [1, 2, 1, 2, 1], "SAME"),
           [((1, 2, 3, 1, 2), (2, 2, 1, 2, 2))], ops=("Conv2DBackpropInput",)),
    # patches (linear: squared first so that second order is not trivially zero)
    OpCase("ExtractImagePatches", lambda x: tf.image.extract_patches(x * x, [1, 2, 3, 1], [1, 2, 1, 1], [1, 1, 2, 1],
                                                                     "SAME"), [((2, 4, 5, 2),)]),
    OpCase("ExtractImagePatches-valid-batch-axes", lambda x: tf.image.extract_patches(
        x * x, [1, 2, 2, 1], [1, 1, 2, 1], [1, 2, 1, 1], "VALID"), [((2, 5, 4, 1),)], ops=("ExtractImagePatches",)),
    OpCase("ExtractVolumePatches", lambda x: tf.extract_volume_patches(x * x, [1, 2, 1, 2, 1], [1, 1, 2, 2, 1],
                                                                       "SAME"), [((1, 3, 3, 3, 2),)]),
    OpCase("ExtractPatchesGrad", lambda x, g: _pool_grad(
        lambda a: tf.image.extract_patches(a * a, [1, 2, 2, 1], [1, 1, 2, 1], [1, 1, 1, 1], "SAME"), x, g),
        [((1, 3, 4, 2), (1, 3, 2, 8))]),
    OpCase("MaxPoolArgmax", lambda x: tf.nn.max_pool_with_argmax(x, 2, 1, "SAME")[1], [((1, 3, 3, 2),)], nondiff=True),
]
