"""The cases of tests/test_keras_names.py, shared with tools/record_keras_names.py (which runs them
on Keras 3 and records the numbers). Each ``run_*`` takes the library (``tensorflow`` or
``tapegrad``) and ``keras`` and returns plain lists, so both sides compute the same thing."""
from __future__ import annotations

import numpy as np


def enc(x):
    return np.asarray(x, np.float64).tolist()


def series(n: int = 23, features: int = 2) -> np.ndarray:
    """A float32 series whose row ``i`` is ``[i, 100 + i, ...]`` (each window is readable)."""
    return (np.arange(n)[:, None] + 100.0 * np.arange(features)).astype(np.float32)


# ---- keras.losses.Reduction ---------------------------------------------------------------------

REDUCTIONS = ("NONE", "SUM", "SUM_OVER_BATCH_SIZE")


def run_reduction(keras, name):
    y_true = np.array([[0.0, 1.0], [2.0, 0.5], [1.0, 1.0]], np.float32)
    y_pred = np.array([[0.5, 3.0], [0.0, 0.4], [1.5, -1.0]], np.float32)
    loss = keras.losses.Huber(reduction=getattr(keras.losses.Reduction, name))
    return enc(loss(y_true, y_pred, sample_weight=np.array([1.0, 0.5, 2.0], np.float32)))


# ---- tf.keras.backend's legacy random functions ---------------------------------------------------

# name -> (function, args, kwargs); each draws twice with global seed 3 (the second draw continues
# the op's stream), then twice more after keras.utils.set_random_seed(5) without an op seed.
BACKEND_RANDOM = {
    "normal": ("random_normal", ((2, 3),), {"mean": 1.0, "stddev": 2.0}),
    "normal_f64": ("random_normal", ((4,),), {"dtype": "float64"}),
    "uniform": ("random_uniform", ((3, 2),), {"minval": -1.0, "maxval": 3.0}),
    "truncated": ("truncated_normal", ((5,),), {"stddev": 0.5}),
    "bernoulli": ("random_bernoulli", ((4, 3),), {"p": 0.3}),
    "bernoulli_f64": ("random_bernoulli", ((6,),), {"p": 0.5, "dtype": "float64"}),
    "normal_variable": ("random_normal_variable", ((2, 2), 0.5, 3.0), {}),
    "uniform_variable": ("random_uniform_variable", ((3,), -2.0, 2.0), {}),
}


def run_backend_random(tf, keras, name):
    fn, args, kwargs = BACKEND_RANDOM[name]
    f = getattr(keras.backend, fn)
    tf.random.set_seed(3)
    seeded = [f(*args, seed=11, **kwargs) for _ in range(2)]
    keras.utils.set_random_seed(5)
    unseeded = [f(*args, **kwargs) for _ in range(2)]
    out = {"seeded": [enc(v) for v in seeded], "unseeded": [enc(v) for v in unseeded],
           "dtype": seeded[0].dtype.name, "variable": isinstance(seeded[0], tf.Variable)}
    tf.random.set_seed(None)
    return out


# ---- keras.utils.timeseries_dataset_from_array ---------------------------------------------------

# name -> (kwargs without data; "targets": "series" gives 10 * row index + 0.5)
TIMESERIES = {
    "plain": {"sequence_length": 4, "batch_size": 5},
    "stride_rate": {"sequence_length": 3, "sequence_stride": 2, "sampling_rate": 3, "batch_size": 4},
    "targets": {"targets": "series", "sequence_length": 5, "batch_size": 3},
    "short_targets": {"targets": "short", "sequence_length": 2, "batch_size": 4},
    "start_end": {"sequence_length": 3, "start_index": 4, "end_index": 17, "batch_size": 3,
                  "targets": "series"},
    "unbatched": {"sequence_length": 6, "sequence_stride": 5, "batch_size": None},
    "shuffle": {"sequence_length": 3, "batch_size": 2, "shuffle": True, "seed": 9,
                "targets": "series"},
    "shuffle_unbatched": {"sequence_length": 2, "batch_size": None, "shuffle": True, "seed": 4},
    "shuffle_start": {"sequence_length": 2, "sequence_stride": 2, "batch_size": 3, "shuffle": True,
                      "seed": 123, "start_index": 2},
}

# name -> kwargs that Keras refuses (ValueError)
TIMESERIES_BAD = {
    "start_negative": {"sequence_length": 2, "start_index": -1},
    "start_past_end": {"sequence_length": 2, "start_index": 23},
    "end_before_start": {"sequence_length": 2, "start_index": 5, "end_index": 5},
    "end_past_data": {"sequence_length": 2, "end_index": 23},
    "end_negative": {"sequence_length": 2, "end_index": -3},
    "rate_zero": {"sequence_length": 2, "sampling_rate": 0},
    "rate_too_big": {"sequence_length": 2, "sampling_rate": 23},
    "stride_zero": {"sequence_length": 2, "sequence_stride": 0},
    "stride_too_big": {"sequence_length": 2, "sequence_stride": 30},
}


