"""Record Keras 3's numbers for tapegrad.keras's losses, metrics, utils and applications tests.

Run with a Python that has TensorFlow and Keras 3 (never needed by tapegrad or by CI; the tests
only read the JSON this script writes):

    $TAPEGRAD_TF_PYTHON tools/record_keras_losses.py

It writes ``tests/fixtures/keras_losses.json``: every case's inputs and Keras's results, so the
tests replay the same calls on tapegrad.keras and compare.

* ``losses``: every loss class with its options, under each reduction, with and without
  ``sample_weight``: the loss and its gradient with respect to ``y_pred``;
* ``metrics``: each metric through several ``update_state`` calls (with sample weights): the
  ``result()`` after each call, then after ``reset_state()`` and one more call;
* ``preprocess``: ``keras.applications.<net>.preprocess_input`` on a fixed image batch, in both
  data formats;
* ``utils``: ``to_categorical``, ``normalize`` and ``pad_sequences`` on fixed inputs;
* ``ops``: the keras.ops calls of ``tests/keras_ops_cases.py``: values and dtypes.
"""
import json
import os
import sys

import numpy as np

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURE = os.path.join(REPO, "tests", "fixtures", "keras_losses.json")

REDUCTIONS = ["sum_over_batch_size", "sum", "mean_with_sample_weight", None]


def _softmax(x):
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def loss_inputs(rng):
    """Named (y_true, y_pred) pairs, float32 unless integer labels."""
    f = np.float32
    reg_t, reg_p = rng.normal(size=(4, 3)).astype(f), rng.normal(size=(4, 3)).astype(f)
    onehot = np.eye(3, dtype=f)[rng.integers(0, 3, size=4)]
    logits = (2 * rng.normal(size=(4, 3))).astype(f)
    binary = rng.integers(0, 2, size=(4, 3)).astype(f)
    return {
        "regression": (reg_t, reg_p),
        "positive": (np.abs(reg_t) + f(0.1), np.abs(reg_p) + f(0.1)),
        "distribution": (_softmax(reg_t).astype(f), _softmax(reg_p).astype(f)),
        "binary_probs": (binary, (1 / (1 + np.exp(-logits))).astype(f)),
        "binary_logits": (binary, logits),
        "onehot_probs": (onehot, _softmax(logits).astype(f)),
        "onehot_logits": (onehot, logits),
        "sparse_probs": (np.argmax(onehot, -1).astype(np.int32), _softmax(logits).astype(f)),
        "sparse_logits": (np.argmax(onehot, -1).astype(np.int32), logits),
        "sparse_column": (np.argmax(onehot, -1).astype(np.int32)[:, None], logits),
        "hinge": (binary, reg_p),
        "signed_hinge": (2 * binary - 1, reg_p),
    }


