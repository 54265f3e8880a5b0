"""The cases of tools/record_keras_augmentation_more.py, shared with
tests/test_keras_augmentation_more.py: Keras 3's newer image augmentation layers, seeded (the
``seed`` argument, or ``keras.utils.set_random_seed`` with none), called directly (several calls
in a row: the generator moves on), batched and unbatched, channels first, with dict inputs
(images and labels), in a model's forward and through ``tf.data.Dataset.map``.

``run(name, tf, keras)`` gives the case's outputs as nested lists (TensorFlow and Keras when
recorded, tapegrad when replayed)."""
import numpy as np

L = dict


def _images(shape, scale=255.0, seed=0):
    return (np.random.RandomState(seed).uniform(0, 1, shape) * scale).astype(np.float32)


# name: (layer class, kwargs, input shape, options); options: mode ("call", "dict", "model",
# "dataset", "global", "boxes", "masks"), calls (direct calls in a row), training, scale (pixel range), labels
# (classes), pyseed (keras.utils.set_random_seed first), boxes (bounding boxes an image)
CASES = {
    "mixup": ("MixUp", L(alpha=0.2, seed=1), (4, 3, 3, 3), L(mode="dict", labels=3)),
    "mixup_alpha1_calls": ("MixUp", L(alpha=1.0, seed=7), (3, 2, 3, 2), L(calls=2)),
    "mixup_single": ("MixUp", L(seed=3), (3, 3, 3), L()),
    "mixup_infer": ("MixUp", L(seed=3), (2, 2, 2, 3), L(training=False)),
    "mixup_model": ("MixUp", L(alpha=0.4, seed=5), (3, 2, 2, 3), L(mode="model")),
    "cutmix": ("CutMix", L(seed=1), (4, 6, 5, 3), L(mode="dict", labels=4)),
    "cutmix_factor_calls": ("CutMix", L(factor=(0.3, 0.8), seed=9), (3, 5, 5, 2), L(calls=2)),
    "cutmix_single": ("CutMix", L(seed=2), (4, 4, 3), L()),
    "cutmix_channels_first": ("CutMix", L(seed=4, data_format="channels_first"), (3, 2, 4, 5), L()),
    "hue": ("RandomHue", L(factor=0.5, seed=1), (3, 3, 4, 3), L(calls=2)),
    "hue_unit_range": ("RandomHue", L(factor=(0.2, 0.9), value_range=(0, 1), seed=4), (2, 3, 3, 3),
                       L(scale=1.0)),
    "hue_single": ("RandomHue", L(factor=0.8, seed=6), (3, 2, 3), L()),
    "hue_dataset": ("RandomHue", L(factor=0.5, seed=3), (3, 2, 2, 3), L(mode="dataset")),
    "hue_global": ("RandomHue", L(factor=0.5), (2, 2, 2, 3), L(mode="global")),
    "saturation": ("RandomSaturation", L(factor=(0.3, 0.8), value_range=(0, 1), seed=2), (3, 3, 3, 3),
                   L(scale=1.0, calls=2)),
    "saturation_number": ("RandomSaturation", L(factor=0.5, value_range=(0, 1), seed=5), (2, 2, 3, 3),
                          L(scale=1.0)),
    "saturation_channels_first": ("RandomSaturation", L(factor=(0.6, 0.9), value_range=(0, 1), seed=8,
                                                        data_format="channels_first"), (2, 3, 2, 3), L(scale=1.0)),
    "grayscale": ("RandomGrayscale", L(factor=0.5, seed=3), (6, 2, 2, 3), L(calls=2)),
    "grayscale_single": ("RandomGrayscale", L(factor=1.0, seed=1), (2, 3, 3), L()),
    "grayscale_model": ("RandomGrayscale", L(factor=0.5, seed=11), (4, 2, 2, 3), L(mode="model")),
    "jitter_all": ("RandomColorJitter", L(value_range=(0, 255), brightness_factor=0.2, contrast_factor=0.3,
                                          saturation_factor=(0.4, 0.6), hue_factor=0.2, seed=5), (3, 3, 3, 3),
                   L(calls=2)),
    "jitter_brightness_hue": ("RandomColorJitter", L(value_range=(0, 1), brightness_factor=(-0.2, 0.3),
                                                     hue_factor=0.5, seed=2), (2, 2, 3, 3), L(scale=1.0)),
    "jitter_single": ("RandomColorJitter", L(contrast_factor=0.5, saturation_factor=0.5, seed=3), (3, 3, 3), L()),
    "jitter_dataset": ("RandomColorJitter", L(brightness_factor=0.3, contrast_factor=0.3, seed=6), (3, 2, 2, 3),
                       L(mode="dataset")),
    "degeneration": ("RandomColorDegeneration", L(factor=0.5, seed=1), (3, 2, 3, 3), L(calls=2)),
    "degeneration_pair": ("RandomColorDegeneration", L(factor=(0.2, 0.9), value_range=(0, 1), seed=7),
                          (2, 3, 3, 3), L(scale=1.0)),
    "invert": ("RandomInvert", L(factor=0.5, seed=2), (6, 2, 2, 1), L(calls=2)),
    "invert_single": ("RandomInvert", L(factor=(0.9, 1.0), value_range=(0, 1), seed=1), (2, 2, 3), L(scale=1.0)),
    "solarization": ("Solarization", L(addition_factor=0.3, threshold_factor=(0.2, 0.7), seed=3), (3, 3, 3, 2),
                     L(calls=2)),
    "solarization_plain": ("Solarization", L(value_range=(0, 1)), (2, 2, 2, 3), L(scale=1.0)),
    "solarization_infer": ("Solarization", L(addition_factor=0.5, seed=1), (2, 2, 2, 1), L(training=False)),
    "posterization": ("RandomPosterization", L(factor=(2, 6), seed=4), (4, 2, 3, 3), L(calls=2)),
    "posterization_fixed_unit": ("RandomPosterization", L(factor=(3, 3), value_range=(0, 1)), (2, 2, 2, 3),
                                 L(scale=1.0)),
    "sharpness": ("RandomSharpness", L(factor=0.8, seed=2), (3, 4, 4, 3), L(calls=2)),
    "sharpness_channels_first": ("RandomSharpness", L(factor=(0.1, 0.9), value_range=(0, 1), seed=6,
                                                      data_format="channels_first"), (2, 2, 4, 3), L(scale=1.0)),
    "auto_contrast": ("AutoContrast", L(), (3, 3, 4, 3), L(scale=100.0)),
    "auto_contrast_unit_single": ("AutoContrast", L(value_range=(0, 1)), (3, 3, 2), L(scale=0.5)),
    "auto_contrast_channels_first": ("AutoContrast", L(data_format="channels_first"), (2, 3, 4, 5), L(scale=90.0)),
    "auto_contrast_infer": ("AutoContrast", L(), (2, 2, 2, 1), L(training=False, scale=80.0)),
    "equalization": ("Equalization", L(), (2, 4, 4, 3), L()),
    "equalization_bins_range": ("Equalization", L(value_range=(0, 1), bins=16), (2, 3, 5, 2), L(scale=1.0)),
    "equalization_single": ("Equalization", L(bins=64), (5, 4, 3), L()),
    "erasing": ("RandomErasing", L(seed=1), (3, 5, 6, 3), L(calls=2)),
    "erasing_fill": ("RandomErasing", L(factor=0.7, scale=(0.1, 0.5), fill_value=0.0, seed=3), (4, 6, 6, 1), L()),
    "erasing_fill3_single": ("RandomErasing", L(scale=0.5, fill_value=[10.0, 20.0, 30.0], seed=5), (5, 5, 3), L()),
    "erasing_model": ("RandomErasing", L(value_range=(0, 1), seed=2), (2, 4, 4, 3), L(mode="model", scale=1.0)),
    "blur": ("RandomGaussianBlur", L(seed=1), (3, 5, 5, 3), L(calls=2)),
    "blur_kernel5": ("RandomGaussianBlur", L(factor=(0.5, 1.0), kernel_size=5, sigma=(0.3, 0.9), seed=4),
                     (2, 6, 6, 2), L()),
    "blur_single_cf": ("RandomGaussianBlur", L(seed=3, data_format="channels_first"), (2, 5, 4), L()),
    "blur_global": ("RandomGaussianBlur", L(), (2, 4, 4, 1), L(mode="global")),
    "shear": ("RandomShear", L(x_factor=0.3, y_factor=(0.1, 0.4), seed=2), (3, 5, 6, 2), L(calls=2)),
    "shear_constant_nearest": ("RandomShear", L(x_factor=0.5, fill_mode="constant", interpolation="nearest",
                                                fill_value=7.0, seed=5), (2, 6, 5, 1), L()),
    "shear_single_cf": ("RandomShear", L(y_factor=0.4, seed=1, data_format="channels_first"), (2, 5, 5), L()),
    "perspective": ("RandomPerspective", L(scale=0.4, seed=3), (3, 6, 6, 2), L(calls=2)),
    "perspective_factor_fill": ("RandomPerspective", L(factor=(0.4, 0.9), scale=0.8, fill_value=50.0, seed=8),
                                (4, 5, 6, 1), L()),
    "rand_augment": ("RandAugment", L(seed=3), (2, 6, 6, 3), L(calls=4)),
    "rand_augment_ops3": ("RandAugment", L(value_range=(0, 1), num_ops=3, factor=0.8, seed=11), (2, 5, 5, 3),
                          L(calls=3, scale=1.0)),
    "rand_augment_single": ("RandAugment", L(num_ops=4, seed=5), (5, 5, 3), L(calls=2)),
    "rand_augment_dataset": ("RandAugment", L(seed=7), (3, 4, 4, 3), L(mode="dataset")),
    "aug_mix": ("AugMix", L(seed=2), (2, 5, 5, 3), L(calls=3, pyseed=True)),
    "aug_mix_few_ops": ("AugMix", L(value_range=(0, 1), num_chains=2, chain_depth=4, factor=0.6, alpha=0.5,
                                    all_ops=False, seed=6), (2, 4, 4, 3), L(calls=2, scale=1.0, pyseed=True)),
    "aug_mix_global": ("AugMix", L(), (2, 4, 4, 3), L(mode="global")),
    "elastic": ("RandomElasticTransform", L(seed=1), (2, 24, 22, 2), L(calls=2)),
    "elastic_constant_nearest": ("RandomElasticTransform", L(scale=(0.5, 1.0), fill_mode="constant",
                                                             interpolation="nearest", fill_value=9.0, seed=3),
                                 (2, 20, 21, 1), L()),
    "elastic_wrap_single": ("RandomElasticTransform", L(fill_mode="wrap", seed=4), (21, 25, 3), L()),
    "elastic_reflect_unit": ("RandomElasticTransform", L(factor=(0.6, 1.0), value_range=(0, 1),
                                                        seed=6), (3, 22, 20, 1), L(scale=1.0)),
    "elastic_nearest_fill": ("RandomElasticTransform", L(fill_mode="nearest", seed=8), (1, 30, 24, 1), L()),
    "clahe": ("ContrastLimitedAdaptiveHistogramEqualization", L(tile_grid_size=(2, 3)), (2, 8, 9, 3), L()),
    "clahe_pad_clip": ("ContrastLimitedAdaptiveHistogramEqualization", L(clip_limit=2.0, tile_grid_size=(3, 2)),
                       (1, 7, 9, 2), L(scale=200.0)),
    "clahe_noclip_unit_single": ("ContrastLimitedAdaptiveHistogramEqualization",
                                 L(value_range=(0, 1), clip_limit=0, tile_grid_size=(2, 2)), (6, 5, 1), L(scale=1.0)),
    "clahe_channels_first_infer": ("ContrastLimitedAdaptiveHistogramEqualization",
                                   L(tile_grid_size=(2, 2), data_format="channels_first"), (2, 2, 6, 6),
                                   L(training=False)),
    "shear_masks": ("RandomShear", L(x_factor=0.4, y_factor=0.4, seed=3), (2, 6, 6, 3), L(mode="masks")),
    "perspective_masks": ("RandomPerspective", L(scale=0.6, seed=4), (2, 6, 5, 3), L(mode="masks")),
    "elastic_masks": ("RandomElasticTransform", L(seed=2), (2, 22, 20, 3), L(mode="masks")),
    "rand_augment_masks": ("RandAugment", L(num_ops=4, seed=2), (2, 6, 6, 3), L(mode="masks")),
    "aug_mix_masks": ("AugMix", L(seed=5), (2, 5, 5, 3), L(mode="masks", pyseed=True)),
    "hue_masks": ("RandomHue", L(factor=0.5, seed=2), (2, 3, 3, 3), L(mode="masks")),
    "max_boxes_pad": ("MaxNumBoundingBoxes", L(max_number=4, bounding_box_format="xyxy"), (2, 4, 4, 3),
                      L(mode="boxes", boxes=2)),
    "max_boxes_truncate": ("MaxNumBoundingBoxes", L(max_number=1, fill_value=0, bounding_box_format="xyxy"),
                           (2, 4, 4, 3), L(mode="boxes", boxes=3)),
}


