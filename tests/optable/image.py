"""Op table: tf.image's compositions (tapegrad/image.py declares no primitive of its own; these
rows run the gradient checker over resizing and the colour ops, float64 inputs cast as TF does)."""
import tapegrad as tf
import tapegrad.image  # noqa: F401  (tf.image loads on first use)
from optable import OpCase


def _f64(f):
    return lambda x: tf.cast(f(x), tf.float64)


CASES = [
    OpCase(f"resize-{m}", lambda x, m=m: tf.image.resize(x, [3, 5], method=m), [((4, 3, 2),), ((1, 2, 6, 1),)],
           ops=(), rtol=1e-3, atol=1e-3, eps=1e-3)
    for m in ("bilinear", "nearest", "bicubic", "area", "lanczos3")
] + [
    OpCase("resize-antialias", lambda x: tf.image.resize(x, [2, 2], antialias=True), [((5, 4, 1),)], ops=(),
           rtol=1e-3, atol=1e-3, eps=1e-3),
    OpCase("rgb_to_hsv", tf.image.rgb_to_hsv, [((2, 3),)], ops=(), domain=(0.05, 0.95)),
    OpCase("hsv_to_rgb", tf.image.hsv_to_rgb, [((2, 3),)], ops=(), domain=(0.05, 0.95)),
    OpCase("adjust_hue", lambda x: tf.image.adjust_hue(x, 0.1), [((1, 2, 3),)], ops=(), domain=(0.05, 0.95)),
    OpCase("per_image_standardization", _f64(tf.image.per_image_standardization), [((2, 3, 1),)], ops=(),
           rtol=1e-3, atol=1e-3, eps=1e-3),
    OpCase("adjust_contrast", lambda x: tf.image.adjust_contrast(x, 1.5), [((2, 2, 3),)], ops=()),
    OpCase("total_variation", tf.image.total_variation, [((3, 3, 1),)], ops=(), order=1),
    OpCase("ssim", lambda a, b: tf.image.ssim(a, b, 1.0, filter_size=3), [((4, 4, 1), (4, 4, 1))], ops=(),
           domain=(0.0, 1.0), rtol=1e-3, atol=1e-3, eps=1e-3),
]
