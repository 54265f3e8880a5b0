"""The cases of tools/record_keras_more3.py, shared with tests/test_keras_more3.py: Keras 3.15's
``keras.ops.image`` warps and filters (affine_transform, perspective_transform,
map_coordinates, elastic_transform, gaussian_blur, scale_and_translate, sobel_edges, ssim,
pad_images, crop_images, extract_patches_3d): values, dtypes, shapes, channels first, unbatched
inputs, errors, gradients (where TensorFlow has them) and the ops in a functional model.

``run(name, tf, keras)`` gives the case's result (TensorFlow and Keras when recorded, tapegrad
when replayed): ``{"value": ..., "dtype": ..., "shape": ...}`` per output, gradients under
``"grads"``, or ``{"error": type name, "message": ...}``."""
import numpy as np


def _img(shape, seed=0, scale=1.0, dtype="float32"):
    return (np.random.RandomState(seed).uniform(0, 1, shape) * scale).astype(dtype)


T2 = np.array([[1.3, 0.2, -1.5, -0.1, 0.9, 0.7, 0.0, 0.0], [1.0, 0.0, 1.6, 0.0, 1.0, -2.2, 0.0, 0.0]], "float32")
T_PROJ = np.array([0.9, 0.1, 0.4, -0.2, 1.1, 0.3, 0.02, -0.03], "float32")
START = np.array([[0, 0], [5, 0], [0, 4], [5, 4]], "float32")
END = np.array([[[0.5, 0.2], [5.3, -0.4], [-0.2, 4.1], [4.6, 4.4]], [[1, 1], [4, 0], [0, 3], [6, 5]]], "float32")


def _coords(shape, n, seed):
    rs = np.random.RandomState(seed)
    return np.stack([rs.uniform(-2.5, s + 1.5, n) for s in shape]).astype("float32")


