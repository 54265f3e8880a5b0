"""tf.image programs run by TensorFlow (tools/record_tf_signal_image.py records their results in
tests/fixtures/tf_signal_image.npz) and by tapegrad (tests/test_image.py compares). Each takes the
``tf`` module and returns a list of arrays."""
import numpy as np

from signal_programs import _data, _grads, _np

METHODS = ["bilinear", "nearest", "bicubic", "area", "lanczos3", "lanczos5", "gaussian", "mitchellcubic"]


def resize_methods(tf):
    img = _data((2, 7, 9, 3), np.float32, seed=3)
    out = []
    for m in METHODS:
        for size in ([4, 5], [11, 14], [7, 3], [1, 1]):
            out.append(tf.image.resize(img, size, method=m))
        out.append(tf.image.resize(img[0], [5, 13], method=m, antialias=True))
    u8 = (_data((6, 5, 2), np.float64, seed=4, lo=0, hi=255)).astype(np.uint8)
    out += [tf.image.resize(u8, [9, 4], "nearest"), tf.image.resize(u8, [9, 4]),
            tf.image.resize(u8.astype(np.float64), [3, 8], "bicubic"),
            tf.image.resize(img, [6, 6], preserve_aspect_ratio=True),
            tf.image.resize(img, [20, 5], preserve_aspect_ratio=True, method="area")]
    return _np(out)


def resize_gradients(tf):
    img = _data((1, 5, 6, 2), np.float32, seed=5)
    out = []
    for m in ("bilinear", "nearest", "bicubic"):
        for size in ([3, 4], [8, 11]):
            out += _grads(tf, lambda x: tf.image.resize(x, size, method=m), img)
    out += _grads(tf, lambda x: tf.image.resize(x, [3, 2], antialias=True), img)
    out += _grads(tf, lambda x: tf.image.resize(x, [9, 7], method="lanczos3"), img)
    return _np(out)


def geometry(tf):
    img = _data((5, 7, 3), np.float32, seed=6)
    batch = _data((2, 6, 4, 1), np.float32, seed=7)
    out = [tf.image.flip_left_right(img), tf.image.flip_up_down(img), tf.image.flip_left_right(batch),
           tf.image.flip_up_down(batch), tf.image.transpose(img), tf.image.transpose(batch)]
    out += [tf.image.rot90(img, k) for k in range(5)] + [tf.image.rot90(batch, 3)]
    out += [tf.image.central_crop(img, f) for f in (0.5, 0.33, 0.9, 1.0)] + [tf.image.central_crop(batch, 0.6)]
    out += [tf.image.crop_to_bounding_box(img, 1, 2, 3, 4), tf.image.pad_to_bounding_box(img, 2, 1, 9, 10),
            tf.image.crop_to_bounding_box(batch, 0, 1, 5, 2), tf.image.pad_to_bounding_box(batch, 0, 3, 6, 8)]
    for th, tw in ((3, 3), (9, 10), (4, 12), (8, 2)):
        out += [tf.image.resize_with_crop_or_pad(img, th, tw), tf.image.resize_with_pad(img, th, tw)]
    out += [tf.image.resize_with_pad(batch, 5, 5, method="nearest"),
            tf.image.resize_with_pad(batch, 7, 3, antialias=True)]
    return _np(out)


def random_ops(tf):
    img = _data((4, 5, 3), np.float32, seed=8)
    batch = _data((6, 3, 3, 1), np.float32, seed=9)
    out = []
    tf.random.set_seed(1234)
    for seed in (1, 2, 3, 4):
        out += [tf.image.random_flip_left_right(img, seed=seed), tf.image.random_flip_up_down(img, seed=seed),
                tf.image.random_flip_left_right(batch, seed=seed), tf.image.random_crop(img, [2, 3, 3], seed=seed)]
    return _np(out)


def colour(tf):
    img = _data((2, 4, 5, 3), np.float32, seed=10, lo=0, hi=1)
    u8 = (_data((3, 4, 3), np.float64, seed=11, lo=0, hi=255)).astype(np.uint8)
    out = [tf.image.per_image_standardization(img), tf.image.per_image_standardization(u8),
           tf.image.per_image_standardization(np.ones((2, 2, 1), np.float32)),
           tf.image.adjust_brightness(img, 0.2), tf.image.adjust_brightness(u8, 0.3),
           tf.image.adjust_brightness(u8, -0.7),
           tf.image.adjust_contrast(img, 1.7), tf.image.adjust_contrast(u8, 0.4), tf.image.adjust_contrast(u8, 3.0),
           tf.image.adjust_gamma(img, 2.2, 1.3), tf.image.adjust_gamma(u8, 0.5), tf.image.adjust_gamma(img.astype(np.float64), 1.5),
           tf.image.rgb_to_grayscale(img), tf.image.rgb_to_grayscale(u8), tf.image.grayscale_to_rgb(tf.constant(img[..., :1])),
           tf.image.rgb_to_hsv(img), tf.image.hsv_to_rgb(img), tf.image.rgb_to_hsv(tf.constant(img.astype(np.float64))),
           tf.image.rgb_to_hsv(np.array([[0, 0, 0], [1, 1, 1], [0.5, 0.5, 0.2], [0.2, 0.5, 0.5], [1, 0, 1]], np.float32)),
           tf.image.adjust_saturation(img, 0.3), tf.image.adjust_saturation(img, 2.5), tf.image.adjust_saturation(u8, 1.5),
           tf.image.adjust_hue(img, 0.2), tf.image.adjust_hue(img, -0.45), tf.image.adjust_hue(u8, 0.1)]
    out += _grads(tf, tf.image.per_image_standardization, img[0])
    out += _grads(tf, tf.image.rgb_to_grayscale, img[0])
    out += _grads(tf, tf.image.rgb_to_hsv, img[0])
    return _np(out)