LOSS_SPECS = [
    ("MeanSquaredError", {}, "regression"),
    ("MeanAbsoluteError", {}, "regression"),
    ("MeanAbsolutePercentageError", {}, "regression"),
    ("MeanSquaredLogarithmicError", {}, "positive"),
    ("Huber", {}, "regression"),
    ("Huber", {"delta": 0.5}, "regression"),
    ("LogCosh", {}, "regression"),
    ("CosineSimilarity", {}, "regression"),
    ("CosineSimilarity", {"axis": 0}, "regression"),
    ("KLDivergence", {}, "distribution"),
    ("Poisson", {}, "positive"),
    ("Hinge", {}, "hinge"),
    ("Hinge", {}, "signed_hinge"),
    ("SquaredHinge", {}, "hinge"),
    ("CategoricalHinge", {}, "onehot_logits"),
    ("BinaryCrossentropy", {}, "binary_probs"),
    ("BinaryCrossentropy", {"from_logits": True}, "binary_logits"),
    ("BinaryCrossentropy", {"label_smoothing": 0.1}, "binary_probs"),
    ("BinaryCrossentropy", {"from_logits": True, "label_smoothing": 0.2}, "binary_logits"),
    ("BinaryFocalCrossentropy", {}, "binary_probs"),
    ("BinaryFocalCrossentropy", {"from_logits": True, "gamma": 1.5}, "binary_logits"),
    ("BinaryFocalCrossentropy", {"apply_class_balancing": True, "alpha": 0.4}, "binary_probs"),
    ("CategoricalCrossentropy", {}, "onehot_probs"),
    ("CategoricalCrossentropy", {"from_logits": True}, "onehot_logits"),
    ("CategoricalCrossentropy", {"label_smoothing": 0.1}, "onehot_probs"),
    ("CategoricalCrossentropy", {"from_logits": True, "label_smoothing": 0.1}, "onehot_logits"),
    ("CategoricalFocalCrossentropy", {}, "onehot_probs"),
    ("CategoricalFocalCrossentropy", {"from_logits": True}, "onehot_logits"),
    ("SparseCategoricalCrossentropy", {}, "sparse_probs"),
    ("SparseCategoricalCrossentropy", {"from_logits": True}, "sparse_logits"),
    ("SparseCategoricalCrossentropy", {"from_logits": True}, "sparse_column"),
    ("SparseCategoricalCrossentropy", {"from_logits": True, "ignore_class": 1}, "sparse_logits"),
]


def record_losses(tf, keras, rng):
    inputs = loss_inputs(rng)
    weights = {"none": None, "per_sample": [0.5, 1.0, 2.0, 0.0], "column": [[1.5], [0.25], [1.0], [3.0]]}
    cases = []
    for cls, kwargs, data in LOSS_SPECS:
        y_true, y_pred = inputs[data]
        for reduction in REDUCTIONS:
            for wname, w in weights.items():
                if wname != "none" and kwargs.get("axis") == 0:
                    continue  # one loss per class (3), not per sample (4): no sample weight fits
                loss = getattr(keras.losses, cls)(reduction=reduction, **kwargs)
                p = tf.Variable(y_pred)
                with tf.GradientTape() as tape:
                    value = loss(y_true, p, sample_weight=w)
                grad = tape.gradient(value, p)
                cases.append({"class": cls, "kwargs": kwargs, "reduction": reduction,
                              "weights": wname, "y_true": y_true.tolist(),
                              "y_true_dtype": str(y_true.dtype), "y_pred": y_pred.tolist(),
                              "sample_weight": w, "value": np.asarray(value).tolist(),
                              "grad": np.asarray(grad).tolist()})
    fn_cases = []
    for fn, data, kwargs in [("mean_squared_error", "regression", {}), ("huber", "regression", {"delta": 0.5}),
                             ("binary_crossentropy", "binary_logits", {"from_logits": True}),
                             ("categorical_crossentropy", "onehot_probs", {"label_smoothing": 0.1}),
                             ("sparse_categorical_crossentropy", "sparse_logits", {"from_logits": True}),
                             ("kl_divergence", "distribution", {}), ("poisson", "positive", {}),
                             ("log_cosh", "regression", {}), ("cosine_similarity", "regression", {"axis": 0})]:
        y_true, y_pred = inputs[data]
        p = tf.Variable(y_pred)
        with tf.GradientTape() as tape:
            value = getattr(keras.losses, fn)(tf.constant(y_true), p, **kwargs)
        grad = tape.gradient(value, p)
        fn_cases.append({"fn": fn, "kwargs": kwargs, "y_true": y_true.tolist(),
                         "y_true_dtype": str(y_true.dtype), "y_pred": y_pred.tolist(),
                         "value": np.asarray(value).tolist(), "grad": np.asarray(grad).tolist()})
    return cases, fn_cases