# name: (function, positional args, keyword args, options); options: grad (indices of the args the
# gradient is taken to), model (input shape: the op applied to a keras.Input, run by predict)
CASES = {
    "affine": ("affine_transform", (_img((2, 5, 6, 3)), T2), {}, {"grad": (0,)}),
    "affine_nearest_fill": ("affine_transform", (_img((2, 5, 6, 2), 1), T2),
                            {"interpolation": "nearest", "fill_value": 0.5}, {}),
    "affine_wrap": ("affine_transform", (_img((2, 4, 5, 1), 2), T2), {"fill_mode": "wrap"}, {"grad": (0,)}),
    "affine_reflect": ("affine_transform", (_img((2, 4, 5, 1), 3), T2), {"fill_mode": "reflect"}, {}),
    "affine_nearest_mode": ("affine_transform", (_img((2, 4, 5, 1), 4), T2), {"fill_mode": "nearest"}, {}),
    "affine_projective_single": ("affine_transform", (_img((5, 6, 2), 5), T_PROJ), {}, {"grad": (0,)}),
    "affine_channels_first": ("affine_transform", (_img((2, 3, 4, 5), 6), T2), {"data_format": "channels_first"},
                              {}),
    "affine_float64": ("affine_transform", (_img((1, 4, 4, 1), 7, dtype="float64"), T2[:1]), {}, {}),
    "affine_int32": ("affine_transform", (_img((1, 4, 4, 1), 8, 100.0).astype("int32"), T2[:1]), {}, {}),
    "affine_bad_interpolation": ("affine_transform", (_img((4, 4, 1)), T_PROJ), {"interpolation": "bicubic"}, {}),
    "affine_bad_fill": ("affine_transform", (_img((4, 4, 1)), T_PROJ), {"fill_mode": "mirror"}, {}),
    "affine_bad_rank": ("affine_transform", (_img((4, 4)), T_PROJ), {}, {}),
    "affine_bad_transform": ("affine_transform", (_img((4, 4, 1)), T2[None]), {}, {}),
    "affine_model": ("affine_transform", (None, T2[:1]), {}, {"model": (4, 5, 2)}),
    "perspective": ("perspective_transform", (_img((2, 5, 6, 2), 9), np.stack([START, START]), END), {},
                    {"grad": (0,)}),
    "perspective_single_nearest": ("perspective_transform", (_img((5, 6, 1), 10), START, END[0]),
                                   {"interpolation": "nearest", "fill_value": 1.0}, {}),
    "perspective_bad_points": ("perspective_transform", (_img((5, 6, 1)), START[:3], END[0][:3]), {}, {}),
    "map_linear_constant": ("map_coordinates", (_img((4, 5), 11), _coords((4, 5), 12, 1)), {"order": 1},
                            {"grad": (0, 1)}),
    "map_nearest_constant": ("map_coordinates", (_img((4, 5), 11), _coords((4, 5), 12, 2)),
                             {"order": 0, "fill_value": 2.0}, {"grad": (0,)}),
    "map_linear_nearest": ("map_coordinates", (_img((4, 5), 12), _coords((4, 5), 12, 3)),
                           {"order": 1, "fill_mode": "nearest"}, {}),
    "map_linear_wrap": ("map_coordinates", (_img((4, 5), 13), _coords((4, 5), 12, 4)),
                        {"order": 1, "fill_mode": "wrap"}, {}),
    "map_linear_mirror": ("map_coordinates", (_img((4, 5), 14), _coords((4, 5), 12, 5)),
                          {"order": 1, "fill_mode": "mirror"}, {}),
    "map_linear_reflect": ("map_coordinates", (_img((4, 5), 15), _coords((4, 5), 12, 6)),
                           {"order": 1, "fill_mode": "reflect"}, {"grad": (0, 1)}),
    "map_3d": ("map_coordinates", (_img((3, 4, 2), 16), _coords((3, 4, 2), 10, 7).reshape(3, 2, 5)),
               {"order": 1, "fill_mode": "nearest"}, {}),
    "map_int": ("map_coordinates", ((_img((4, 5), 17) * 50).astype("int32"), _coords((4, 5), 8, 8)), {"order": 1}, {}),
    "map_float64_coords": ("map_coordinates", (_img((4, 5), 18), _coords((4, 5), 6, 9).astype("float64")),
                           {"order": 1}, {}),
    "map_bad_lead": ("map_coordinates", (_img((4, 5)), _coords((4, 5, 1), 3, 1)), {"order": 1}, {}),
    "map_bad_mode": ("map_coordinates", (_img((4, 5)), _coords((4, 5), 3, 1)), {"order": 1, "fill_mode": "x"}, {}),
    "map_bad_order": ("map_coordinates", (_img((4, 5)), _coords((4, 5), 3, 1)), {"order": 3}, {}),
    "blur": ("gaussian_blur", (_img((2, 6, 7, 3), 20),), {}, {"grad": (0,)}),
    "blur_sizes": ("gaussian_blur", (_img((2, 7, 6, 2), 21),), {"kernel_size": (5, 3), "sigma": (2.0, 0.7)}, {}),
    "blur_single_first": ("gaussian_blur", (_img((2, 6, 6), 22),), {"data_format": "channels_first"}, {}),
    "blur_float64": ("gaussian_blur", (_img((1, 5, 5, 1), 23, dtype="float64"),), {"sigma": (1.5, 1.5)}, {}),
    "blur_model": ("gaussian_blur", (None,), {"kernel_size": (3, 5)}, {"model": (6, 6, 2)}),
    "elastic": ("elastic_transform", (_img((2, 8, 9, 2), 24, 255.0),), {"seed": 3}, {}),
    "elastic_constant_nearest": ("elastic_transform", (_img((1, 7, 7, 1), 25),),
                                 {"alpha": 5.0, "sigma": 1.5, "interpolation": "nearest", "fill_mode": "constant",
                                  "fill_value": 0.5, "seed": 4}, {}),
    "elastic_wrap_single": ("elastic_transform", (_img((6, 8, 3), 26),),
                            {"alpha": 8.0, "sigma": 2.0, "fill_mode": "wrap", "seed": 5}, {}),
    "elastic_first": ("elastic_transform", (_img((2, 2, 6, 6), 27),),
                      {"alpha": 4.0, "sigma": 1.0, "fill_mode": "nearest", "seed": 6,
                       "data_format": "channels_first"}, {}),
    "elastic_bad_fill": ("elastic_transform", (_img((6, 6, 1)),), {"fill_mode": "mirror", "seed": 1}, {}),
    "scale_linear_up": ("scale_and_translate", (_img((3, 4), 30), (5, 7), np.array([1.7, 1.75], "float32"),
                                                np.array([0.2, -0.5], "float32"), (0, 1), "linear"), {},
                        {"grad": (0, 2, 3)}),
    "scale_cubic_down": ("scale_and_translate", (_img((2, 8, 9, 2), 31), (2, 3, 4, 2),
                                                 np.array([0.4, 0.45], "float32"), np.array([0.3, 0.1], "float32"),
                                                 (1, 2), "bicubic"), {}, {"grad": (0, 2)}),
    "scale_cubic_down_noaa": ("scale_and_translate", (_img((2, 8, 9, 2), 31), (2, 3, 4, 2),
                                                      np.array([0.4, 0.45], "float32"), np.array([0.3, 0.1], "float32"),
                                                      (1, 2), "cubic"), {"antialias": False}, {}),
    "scale_lanczos3": ("scale_and_translate", (_img((6, 6), 32), (4, 9), np.array([0.7, 1.5], "float32"),
                                               np.array([0.0, 0.25], "float32"), (0, 1), "lanczos3"), {}, {}),
    "scale_lanczos5": ("scale_and_translate", (_img((6, 6), 33), (9, 4), np.array([1.5, 0.7], "float32"),
                                               np.array([-0.3, 0.0], "float32"), (0, 1), "lanczos5"), {}, {}),
    "scale_int": ("scale_and_translate", ((_img((5, 5), 34) * 200).astype("int32"), (3, 3),
                                          np.array([0.6, 0.6], "float32"), np.array([0.0, 0.0], "float32"),
                                          (0, 1), "bilinear"), {}, {}),
    "scale_triangle": ("scale_and_translate", (_img((3, 3)), (3, 3), np.ones(2, "float32"), np.zeros(2, "float32"),
                                               (0, 1), "triangle"), {}, {}),
    "scale_bad_method": ("scale_and_translate", (_img((3, 3)), (3, 3), np.ones(2, "float32"), np.zeros(2, "float32"),
                                                 (0, 1), "area"), {}, {}),
    "sobel": ("sobel_edges", (_img((2, 5, 6, 3), 40),), {}, {"grad": (0,)}),
    "sobel_first": ("sobel_edges", (_img((1, 2, 5, 4), 41),), {"data_format": "channels_first"}, {}),
    "ssim": ("ssim", (_img((2, 16, 14, 3), 50), _img((2, 16, 14, 3), 51)), {}, {"grad": (1,)}),
    "ssim_single_255": ("ssim", (_img((12, 12, 1), 52, 255.0), _img((12, 12, 1), 53, 255.0)),
                        {"max_val": 255.0, "filter_size": 7, "filter_sigma": 1.0}, {}),
    "ssim_first_k": ("ssim", (_img((1, 2, 13, 13), 54), _img((1, 2, 13, 13), 55)),
                     {"k1": 0.02, "k2": 0.05, "data_format": "channels_first"}, {}),
    "ssim_float64": ("ssim", (_img((1, 11, 11, 2), 56, dtype="float64"), _img((1, 11, 11, 2), 57, dtype="float64")),
                     {}, {}),
    "ssim_bad_rank": ("ssim", (_img((11, 11)), _img((11, 11))), {}, {}),
    "pad_two_targets": ("pad_images", (_img((5, 6, 2), 60), 1, 2), {"target_height": 8, "target_width": 9}, {}),
    "pad_batch_sides": ("pad_images", (_img((2, 3, 4, 1), 61),),
                        {"top_padding": 1, "bottom_padding": 2, "left_padding": 0, "right_padding": 3}, {}),
    "pad_first_targets": ("pad_images", (_img((2, 3, 4), 62),),
                          {"bottom_padding": 1, "target_height": 6, "right_padding": 2, "target_width": 7,
                           "data_format": "channels_first"}, {"grad": (0,)}),
    "pad_three_given": ("pad_images", (_img((3, 3, 1)), 1, 1, 1, 1), {"target_height": 5, "target_width": 5}, {}),
    "pad_negative": ("pad_images", (_img((3, 3, 1)), -1, 1), {"target_height": 5, "target_width": 5}, {}),
    "pad_too_small": ("pad_images", (_img((3, 3, 1)), 1, 1), {"target_height": 3, "target_width": 5}, {}),
    "pad_model": ("pad_images", (None, 1, 2), {"target_height": 6, "target_width": 7}, {"model": (4, 4, 1)}),
    "crop_sides": ("crop_images", (_img((6, 7, 2), 63), 1, 2, 1, 3), {}, {"grad": (0,)}),
    "crop_targets_batch": ("crop_images", (_img((2, 6, 7, 1), 64),),
                           {"bottom_cropping": 1, "target_height": 3, "left_cropping": 2, "target_width": 4}, {}),
    "crop_first": ("crop_images", (_img((2, 3, 6, 5), 65),),
                   {"top_cropping": 2, "target_height": 3, "right_cropping": 1, "target_width": 2,
                    "data_format": "channels_first"}, {}),
    "crop_missing": ("crop_images", (_img((6, 6, 1)), 1), {"target_height": 2}, {}),
    "crop_too_big": ("crop_images", (_img((6, 6, 1)),), {"bottom_cropping": 1, "target_height": 7,
                                                          "left_cropping": 0, "right_cropping": 0}, {}),
    "crop_model": ("crop_images", (None,), {"top_cropping": 1, "bottom_cropping": 1, "left_cropping": 0,
                                            "right_cropping": 2}, {"model": (5, 6, 3)}),
    "patches3d": ("extract_patches_3d", (_img((2, 4, 6, 6, 2), 70), 2), {}, {"grad": (0,)}),
    "patches3d_unbatched_strides": ("extract_patches_3d", (_img((5, 5, 6, 1), 71), (2, 3, 2)),
                                    {"strides": 1, "padding": "same"}, {}),
    "patches3d_dilation": ("extract_patches_3d", (_img((1, 6, 6, 6, 1), 72), (2, 2, 2)),
                           {"strides": 1, "dilation_rate": 2}, {}),
    "patches3d_bad_strides": ("extract_patches_3d", (_img((1, 4, 4, 4, 1)), 2), {"strides": (1, 1)}, {}),
}


