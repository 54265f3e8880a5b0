"""Op table: tf.nn activations, normalisation, convolutions, pooling, dropout and tf.random."""
import tapegrad as tf
from optable import OpCase

S = [((),), ((3,),), ((2, 3),)]
IMG = ((2, 5, 5, 3),)


def _grad_of(f, x, w, g, wrt):
    """The gradient of ``f(x, w)`` with respect to ``x`` or ``w`` seeded with ``g`` (a backprop op)."""
    with tf.GradientTape() as tape:
        tape.watch([x, w])
        y = f(x, w)
    return tape.gradient(y, x if wrt == 0 else w, output_gradients=g)


def _pool_grad(pool, x, g):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = pool(x)
    return tape.gradient(y, x, output_gradients=g)


def _dropout(x):
    tf.random.set_seed(3)
    return tf.nn.dropout(x, rate=0.4, seed=7)


def _conv(x, w):
    return tf.nn.conv2d(x, w, strides=[1, 2, 1, 1], padding="SAME", dilations=1)


def _mp(x):
    return tf.nn.max_pool2d(x, 3, 2, "SAME")


def _ap(x):
    return tf.nn.avg_pool2d(x, [2, 3], [1, 2], "SAME")


CASES = [
    # activations
    OpCase("Relu6", tf.nn.relu6, S, domain=(-2.0, 8.0), ops=("Relu6", "Relu6Grad")),
    OpCase("Elu", tf.nn.elu, S),
    OpCase("Selu", tf.nn.selu, S),
    OpCase("LeakyRelu", lambda x: tf.nn.leaky_relu(x, alpha=0.3), S,
           ops=("LeakyRelu", "LeakyReluGrad")),
    OpCase("Softsign", tf.nn.softsign, S),
    OpCase("gelu", tf.nn.gelu, S, ops=("Erf", "Mul", "AddV2")),
    OpCase("gelu-approximate", lambda x: tf.nn.gelu(x, approximate=True), S, ops=("Tanh", "Pow")),
    OpCase("silu", lambda x: tf.nn.silu(x) + tf.nn.swish(x, beta=1.5), S, ops=("Sigmoid",)),
    # losses and normalisation
    OpCase("l2_loss", tf.nn.l2_loss, S, ops=("Square", "Sum")),
    OpCase("moments", lambda x: tf.nn.moments(x, axes=[0]), [((3,),), ((4, 3),)], ops=("Mean", "Square")),
    OpCase("moments-keepdims", lambda x: tf.nn.moments(x, axes=[-1, 0], keepdims=True), [((2, 3, 4),)],
           ops=("Mean",)),
    OpCase("batch_normalization",
           lambda x, m, v, b, s: tf.nn.batch_normalization(x, m, v, b, s, 1e-3),
           [((4, 3), (3,), (3,), (3,), (3,))], domain=[(-2, 2), (-1, 1), (0.5, 2), (-1, 1), (0.5, 2)],
           ops=("Rsqrt",)),
    OpCase("bias_add", lambda x, b: tf.nn.bias_add(x, b) + tf.nn.bias_add(x, b, data_format="NCHW"),
           [((2, 3, 3), (3,))], ops=("AddV2",)),
    OpCase("dropout", _dropout, [((4, 5),)], ops=("SelectV2",)),
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
    # random
    OpCase("RandomShuffle", lambda x: tf.random.shuffle(x, seed=1), [((4, 2),)], nondiff=True),
]