def metric_updates(rng, kind):
    f = np.float32
    out = []
    for step in range(3):
        if kind == "regression":
            t, p = rng.normal(size=(5, 2)).astype(f), rng.normal(size=(5, 2)).astype(f)
        elif kind == "binary":
            t = rng.integers(0, 2, size=(5, 1)).astype(f)
            p = rng.uniform(size=(5, 1)).astype(f)
        elif kind == "binary_flat":
            t = rng.integers(0, 2, size=(6,)).astype(f)
            p = rng.uniform(size=(6,)).astype(f)
        elif kind == "exact":
            t = rng.integers(0, 3, size=(5,)).astype(f)
            p = rng.integers(0, 3, size=(5,)).astype(f)
        elif kind == "onehot":
            t = np.eye(4, dtype=f)[rng.integers(0, 4, size=5)]
            p = _softmax(rng.normal(size=(5, 4))).astype(f)
        elif kind == "sparse":
            t = rng.integers(0, 4, size=(5,)).astype(f)
            p = _softmax(rng.normal(size=(5, 4))).astype(f)
        elif kind == "multilabel":
            t = rng.integers(0, 2, size=(5, 4)).astype(f)
            p = rng.uniform(size=(5, 4)).astype(f)
        elif kind == "values":
            t, p = None, rng.normal(size=(5,)).astype(f)
        w = None if step == 1 else rng.uniform(size=(t.shape[0] if t is not None else 5,)).astype(f)
        out.append({"y_true": None if t is None else t.tolist(), "y_pred": p.tolist(),
                    "sample_weight": None if w is None else w.tolist()})
    return out


METRIC_SPECS = [
    ("Mean", {}, "values"), ("Sum", {}, "values"),
    ("MeanSquaredError", {}, "regression"), ("MeanAbsoluteError", {}, "regression"),
    ("RootMeanSquaredError", {}, "regression"), ("Accuracy", {}, "exact"),
    ("BinaryAccuracy", {}, "binary"), ("BinaryAccuracy", {"threshold": 0.3}, "binary"),
    ("CategoricalAccuracy", {}, "onehot"), ("SparseCategoricalAccuracy", {}, "sparse"),
    ("TopKCategoricalAccuracy", {"k": 2}, "onehot"),
    ("SparseTopKCategoricalAccuracy", {"k": 2}, "sparse"),
    ("AUC", {}, "binary"), ("AUC", {"curve": "PR"}, "binary"),
    ("AUC", {"num_thresholds": 7, "summation_method": "minoring"}, "binary_flat"),
    ("AUC", {"curve": "PR", "summation_method": "majoring"}, "binary_flat"),
    ("AUC", {"thresholds": [0.2, 0.5, 0.7]}, "binary_flat"),
    ("AUC", {"multi_label": True}, "multilabel"),
    ("Precision", {}, "binary"), ("Precision", {"thresholds": [0.3, 0.6]}, "binary"),
    ("Precision", {"top_k": 2}, "multilabel"), ("Precision", {"class_id": 1}, "multilabel"),
    ("Recall", {}, "binary"), ("Recall", {"thresholds": [0.3, 0.6]}, "binary"),
    ("Recall", {"top_k": 2, "class_id": 2}, "multilabel"),
    ("BinaryCrossentropy", {}, "binary"), ("CategoricalCrossentropy", {}, "onehot"),
    ("SparseCategoricalCrossentropy", {}, "sparse"), ("KLDivergence", {}, "onehot"),
    ("Hinge", {}, "binary"),
]


def record_metrics(keras, rng):
    cases = []
    for cls, kwargs, kind in METRIC_SPECS:
        updates = metric_updates(rng, kind)
        m = getattr(keras.metrics, cls)(**kwargs)
        results = []
        for u in updates:
            args = ([u["y_pred"]] if u["y_true"] is None else
                    [np.array(u["y_true"], np.float32), np.array(u["y_pred"], np.float32)])
            w = None if u["sample_weight"] is None else np.array(u["sample_weight"], np.float32)
            m.update_state(*args, sample_weight=w)
            results.append(np.asarray(m.result()).tolist())
        m.reset_state()
        results.append(np.asarray(m.result()).tolist())
        cases.append({"class": cls, "kwargs": kwargs, "updates": updates, "results": results})
    return cases