def timeseries_kwargs(name, table=TIMESERIES):
    kwargs = dict(table[name])
    data = series()
    targets = kwargs.pop("targets", None)
    if targets == "series":
        targets = np.arange(len(data)) * 10.0 + 0.5
    elif targets == "short":
        targets = np.arange(7, dtype=np.int64)
    return dict(data=data, targets=targets, **kwargs)


def run_timeseries(keras, name):
    """Two passes over the dataset (a shuffled one reshuffles at each pass)."""
    ds = keras.utils.timeseries_dataset_from_array(**timeseries_kwargs(name))
    passes = []
    for _ in range(2):
        elements = []
        for e in ds:
            parts = e if isinstance(e, tuple) else (e,)
            elements.append([enc(p) for p in parts])
        passes.append(elements)
    first = next(iter(ds))
    dtypes = [p.dtype.name for p in (first if isinstance(first, tuple) else (first,))]
    return {"passes": passes, "dtypes": dtypes}


# ---- keras.initializers.get / Layer.add_weight ---------------------------------------------------

def _ones_fn(shape, dtype=None):
    return np.full(shape, 0.25, dtype or "float32")


# name -> (identifier maker(keras), shape, dtype); the value of add_weight(initializer=...)
INITIALIZER_IDS = {
    "string": (lambda keras: "ones", (2, 3), None),
    "class_name": (lambda keras: "TruncatedNormal", (2,), None),
    "class": (lambda keras: keras.initializers.Zeros, (3,), "float64"),
    "class_identity": (lambda keras: keras.initializers.Identity, (2, 2), None),
    "instance": (lambda keras: keras.initializers.RandomNormal(seed=3), (2, 2), None),
    "dict": (lambda keras: {"class_name": "RandomUniform", "config": {"seed": 4, "maxval": 2.0}},
             (3,), None),
    "callable": (lambda keras: _ones_fn, (2,), None),
    "array": (lambda keras: np.arange(6.0).reshape(2, 3), (2, 3), "float32"),
}


def run_add_weight(keras, name):
    make, shape, dtype = INITIALIZER_IDS[name]
    layer = keras.layers.Layer()
    v = layer.add_weight(shape=shape, initializer=make(keras), dtype=dtype)
    out = {"dtype": v.dtype if isinstance(v.dtype, str) else v.dtype.name,
           "shape": list(v.shape), "n_weights": len(layer.weights)}
    if name != "class_name":  # an unseeded draw: only its shape is comparable
        out["value"] = enc(v.numpy())
    return out


# ---- keras.layers.Normalization ------------------------------------------------------------------

def norm_data() -> np.ndarray:
    return (np.arange(24, dtype=np.float32).reshape(4, 3, 2) ** 1.5 / 7.0 - 3.0)


# name -> (constructor kwargs, how to adapt: "array" | "batches" | "rows" | None)
NORMALIZATION = {
    "last": ({"axis": -1}, "array"),
    "none": ({"axis": None}, "array"),
    "two_axes": ({"axis": (1, 2)}, "array"),
    "middle": ({"axis": 1}, "batches"),
    "rows_dataset": ({"axis": -1}, "rows"),
    "given_scalar": ({"mean": 2.0, "variance": 9.0}, None),
    "given_vector": ({"axis": -1, "mean": [1.0, -1.0], "variance": [4.0, 0.25]}, None),
    "given_matrix": ({"axis": (1, 2), "mean": np.ones((3, 2)).tolist(),
                      "variance": (np.arange(6.0).reshape(3, 2) + 1).tolist()}, None),
    "given_trailing": ({"axis": (1, 2), "mean": [0.5, 1.5], "variance": [1.0, 4.0]}, None),
    "invert": ({"axis": -1, "invert": True}, "array"),
    "invert_given": ({"axis": -1, "mean": [1.0, 2.0], "variance": [4.0, 9.0], "invert": True}, None),
}

# name -> constructor kwargs that Keras refuses (ValueError)
NORMALIZATION_BAD = {
    "only_mean": {"mean": 1.0},
    "shapes_differ": {"mean": [1.0, 2.0], "variance": [1.0]},
    "rank_above_axes": {"axis": -1, "mean": [[1.0]], "variance": [[1.0]]},
}


def run_normalization(tf, keras, name):
    kwargs, adapt = NORMALIZATION[name]
    layer = keras.layers.Normalization(**kwargs)
    x = norm_data()
    before = layer.mean
    if adapt == "array":
        layer.adapt(x)
    elif adapt == "batches":
        layer.adapt(tf.data.Dataset.from_tensor_slices(x).batch(3))
    elif adapt == "rows":
        layer.adapt(tf.data.Dataset.from_tensor_slices(x.reshape(-1, 2)))
    y = layer(x)
    return {"mean_before": before is None, "mean": enc(layer.mean), "variance": enc(layer.variance),
            "mean_shape": list(layer.mean.shape), "y": enc(y)}