def _enc(x):
    a = np.asarray(x)
    return {"value": a.tolist(), "dtype": str(a.dtype), "shape": list(a.shape)}


def run(name, tf, keras):
    fn_name, args, kwargs, opts = CASES[name]
    fn = getattr(keras.ops.image, fn_name)
    try:
        if "model" in opts:
            inp = keras.Input(opts["model"])
            out = fn(inp, *args[1:], **kwargs)
            model = keras.Model(inp, out)
            x = _img((2,) + tuple(opts["model"]), 99)
            return {"symbolic_shape": list(out.shape), "out": _enc(model.predict(x, verbose=0))}
        tensors = [tf.constant(a) if isinstance(a, np.ndarray) else a for a in args]
        with tf.GradientTape(persistent=True) as tape:
            for i in opts.get("grad", ()):
                tape.watch(tensors[i])
            y = fn(*tensors, **kwargs)
            loss = None
            if opts.get("grad"):
                w = tf.constant(np.random.RandomState(1).uniform(-1, 1, tuple(y.shape)).astype(y.dtype.name))
                loss = tf.reduce_sum(y * w)
        res = {"out": _enc(y)}
        if loss is not None:
            res["grads"] = [_enc(tape.gradient(loss, tensors[i])) for i in opts["grad"]]
        return res
    except Exception as e:  # noqa: BLE001 (the error is the recorded result)
        return {"error": type(e).__name__, "message": str(e)}


