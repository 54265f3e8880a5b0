"""The cases of tools/record_tf_extract_patches.py, shared with tests/test_extract_patches.py: the
same code runs TensorFlow's and Keras's ops there and tapegrad's here (``tf``/``keras`` passed in).

A case is ``(function name, input shape, dtype, arguments)``; its output and the gradient of
``sum(out * weights_for(out.shape))`` with respect to the input are recorded.
"""
import numpy as np

from keras_core_cases import weights_for

CASES = {
    "image_valid": ("image", (2, 5, 6, 3), "float32", ([1, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1], "VALID")),
    "image_valid_strided": ("image", (2, 7, 6, 2), "float32", ([1, 3, 2, 1], [1, 2, 3, 1], [1, 1, 1, 1], "VALID")),
    "image_same_strided": ("image", (1, 5, 7, 3), "float32", ([1, 3, 3, 1], [1, 2, 2, 1], [1, 1, 1, 1], "SAME")),
    "image_same_even_window": ("image", (2, 6, 5, 1), "float64", ([1, 2, 4, 1], [1, 3, 1, 1], [1, 1, 1, 1], "SAME")),
    "image_valid_rates": ("image", (1, 7, 8, 2), "float32", ([1, 2, 3, 1], [1, 1, 2, 1], [1, 2, 3, 1], "VALID")),
    "image_same_rates_strides": ("image", (2, 6, 7, 2), "float64", ([1, 3, 2, 1], [1, 2, 3, 1], [1, 2, 2, 1],
                                                                   "SAME")),
    "image_window_bigger_than_input": ("image", (1, 3, 4, 2), "float32", ([1, 4, 2, 1], [1, 2, 1, 1], [1, 1, 1, 1],
                                                                           "VALID")),
    "image_same_window_bigger_than_input": ("image", (1, 2, 3, 1), "float32", ([1, 4, 5, 1], [1, 1, 2, 1],
                                                                                [1, 1, 1, 1], "SAME")),
    "image_int32": ("image", (1, 4, 4, 2), "int32", ([1, 2, 2, 1], [1, 2, 1, 1], [1, 1, 1, 1], "SAME")),
    "image_1x1": ("image", (2, 3, 3, 4), "float32", ([1, 1, 1, 1], [1, 2, 2, 1], [1, 1, 1, 1], "VALID")),
    "volume_valid": ("volume", (2, 4, 5, 3, 2), "float32", ([1, 2, 2, 2, 1], [1, 1, 2, 1, 1], "VALID")),
    "volume_same": ("volume", (1, 3, 4, 5, 2), "float64", ([1, 2, 3, 2, 1], [1, 2, 1, 3, 1], "SAME")),
    "keras_2d_default_strides": ("keras", (2, 6, 6, 3), "float32", ((2, 3),), {}),
    "keras_2d_same_dilated": ("keras", (2, 5, 6, 2), "float32", (3,), {"strides": 1, "dilation_rate": 2,
                                                                       "padding": "same"}),
    "keras_2d_unbatched": ("keras", (5, 6, 2), "float32", ((2, 2), (1, 2)), {}),
    "keras_2d_channels_first": ("keras", (2, 3, 5, 6), "float32", ((2, 3),), {"strides": (1, 2),
                                                                            "data_format": "channels_first"}),
    "keras_3d": ("keras", (2, 4, 5, 6, 2), "float32", ((2, 2, 3),), {"padding": "same"}),
}


def _value(shape, dtype):
    n = int(np.prod(shape))
    x = np.sin(0.37 * np.arange(n) + 0.2).reshape(shape) * 3
    return x.astype(np.int32) if dtype == "int32" else x.astype(dtype)


def run_case(tf, keras, name):
    """``{"out": ..., "grad": ...}`` (no gradient for integers)."""
    kind, shape, dtype, args = CASES[name][:4]
    kw = CASES[name][4] if len(CASES[name]) > 4 else {}
    x = tf.constant(_value(shape, dtype))

    def f(v):
        if kind == "image":
            return tf.image.extract_patches(v, *args)
        if kind == "volume":
            return tf.extract_volume_patches(v, *args)
        return keras.ops.image.extract_patches(v, *args, **kw)
    if dtype == "int32":
        return {"out": np.asarray(f(x)).tolist(), "grad": None}
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
        loss = tf.reduce_sum(y * tf.constant(weights_for(y.shape).astype(dtype)))
    return {"out": np.asarray(y).tolist(), "grad": np.asarray(tape.gradient(loss, x)).tolist()}


def _patches(tf, shape, *args):
    return tf.image.extract_patches(tf.zeros(shape), *args)


# bad arguments: (function, arguments) -> TensorFlow's exception type
ERROR_CASES = {
    "rank_3_input": lambda tf: _patches(tf, (5, 6, 3), [1, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1], "VALID"),
    "size_on_depth": lambda tf: _patches(tf, (1, 5, 6, 3), [1, 2, 2, 2], [1, 1, 1, 1], [1, 1, 1, 1], "VALID"),
    "stride_on_batch": lambda tf: _patches(tf, (1, 5, 6, 3), [1, 2, 2, 1], [2, 1, 1, 1], [1, 1, 1, 1], "VALID"),
    "three_sizes": lambda tf: _patches(tf, (1, 5, 6, 3), [2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1], "VALID"),
    "lower_case_padding": lambda tf: _patches(tf, (1, 5, 6, 3), [1, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1], "same"),
    "zero_size": lambda tf: _patches(tf, (1, 5, 6, 3), [1, 0, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1], "VALID"),
    "window_far_too_big": lambda tf: _patches(tf, (1, 5, 6, 3), [1, 9, 2, 1], [1, 2, 1, 1], [1, 1, 1, 1], "VALID"),
    "string_input": lambda tf: tf.image.extract_patches(tf.constant([[[["a"]]]]), [1, 1, 1, 1], [1, 1, 1, 1],
                                                         [1, 1, 1, 1], "VALID"),
    "volume_rank_4": lambda tf: tf.extract_volume_patches(tf.zeros((4, 5, 6, 2)), [1, 2, 2, 2, 1], [1, 1, 1, 1, 1],
                                                          "VALID"),
}


def run_error_case(tf, name):
    """The exception type's name, or ``"ok"`` with the output's shape."""
    try:
        y = ERROR_CASES[name](tf)
    except Exception as e:  # noqa: BLE001  (the type is what is recorded)
        return type(e).__name__
    return ["ok", list(y.shape)]