def dtypes_and_stats(tf):
    f = _data((3, 4, 2), np.float32, seed=12, lo=-0.2, hi=1.2)
    u8 = (_data((3, 4, 2), np.float64, seed=13, lo=0, hi=255)).astype(np.uint8)
    i32 = (_data((2, 3, 1), np.float64, seed=14, lo=0, hi=2**31 - 1)).astype(np.int32)
    out = [tf.image.convert_image_dtype(u8, tf.float32), tf.image.convert_image_dtype(u8, tf.float64),
           tf.image.convert_image_dtype(u8, tf.int32), tf.image.convert_image_dtype(u8, tf.uint16),
           tf.image.convert_image_dtype(i32, tf.uint8), tf.image.convert_image_dtype(i32, tf.float32),
           tf.image.convert_image_dtype(f, tf.uint8, saturate=True), tf.image.convert_image_dtype(f[..., :1] * 0 + 0.5, tf.uint8),
           tf.image.convert_image_dtype(f, tf.float16), tf.image.convert_image_dtype(np.clip(f, 0, 1), tf.int32)]
    batch = _data((2, 5, 6, 3), np.float32, seed=15, lo=0, hi=1)
    other = _data((2, 5, 6, 3), np.float32, seed=16, lo=0, hi=1)
    out += list(tf.image.image_gradients(tf.constant(batch)))
    out += [tf.image.total_variation(tf.constant(batch)), tf.image.total_variation(tf.constant(batch[0])),
            tf.image.psnr(batch, other, 1.0), tf.image.psnr(u8, u8 // 2 + 3, 255)]
    big = _data((2, 16, 18, 3), np.float32, seed=17, lo=0, hi=1)
    big2 = np.clip(big + _data((2, 16, 18, 3), np.float32, seed=18, lo=-0.1, hi=0.1), 0, 1)
    out += [tf.image.ssim(big, big2, 1.0), tf.image.ssim(big[0], big2[0], 1.0, filter_size=5, filter_sigma=0.8)]
    out += _grads(tf, tf.image.total_variation, batch)
    out += _grads(tf, lambda a: tf.image.ssim(a, tf.constant(big2), 1.0), big)
    return _np(out)


def jitter_and_spaces(tf):
    img = _data((4, 5, 3), np.float32, seed=19, lo=0, hi=1)
    batch = _data((3, 4, 4, 3), np.float32, seed=20, lo=0, hi=1)
    out = []
    tf.random.set_seed(77)
    for seed in (None, 5):
        out += [tf.image.random_brightness(img, 0.3, seed=seed), tf.image.random_contrast(img, 0.2, 1.8, seed=seed),
                tf.image.random_saturation(img, 0.1, 2.0, seed=seed), tf.image.random_hue(img, 0.4, seed=seed)]
    for seed in ((1, 2), (3, 4)):
        out += [tf.image.stateless_random_brightness(img, 0.3, seed), tf.image.stateless_random_contrast(img, 0.2, 1.8, seed),
                tf.image.stateless_random_saturation(img, 0.1, 2.0, seed), tf.image.stateless_random_hue(img, 0.4, seed),
                tf.image.stateless_random_flip_left_right(img, seed), tf.image.stateless_random_flip_up_down(batch, seed),
                tf.image.stateless_random_crop(img, [2, 3, 3], seed)]
    out += [tf.image.rgb_to_yiq(img), tf.image.yiq_to_rgb(img), tf.image.rgb_to_yuv(img), tf.image.yuv_to_rgb(img),
            tf.image.sobel_edges(tf.constant(batch))]
    out += _grads(tf, tf.image.sobel_edges, batch)
    return _np(out)


PROGRAMS = {f.__name__: f for f in (resize_methods, resize_gradients, geometry, random_ops, colour, dtypes_and_stats,
                                    jitter_and_spaces)}