# ---- keras.distillation: Distiller.fit against Keras's --------------------------------------------

def _models(keras, functional, seed, hidden=5):
    """A teacher and a student of the same inputs and outputs, weights drawn from NumPy."""
    def make(name, units):
        inp = keras.Input((4,), name=f"{name}_in")
        h = keras.layers.Dense(units, activation="tanh", name="hidden")(inp)
        feat = keras.layers.Dense(3, name="feat")(h)
        out = keras.layers.Dense(3, name="logits")(keras.layers.Activation("relu")(feat))
        m = keras.Model(inp, out, name=name) if functional else keras.Sequential(
            [keras.Input((4,)), keras.layers.Dense(units, activation="tanh", name="hidden"),
             keras.layers.Dense(3, name="feat"), keras.layers.Dense(3, name="logits")], name=name)
        rs = np.random.RandomState(seed + units)
        m.set_weights([rs.uniform(-0.8, 0.8, w.shape).astype("float32") for w in m.get_weights()])
        return m
    return make("teacher", hidden + 3), make("student", hidden)


def _data():
    rs = np.random.RandomState(5)
    return rs.normal(size=(12, 4)).astype("float32"), rs.randint(0, 3, size=(12,)).astype("int32")


# name: (distillation losses (a function of keras), Distiller kwargs, compile kwargs, functional)
DISTILL = {
    "logits_default": (lambda k: k.distillation.LogitsDistillation(), {},
                       {"loss": "sparse_categorical_crossentropy", "metrics": ["accuracy"]}, False),
    "logits_kl_instance": (lambda k: k.distillation.LogitsDistillation(temperature=2.0,
                                                                        loss=k.losses.KLDivergence()),
                           {"student_loss_weight": 0.3},
                           {"loss": lambda k: k.losses.SparseCategoricalCrossentropy(from_logits=True)}, True),
    "logits_cce": (lambda k: k.distillation.LogitsDistillation(temperature=4.0,
                                                                loss=k.losses.CategoricalCrossentropy(
                                                                    from_logits=True)),
                   {"student_loss_weight": 0.0}, {"loss": "sparse_categorical_crossentropy"}, True),
    "feature_and_logits": (lambda k: [k.distillation.LogitsDistillation(temperature=3.0),
                                      k.distillation.FeatureDistillation(loss="mse", teacher_layer_name="feat",
                                                                         student_layer_name="feat")],
                           {"distillation_loss_weights": [1.0, 0.5], "student_loss_weight": 0.6},
                           {"loss": lambda k: k.losses.SparseCategoricalCrossentropy(from_logits=True),
                            "metrics": ["sparse_categorical_accuracy"]}, True),
    "feature_final_cosine": (lambda k: k.distillation.FeatureDistillation(loss="cosine_similarity"),
                             {"student_loss_weight": 1.0},
                             {"loss": lambda k: k.losses.SparseCategoricalCrossentropy(from_logits=True)}, False),
    "err_weight_range": (lambda k: k.distillation.LogitsDistillation(), {"student_loss_weight": 1.5},
                         {"loss": "mse"}, False),
    "err_weights_count": (lambda k: [k.distillation.LogitsDistillation()], {"distillation_loss_weights": [1.0, 2.0]},
                          {"loss": "mse"}, False),
    "err_none_losses": (lambda k: None, {}, {"loss": "mse"}, False),
    "err_no_compile_loss": (lambda k: k.distillation.LogitsDistillation(), {}, {"loss": None}, False),
    "err_layer_missing": (lambda k: k.distillation.FeatureDistillation(teacher_layer_name="nope"), {},
                          {"loss": "mse"}, True),
    "err_temperature": (lambda k: k.distillation.LogitsDistillation(temperature=0.0), {}, {"loss": "mse"}, False),
    "err_all_none": (lambda k: k.distillation.FeatureDistillation(loss=[None, None]), {}, {"loss": "mse"}, False),
}


