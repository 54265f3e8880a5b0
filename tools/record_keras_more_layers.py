"""Record Keras 3's outputs and gradients for the layers added in the ``keraslayers`` task
(merging, activation, masking, noise, reshaping_nd, conv3d, einsum_dense, normalization_more).

Run with a Python that has TensorFlow 2.21 and Keras 3 (never needed by tapegrad or by CI):

    $TAPEGRAD_TF_PYTHON tools/record_keras_more_layers.py

Writes ``tests/fixtures/keras_more_layers.{json,npz}`` in the layout of
``tools/record_keras_layers.py`` (whose ``record_case`` records the single-input cases), plus
multi-input cases (``<case>/x0``, ``<case>/x1``, ... and ``<case>/dx0``, ...) and cases whose
input has whole timesteps of zeros (``zero_steps``: ``[batch, step]`` pairs, for Masking).
"""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from record_keras_layers import _make, _weight_values, record_case, record_cases

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(REPO, "tests", "fixtures", "keras_more_layers")


def L(cls, **kw):
    return {"class": cls, "args": kw}


# name: (layers, input shape or list of input shapes, options); options: training,
# zero_steps (timesteps set to zero), forward_only (no gradients recorded), uint8 (integer
# pixels in [0, 255]).
CASES = {
    # ---------------------------------------------------------------- merging
    "subtract": ([L("Subtract")], [(2, 3), (2, 3)], {}),
    "minimum3": ([L("Minimum")], [(2, 4), (2, 4), (2, 4)], {}),
    "maximum2": ([L("Maximum")], [(2, 3, 2), (2, 3, 2)], {}),
    "average3": ([L("Average")], [(2, 4), (2, 4), (2, 4)], {}),
    "dot_axes1_2d": ([L("Dot", axes=1)], [(3, 4), (3, 4)], {}),
    "dot_axes1_3d": ([L("Dot", axes=1)], [(2, 4, 3), (2, 4, 5)], {}),
    "dot_axes_2_1": ([L("Dot", axes=[2, 1])], [(2, 3, 4), (2, 4)], {}),
    "dot_normalize": ([L("Dot", axes=-1, normalize=True)], [(3, 5), (3, 5)], {}),
    "dot_normalize_3d": ([L("Dot", axes=(2, 2), normalize=True)], [(2, 3, 4), (2, 5, 4)], {}),
    # ---------------------------------------------------------------- activations
    "elu": ([L("ELU", alpha=0.5)], (3, 5), {}),
    "prelu": ([L("PReLU")], (2, 4, 3), {}),
    "prelu_shared": ([L("PReLU", shared_axes=[1, 2])], (2, 3, 4, 2), {}),
    # ---------------------------------------------------------------- masking and pass-through
    "masking_lstm": ([L("Masking"), L("LSTM", units=3, return_sequences=True)], (3, 5, 2),
                     {"zero_steps": [[0, 3], [0, 4], [1, 0], [2, 2]]}),
    "masking_value_gru": ([L("Masking", mask_value=0.0), L("GRU", units=2)], (2, 4, 3),
                          {"zero_steps": [[0, 1], [1, 3]]}),
    "rescaling": ([L("Rescaling", scale=0.5, offset=0.25)], (2, 3), {}),
    "identity": ([L("Identity")], (2, 3), {}),
    "activity_regularization": ([L("ActivityRegularization", l1=0.01, l2=0.02)], (4, 3), {}),
    "permute": ([L("Permute", dims=(2, 1))], (2, 3, 4), {}),
    "permute3": ([L("Permute", dims=(3, 1, 2))], (2, 3, 4, 2), {}),
    "repeat_vector": ([L("RepeatVector", n=3)], (2, 4), {}),
    # ---------------------------------------------------------------- normalization
    "unit_norm": ([L("UnitNormalization")], (3, 4), {}),
    "unit_norm_axes": ([L("UnitNormalization", axis=[1, 2])], (2, 3, 4), {}),
    "group_norm": ([L("GroupNormalization", groups=2)], (2, 5, 4), {}),
    "group_norm_instance": ([L("GroupNormalization", groups=-1, epsilon=1e-5)], (2, 3, 3, 4), {}),
    "group_norm_axis1": ([L("GroupNormalization", groups=3, axis=1, center=False)], (2, 6, 3, 2), {}),
    # ---------------------------------------------------------------- reshaping
    "zero_padding1d": ([L("ZeroPadding1D", padding=(1, 2))], (2, 3, 2), {}),
    "zero_padding3d": ([L("ZeroPadding3D", padding=((1, 0), 1, (0, 2)))], (2, 2, 3, 2, 2), {}),
    "up_sampling1d": ([L("UpSampling1D", size=3)], (2, 3, 2), {}),
    "up_sampling3d": ([L("UpSampling3D", size=(1, 2, 2))], (2, 2, 2, 3, 2), {}),
    "cropping1d": ([L("Cropping1D", cropping=(1, 2))], (2, 6, 2), {}),
    "cropping3d": ([L("Cropping3D", cropping=((1, 0), 1, (0, 2)))], (2, 4, 4, 5, 2), {}),
    # ---------------------------------------------------------------- 3-D and transposed convolutions
    "conv3d_valid": ([L("Conv3D", filters=3, kernel_size=2)], (2, 4, 3, 4, 2), {}),
    "conv3d_same_strided_relu": ([L("Conv3D", filters=2, kernel_size=(3, 2, 2), strides=2, padding="same",
                                    activation="relu")], (2, 5, 4, 3, 2), {}),
    "conv3d_dilated": ([L("Conv3D", filters=2, kernel_size=2, dilation_rate=2, use_bias=False)],
                       (2, 5, 5, 4, 2), {}),
    "conv3d_groups": ([L("Conv3D", filters=4, kernel_size=2, groups=2)], (2, 3, 3, 3, 4), {}),
    "conv3d_channels_first": ([L("Conv3D", filters=2, kernel_size=2, padding="same",
                                 data_format="channels_first")], (2, 3, 3, 4, 2), {}),
    "conv1d_transpose_valid": ([L("Conv1DTranspose", filters=3, kernel_size=3, strides=2)], (2, 4, 2), {}),
    "conv1d_transpose_same_tanh": ([L("Conv1DTranspose", filters=2, kernel_size=4, strides=2, padding="same",
                                      activation="tanh")], (2, 5, 3), {}),
    "conv1d_transpose_output_padding": ([L("Conv1DTranspose", filters=2, kernel_size=3, strides=3,
                                           output_padding=1)], (2, 3, 2), {}),
    "conv3d_transpose_valid": ([L("Conv3DTranspose", filters=2, kernel_size=2, strides=2)], (2, 2, 3, 2, 3), {}),
    "conv3d_transpose_same": ([L("Conv3DTranspose", filters=3, kernel_size=3, strides=(1, 2, 2),
                                 padding="same")], (2, 2, 2, 3, 2), {}),
    # ---------------------------------------------------------------- 3-D pooling
    "max_pool3d": ([L("MaxPooling3D")], (2, 4, 4, 5, 2), {}),
    "max_pool3d_same_strided": ([L("MaxPooling3D", pool_size=3, strides=2, padding="same")], (2, 5, 4, 3, 2), {}),
    "avg_pool3d": ([L("AveragePooling3D", pool_size=(2, 1, 2))], (2, 4, 3, 4, 2), {}),
    "avg_pool3d_same": ([L("AveragePooling3D", pool_size=2, strides=1, padding="same")], (2, 3, 3, 3, 2), {}),
    "global_avg_pool3d": ([L("GlobalAveragePooling3D")], (2, 3, 2, 4, 3), {}),
    "global_max_pool3d_keepdims": ([L("GlobalMaxPooling3D", keepdims=True)], (2, 3, 2, 4, 3), {}),
    # ---------------------------------------------------------------- EinsumDense
    "einsum_dense_ab_bc": ([L("EinsumDense", equation="ab,bc->ac", output_shape=4, bias_axes="c")], (3, 5), {}),
    "einsum_dense_abc_cde": ([L("EinsumDense", equation="abc,cde->abde", output_shape=(None, 4, 2),
                                bias_axes="de", activation="relu")], (2, 3, 5), {}),
    "einsum_dense_left_ellipsis": ([L("EinsumDense", equation="...b,bc->...c", output_shape=3, bias_axes="c")],
                                   (2, 4, 5), {}),
    "einsum_dense_right_ellipsis": ([L("EinsumDense", equation="ab...,bc->ac...", output_shape=(3,),
                                       bias_axes="c")], (2, 4, 5), {}),
    "einsum_dense_nobias": ([L("EinsumDense", equation="abc,bcd->ad", output_shape=3)], (2, 4, 5), {}),
    # ---------------------------------------------------------------- image preprocessing
    "resizing_bilinear_down": ([L("Resizing", height=3, width=4)], (2, 7, 9, 2), {}),
    "resizing_nearest_up": ([L("Resizing", height=7, width=5, interpolation="nearest")], (2, 3, 4, 2), {}),
    "resizing_bicubic": ([L("Resizing", height=5, width=3, interpolation="bicubic")], (2, 4, 6, 1), {}),
    "resizing_lanczos3_antialias": ([L("Resizing", height=3, width=3, interpolation="lanczos3", antialias=True)],
                                    (1, 7, 8, 2), {}),
    "resizing_bilinear_antialias": ([L("Resizing", height=3, width=2, antialias=True)], (2, 8, 7, 1), {}),
    "resizing_crop_to_aspect": ([L("Resizing", height=4, width=4, crop_to_aspect_ratio=True)], (2, 6, 9, 2), {}),
    "resizing_pad_to_aspect": ([L("Resizing", height=4, width=6, pad_to_aspect_ratio=True, fill_value=0.5)],
                               (2, 5, 4, 2), {}),
    "resizing_area": ([L("Resizing", height=2, width=3, interpolation="area")], (2, 5, 7, 2),
                      {"forward_only": True}),   # TensorFlow has no gradient for ResizeArea
    "resizing_uint8": ([L("Resizing", height=3, width=2)], (1, 5, 4, 1), {"forward_only": True, "uint8": True}),
    "resizing_single_image": ([L("Resizing", height=3, width=5)], (6, 4, 3), {}),
    "resizing_channels_first": ([L("Resizing", height=3, width=5, data_format="channels_first")], (2, 2, 6, 4), {}),
    "center_crop": ([L("CenterCrop", height=3, width=2)], (2, 6, 5, 2), {}),
    "center_crop_smaller": ([L("CenterCrop", height=6, width=4)], (2, 5, 7, 1), {}),
    "center_crop_channels_first": ([L("CenterCrop", height=2, width=3, data_format="channels_first")],
                                   (2, 3, 5, 5), {}),
    # ---------------------------------------------------------------- augmentation (seeded)
    "random_flip": ([L("RandomFlip", seed=3)], (6, 3, 4, 2), {}),
    "random_flip_horizontal_train": ([L("RandomFlip", mode="horizontal", seed=5)], (6, 3, 4, 1),
                                     {"training": True}),
    "random_flip_vertical_single": ([L("RandomFlip", mode="vertical", seed=2)], (3, 4, 2), {}),
    "random_flip_infer": ([L("RandomFlip", seed=3)], (4, 3, 4, 2), {"training": False}),
    "random_rotation": ([L("RandomRotation", factor=0.2, seed=1)], (3, 5, 6, 2), {}),
    "random_rotation_constant_nearest": ([L("RandomRotation", factor=(-0.3, 0.1), fill_mode="constant",
                                            interpolation="nearest", fill_value=0.5, seed=4)], (3, 6, 5, 1), {}),
    "random_rotation_wrap": ([L("RandomRotation", factor=0.5, fill_mode="wrap", seed=8)], (2, 5, 5, 2), {}),
    "random_rotation_nearest_fill": ([L("RandomRotation", factor=0.4, fill_mode="nearest", seed=6)],
                                     (2, 4, 6, 1), {}),
    "random_rotation_channels_first": ([L("RandomRotation", factor=0.2, seed=1, data_format="channels_first")],
                                       (3, 2, 5, 6), {}),
    "random_rotation_infer": ([L("RandomRotation", factor=0.2, seed=1)], (2, 4, 4, 1), {"training": False}),
    "random_translation": ([L("RandomTranslation", height_factor=0.3, width_factor=(-0.2, 0.4), seed=2)],
                           (3, 6, 5, 2), {}),
    "random_translation_constant": ([L("RandomTranslation", height_factor=0.5, width_factor=0.5,
                                       fill_mode="constant", fill_value=-1.0, seed=9)], (3, 5, 5, 1), {}),
    "random_translation_wrap_nearest": ([L("RandomTranslation", height_factor=0.6, width_factor=0.6,
                                           fill_mode="wrap", interpolation="nearest", seed=7)], (3, 4, 6, 1), {}),
    "random_zoom": ([L("RandomZoom", height_factor=0.3, seed=3)], (3, 6, 6, 2), {}),
    "random_zoom_wh": ([L("RandomZoom", height_factor=(-0.4, -0.1), width_factor=(0.1, 0.5), seed=5)],
                       (3, 5, 7, 1), {}),
    "random_zoom_out_reflect": ([L("RandomZoom", height_factor=(0.5, 0.9), seed=11)], (2, 6, 5, 1), {}),
    "random_zoom_single": ([L("RandomZoom", height_factor=0.3, fill_mode="constant", seed=3)], (5, 5, 2), {}),
    "random_contrast": ([L("RandomContrast", factor=0.5, value_range=(-2, 2), seed=3)], (4, 3, 4, 2), {}),
    "random_contrast_pair": ([L("RandomContrast", factor=(0.3, 0.8), value_range=(-1.5, 1.5), seed=1)],
                             (4, 3, 3, 2), {}),
    "random_contrast_infer": ([L("RandomContrast", factor=0.5, seed=3)], (2, 3, 3, 1), {"training": False}),
    "random_brightness": ([L("RandomBrightness", factor=0.3, value_range=(-2, 2), seed=4)], (4, 3, 3, 2), {}),
    "random_brightness_pair": ([L("RandomBrightness", factor=(-0.5, 0.1), value_range=(2, -2), seed=6)],
                               (3, 2, 3, 2), {}),
    "random_crop": ([L("RandomCrop", height=3, width=4, seed=1)], (2, 6, 7, 2), {}),
    "random_crop_train_seed2": ([L("RandomCrop", height=2, width=2, seed=2)], (3, 5, 5, 1), {"training": True}),
    "random_crop_aspect": ([L("RandomCrop", height=3, width=4, seed=1)], (2, 3, 7, 1), {}),
    "random_crop_resize": ([L("RandomCrop", height=6, width=5, seed=1)], (2, 4, 4, 1), {}),
    "random_crop_infer": ([L("RandomCrop", height=3, width=4, seed=1)], (2, 6, 7, 1), {"training": False}),
    # ---------------------------------------------------------------- noise (seeded; training)
    "gaussian_noise_train": ([L("GaussianNoise", stddev=0.3, seed=7)], (3, 4), {"training": True}),
    "gaussian_noise_infer": ([L("GaussianNoise", stddev=0.3, seed=7)], (3, 4), {"training": False}),
    "gaussian_dropout_train": ([L("GaussianDropout", rate=0.4, seed=3)], (3, 4), {"training": True}),
    "alpha_dropout_train": ([L("AlphaDropout", rate=0.3, seed=5)], (4, 5), {"training": True}),
    "alpha_dropout_noise_shape": ([L("AlphaDropout", rate=0.5, noise_shape=(None, 1, 3), seed=2)], (3, 4, 3),
                                  {"training": True}),
    "spatial_dropout1d_train": ([L("SpatialDropout1D", rate=0.5, seed=1)], (3, 4, 5), {"training": True}),
    "spatial_dropout2d_train": ([L("SpatialDropout2D", rate=0.5, seed=4)], (3, 2, 3, 4), {"training": True}),
    "spatial_dropout3d_train": ([L("SpatialDropout3D", rate=0.4, seed=9)], (3, 2, 2, 2, 4), {"training": True}),
    "spatial_dropout2d_infer": ([L("SpatialDropout2D", rate=0.5, seed=4)], (3, 2, 3, 4), {"training": False}),
}