PREPROCESS = ["vgg16", "vgg19", "resnet50", "resnet_v2", "mobilenet", "mobilenet_v2",
              "inception_v3", "xception", "densenet", "efficientnet", "efficientnet_v2",
              "convnext", "nasnet", "inception_resnet_v2", "resnet", "mobilenet_v3"]


def record_preprocess(keras, rng):
    image = rng.uniform(0, 255, size=(2, 3, 4, 3)).astype(np.float32)
    cases = []
    for net in PREPROCESS:
        mod = getattr(keras.applications, net)
        for fmt in ("channels_last", "channels_first"):
            x = image if fmt == "channels_last" else np.moveaxis(image, -1, 1).copy()
            out = mod.preprocess_input(x.copy(), data_format=fmt)
            cases.append({"net": net, "data_format": fmt, "x": x.tolist(),
                          "out": np.asarray(out).tolist()})
    imagenet = keras.applications.imagenet_utils
    for mode in ("caffe", "tf", "torch"):
        for fmt in ("channels_last", "channels_first"):
            x = image if fmt == "channels_last" else np.moveaxis(image, -1, 1).copy()
            out = imagenet.preprocess_input(x.copy(), data_format=fmt, mode=mode)
            cases.append({"net": "imagenet_utils", "mode": mode, "data_format": fmt,
                          "x": x.tolist(), "out": np.asarray(out).tolist()})
    return cases


def record_utils(keras, rng):
    u = keras.utils
    seqs = [[1, 2, 3], [4, 5], [6, 7, 8, 9, 10], []]
    pads = []
    for kwargs in [{}, {"maxlen": 3}, {"padding": "post"}, {"truncating": "post", "maxlen": 2},
                   {"value": -1, "padding": "post", "maxlen": 4}, {"dtype": "float32", "maxlen": 6}]:
        pads.append({"kwargs": kwargs, "out": u.pad_sequences(seqs, **kwargs).tolist(),
                     "dtype": str(u.pad_sequences(seqs, **kwargs).dtype)})
    x = rng.normal(size=(3, 4)).astype(np.float32)
    return {
        "pad_sequences": {"sequences": seqs, "cases": pads},
        "to_categorical": [{"x": v, "num_classes": n, "out": u.to_categorical(v, n).tolist()}
                           for v, n in [([0, 2, 1], None), ([[1], [3]], 5), (2, 4)]],
        "normalize": [{"x": x.tolist(), "axis": a, "order": o,
                       "out": u.normalize(x, axis=a, order=o).tolist()}
                      for a, o in [(-1, 2), (1, 2), (-1, 1)]],
    }


def record_ops(keras):
    sys.path.insert(0, os.path.join(REPO, "tests"))
    from keras_ops_cases import ops_cases
    out = {}
    for name, call in ops_cases(keras.ops).items():
        value = np.asarray(keras.ops.convert_to_numpy(call()))
        out[name] = {"value": value.tolist(), "dtype": str(value.dtype)}
    return out


def main():
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from _tf import quiet_tensorflow
    tf = quiet_tensorflow()
    import keras

    rng = np.random.default_rng(20240513)
    losses, loss_fns = record_losses(tf, keras, rng)
    fixture = {"keras_version": keras.__version__, "losses": losses, "loss_functions": loss_fns,
               "metrics": record_metrics(keras, rng), "preprocess": record_preprocess(keras, rng),
               "utils": record_utils(keras, rng), "ops": record_ops(keras)}
    with open(FIXTURE, "w") as fh:
        json.dump(fixture, fh, sort_keys=True, separators=(",", ":"))
        fh.write("\n")
    print(f"wrote {FIXTURE}: {len(losses)} loss cases, {len(fixture['metrics'])} metric cases, "
          f"{len(fixture['preprocess'])} preprocess cases")


if __name__ == "__main__":
    main()