def run_distill(name, tf, keras):
    losses, kwargs, compile_kwargs, functional = DISTILL[name]
    try:
        teacher, student = _models(keras, functional, 1)
        before = [w.tolist() for w in teacher.get_weights()]
        d = keras.distillation.Distiller(teacher, student, losses(keras), **kwargs)
        ck = {k: (v(keras) if callable(v) else v) for k, v in compile_kwargs.items()}
        d.compile(optimizer=keras.optimizers.SGD(0.1), **ck)
        x, y = _data()
        h = d.fit(x, y, epochs=2, batch_size=4, shuffle=False, verbose=0)
        return {"history": {k: [float(v) for v in vs] for k, vs in h.history.items()},
                "student": [w.tolist() for w in d.student.get_weights()],
                "teacher_unchanged": all(np.array_equal(a, b) for a, b in zip(before, teacher.get_weights())),
                "predict": np.asarray(d.predict(x[:3], verbose=0)).tolist()}
    except Exception as e:  # noqa: BLE001 (the error is the recorded result)
        return {"error": type(e).__name__, "message": str(e)}


# ---- keras.optimizers.Muon: fit of a model with an embedding, hidden and output layers -------------

MUON = {
    "muon_default": {"learning_rate": 0.05},
    "muon_excluded_plain": {"learning_rate": 0.02, "exclude_layers": ["out"], "nesterov": False, "rms_rate": None,
                            "weight_decay": None, "adam_weight_decay": 0.01, "momentum": 0.9, "ns_steps": 3,
                            "adam_lr_ratio": 0.5},
    "muon_embeddings_in": {"learning_rate": 0.03, "exclude_embeddings": False, "weight_decay": 0.1,
                           "adam_weight_decay": None, "epsilon": 1e-5},
}