def _call(layer, x, training):
    return layer(x) if training is None else layer(x, training=training)


def run(name, tf, keras):
    """The case's outputs: ``{"outputs": [...]}`` (and ``"labels"`` for dict cases)."""
    cls, kwargs, shape, opts = CASES[name]
    x = _images(shape, opts.get("scale", 255.0))
    mode = opts.get("mode", "call")
    training = opts.get("training")
    if mode == "global" or opts.get("pyseed"):
        keras.utils.set_random_seed(1234)   # (AugMix chooses its operations with Python's random)
    layer = getattr(keras.layers, cls)(**kwargs)
    out = {}
    if mode in ("call", "global"):
        out["outputs"] = [np.asarray(_call(layer, tf.constant(x), training)).tolist()
                          for _ in range(opts.get("calls", 1))]
    elif mode == "dict":
        labels = np.eye(opts["labels"], dtype=np.float32)[np.arange(shape[0]) % opts["labels"]]
        res = layer({"images": tf.constant(x), "labels": tf.constant(labels)})
        out["outputs"] = [np.asarray(res["images"]).tolist()]
        out["labels"] = np.asarray(res["labels"]).tolist()
    elif mode == "model":
        model = keras.Sequential([keras.Input(shape[1:]), layer])
        out["outputs"] = [np.asarray(model(tf.constant(x), training=True)).tolist(),
                          np.asarray(model.predict(x, verbose=0)).tolist()]
    elif mode == "masks":
        masks = np.random.RandomState(1).randint(0, 4, shape[:-1] + (1,)).astype(np.float32)
        res = layer({"images": tf.constant(x), "segmentation_masks": tf.constant(masks)})
        out["outputs"] = [np.asarray(res["images"]).tolist(), np.asarray(res["segmentation_masks"]).tolist()]
    elif mode == "boxes":
        n = opts["boxes"]
        boxes = np.arange(shape[0] * n * 4, dtype=np.float32).reshape(shape[0], n, 4)
        labels = np.arange(shape[0] * n, dtype=np.int32).reshape(shape[0], n)
        res = layer({"images": tf.constant(x), "bounding_boxes": {"boxes": tf.constant(boxes),
                                                                  "labels": tf.constant(labels)}})
        out["outputs"] = [np.asarray(res["images"]).tolist(), np.asarray(res["bounding_boxes"]["boxes"]).tolist()]
        out["labels"] = np.asarray(res["bounding_boxes"]["labels"]).tolist()
    elif mode == "dataset":
        ds = tf.data.Dataset.from_tensor_slices(x).map(lambda im: layer(im))
        out["outputs"] = [np.asarray(e).tolist() for e in ds]
    return out