def record_multi(tf, keras, name, case, seed):
    """A case with several inputs or with zeroed timesteps (no channels_first twin)."""
    specs, in_shape, opt = case
    rng = np.random.default_rng(seed)
    multi = isinstance(in_shape, list)
    shapes = in_shape if multi else [in_shape]
    xs = [rng.standard_normal(s).astype(np.float32) for s in shapes]
    if opt.get("uint8"):
        xs = [rng.integers(0, 256, s).astype(np.uint8) for s in shapes]
    for b, t in opt.get("zero_steps", []):
        xs[0][b, t] = 0.0
    arrays = {f"x{k}": x for k, x in enumerate(xs)} if multi else {"x": xs[0]}
    layers = [_make(keras, s["class"], dict(s["args"])) for s in specs]
    call_kw = {"training": opt["training"]} if "training" in opt else {}

    def run(h):
        m = None
        for layer in layers:
            kw = dict(call_kw)
            if m is not None:
                kw["mask"] = m
            h, m = layer(h, **kw), layer.compute_mask(h, m)
        return h, m

    xt = [tf.constant(x) for x in xs]
    run(xt if multi else xt[0])
    meta = {"layers": [], "input_shape": [list(s) for s in shapes] if multi else list(in_shape), "twin": False}
    for i, layer in enumerate(layers):
        vals = _weight_values(rng, layer.weights)
        layer.set_weights(vals)
        for j, v in enumerate(vals):
            arrays[f"w{i}_{j}"] = v
        meta["layers"].append({
            "class": specs[i]["class"], "args": json.loads(json.dumps(specs[i]["args"])),
            "weights": [[w.path.split("/")[-1], list(w.shape), bool(w.trainable)] for w in layer.weights],
            "keras_config": json.loads(json.dumps(layer.get_config(), default=str)),
        })
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(xt)
        out, outmask = run(xt if multi else xt[0])
        s = rng.standard_normal(out.shape).astype(np.float32)
        arrays["seed0"], arrays["out0"] = s, out.numpy()
        loss = None if opt.get("forward_only") else tf.reduce_sum(out * s)
    for k, g in enumerate([] if loss is None else tape.gradient(loss, xt)):
        arrays[f"dx{k}" if multi else "dx"] = g.numpy()
    for i, layer in enumerate(layers):
        for j, w in enumerate(layer.weights):
            if w.trainable and loss is not None:
                g = tape.gradient(loss, w.value)
                if g is not None:
                    arrays[f"dw{i}_{j}"] = tf.convert_to_tensor(g).numpy()
            arrays[f"after{i}_{j}"] = np.asarray(w.numpy())
    if outmask is not None:
        arrays["outmask"] = np.asarray(outmask)
    losses = [float(v) for layer in layers for v in layer.losses]
    meta.update(outputs=1, losses=sum(losses) if losses else None, call=call_kw, input_dtype=str(xs[0].dtype),
                inputs=len(xs) if multi else None)
    return arrays, meta


def main():
    from _tf import quiet_tensorflow
    tf = quiet_tensorflow()
    import keras
    only = sys.argv[1] if len(sys.argv) > 1 else None
    arrays, metas = record_cases(
        tf, keras, CASES, only, lambda case: record_multi if isinstance(case[1], list)
        or {"zero_steps", "forward_only"} & set(case[2]) else record_case)
    if only:
        return
    np.savez_compressed(OUT + ".npz", **arrays)
    with open(OUT + ".json", "w") as f:
        json.dump({"versions": {"tensorflow": tf.__version__, "keras": keras.__version__}, "cases": metas},
                  f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