def run_muon(name, tf, keras):
    model = keras.Sequential([keras.Input((3,), dtype="int32"), keras.layers.Embedding(10, 4),
                              keras.layers.Flatten(), keras.layers.Dense(7, activation="tanh", name="hidden"),
                              keras.layers.Dense(5, name="tall"), keras.layers.Dense(2, name="out")])
    rs = np.random.RandomState(3)
    model.set_weights([rs.uniform(-0.5, 0.5, w.shape).astype("float32") for w in model.get_weights()])
    model.compile(optimizer=keras.optimizers.Muon(**MUON[name]), loss="mse")
    x = rs.randint(0, 10, size=(8, 3)).astype("int32")
    y = rs.normal(size=(8, 2)).astype("float32")
    h = model.fit(x, y, epochs=2, batch_size=4, shuffle=False, verbose=0)
    return {"history": [float(v) for v in h.history["loss"]], "weights": [w.tolist() for w in model.get_weights()]}


# ---- keras.optimizers.MultiOptimizer: sub-optimizers chosen by variable path ---------------------

def _multi(keras, name):
    if name == "multi_map":
        m = keras.optimizers.OptimizerMap(keras.optimizers.SGD(0.1), {".*encoder/.*": keras.optimizers.Adam(0.01)})
        m[".*head/bias"] = keras.optimizers.RMSprop(0.05)
        return keras.optimizers.MultiOptimizer(m)
    if name == "multi_callable":
        adam, sgd = keras.optimizers.Adam(0.02), keras.optimizers.SGD(0.05, momentum=0.9)
        return keras.optimizers.MultiOptimizer(lambda v: adam if "kernel" in v.path else sgd)
    return keras.optimizers.MultiOptimizer(   # "multi_loss_scale"
        keras.optimizers.OptimizerMap(keras.optimizers.SGD(0.1), {".*head/.*": keras.optimizers.Adam(0.01)}),
        loss_scale_factor=8.0)


MULTI = ("multi_map", "multi_callable", "multi_loss_scale")


def run_multi(name, tf, keras):
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(6, activation="tanh", name="encoder"),
                              keras.layers.Dense(2, name="head")])
    rs = np.random.RandomState(4)
    model.set_weights([rs.uniform(-0.5, 0.5, w.shape).astype("float32") for w in model.get_weights()])
    opt = _multi(keras, name)
    model.compile(optimizer=opt, loss="mse")
    x, y = rs.normal(size=(8, 4)).astype("float32"), rs.normal(size=(8, 2)).astype("float32")
    h = model.fit(x, y, epochs=2, batch_size=4, shuffle=False, verbose=0)
    try:
        opt.learning_rate
        lr_error = None
    except AttributeError as e:
        lr_error = str(e)
    return {"history": [float(v) for v in h.history["loss"]], "weights": [w.tolist() for w in model.get_weights()],
            "iterations": int(opt.iterations), "inner_iterations": [int(o.iterations) for o in opt.optimizers],
            "n_variables": len(opt.variables), "lr_error": lr_error}


# ---- keras.dtype_policies.DTypePolicyMap --------------------------------------------------------

def run_policy_map(tf, keras):
    out = {}
    m = keras.dtype_policies.DTypePolicyMap(keras.dtype_policies.DTypePolicy("float32"))
    m["encoder/layer_0/dense"] = keras.dtype_policies.DTypePolicy("float16")
    m["encoder/.*"] = "float64"
    m["decoder"] = "int8_from_float32"
    out["lookups"] = [m[k].name for k in ("encoder/layer_0/dense", "encoder/attention/query", "decoder",
                                          "decoder/attention")]
    out["props"] = [m.name, m.compute_dtype, m.variable_dtype, m.quantization_mode, len(m), "decoder" in m,
                    "decoder/x" in m, list(m)]
    m["encoder/attention/.*"] = "float32"
    errors = []
    for f in (lambda: m["encoder/attention/query"], lambda: m.__setitem__("decoder", "float32"),
              lambda: m.__setitem__("x", 3.5), lambda: keras.dtype_policies.DTypePolicyMap(m),
              lambda: keras.dtype_policies.DTypePolicyMap(None, [1])):
        try:
            f()
            errors.append(None)
        except Exception as e:  # noqa: BLE001 (the error is the recorded result)
            errors.append([type(e).__name__, str(e)])
    out["errors"] = errors
    del m["decoder"]
    out["after_del"] = list(m)
    n = keras.dtype_policies.DTypePolicyMap()
    n["a"] = "int8_from_float32"
    n["b"] = "float16"
    out["config_default_none"] = n.get_config()
    out["name_default_none"] = n.name
    cfg = keras.dtype_policies.DTypePolicyMap("float16", {"x": keras.dtype_policies.DTypePolicy("float32")})
    out["config"] = cfg.get_config()
    again = keras.dtype_policies.DTypePolicyMap.from_config(cfg.get_config())
    out["round_trip"] = [again.name, again["x"].name, again["y"].name]
    return out


# ---- construction is side-effect free: NumPy/Python draws in build and call, a SeedGenerator -------

def run_construction(tf, keras):
    import random

    class Noisy(keras.layers.Layer):
        def __init__(self):
            super().__init__()
            self.gen = keras.random.SeedGenerator(7)

        def build(self, shape):
            self.w = self.add_weight(shape=(shape[-1],), initializer="ones")
            self.drawn_in_build = np.random.rand()

        def call(self, x):
            self.last = np.random.rand() + random.random()
            return x * self.w + keras.random.normal(keras.ops.shape(x), seed=self.gen)

    np.random.seed(0)
    random.seed(0)
    inp = keras.Input((3,))
    layer = Noisy()
    model = keras.Model(inp, layer(inp))
    out = {"after_construction": [np.random.rand(), random.random()],
           "state": np.asarray(layer.gen.state.numpy()).tolist()}
    y = model(np.ones((2, 3), "float32"))
    out["state_after_call"] = np.asarray(layer.gen.state.numpy()).tolist()
    out["call"] = np.asarray(y).tolist()
    return out
