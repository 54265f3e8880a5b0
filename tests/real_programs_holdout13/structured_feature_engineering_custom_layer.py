"""Title: Feature Engineering using Keras Functional API and custom Feature layer (keras.io example, structured data)
Source: https://github.com/keras-team/keras-io/blob/0422543f4fc9891b4566c670ad209b4bbb8b5da5/examples/structured_data/feature_engineering_with_custom_layer.py
Licence: Apache-2.0 (keras-team/keras-io)
Changed: keras.utils.set_random_seed(0) at the top (the initializers and make_csv_dataset's
shuffle are unseeded); the heart.csv download (tf.keras.utils.get_file, 303 rows) -> a CSV of
120 synthetic rows with the same 14 columns, types and value ranges (thal as the strings
fixed/normal/reversible) from a seeded NumPy generator, written to a tempfile directory;
make_csv_dataset's num_epochs 10 -> 2 and fit's epochs 10 -> 2; `from keras.utils.vis_utils
import plot_model` and the plot_model call removed (a picture; the module is gone in Keras 3);
save_model(model, "saved_model") / load_model("saved_model") -> a "model.keras" path in the
tempfile directory (Keras 3 saves only .keras / .h5 files) and load_model(...,
custom_objects={"FeatureLayer": FeatureLayer}) (Keras 3 cannot find the unregistered class
otherwise); dataset.map(lambda features, label: (dict(features), label)) added after
make_csv_dataset (Keras 3.15 flattens make_csv_dataset's OrderedDict in column order but the
model's dict of Inputs in sorted-key order, so fit fails with "Cast int32 to string is not
supported"); verbose=0; the history, evaluations, the feature layer's output and predictions of
the model and its reloaded copy -> RESULTS.
"""
import os
import tempfile

import numpy as np

RESULTS = {}
_tmp = tempfile.mkdtemp()
_rng = np.random.default_rng(0)
_n = 120
_cols = {
    "age": _rng.integers(29, 78, _n), "sex": _rng.integers(0, 2, _n),
    "cp": _rng.integers(0, 5, _n), "trestbps": _rng.integers(94, 201, _n),
    "chol": _rng.integers(126, 565, _n), "fbs": _rng.integers(0, 2, _n),
    "restecg": _rng.integers(0, 3, _n), "thalach": _rng.integers(71, 203, _n),
    "exang": _rng.integers(0, 2, _n),
    "oldpeak": np.round(_rng.uniform(0, 6.2, _n), 1), "slope": _rng.integers(1, 4, _n),
    "ca": _rng.integers(0, 4, _n),
    "thal": np.array(["fixed", "normal", "reversible"])[_rng.integers(0, 3, _n)],
    "target": _rng.integers(0, 2, _n),
}
_csv = os.path.join(_tmp, "heart.csv")
with open(_csv, "w") as _f:
    _f.write(",".join(_cols) + "\n")
    for _i in range(_n):
        _f.write(",".join(str(_c[_i]) for _c in _cols.values()) + "\n")

import tensorflow as tf
import keras
keras.utils.set_random_seed(0)

"""
## Load data with tf.data
"""

heart_dir = _csv

dataset = tf.data.experimental.make_csv_dataset(
    heart_dir, batch_size=64, label_name="target", num_epochs=2
)
# (Keras 3: an OrderedDict of features is matched to the dict of Inputs by position, not name)
dataset = dataset.map(lambda features, label: (dict(features), label))

binary_features = ["sex", "fbs", "exang"]
numeric_features = [
    "trestbps",
    "chol",
    "thalach",
    "oldpeak",
    "slope",
    "cp",
    "restecg",
    "ca",
]
categoric_features = ["thal"]

dtype_mapper = {
    "age": tf.float32,
    "sex": tf.float32,
    "cp": tf.float32,
    "trestbps": tf.float32,
    "chol": tf.float32,
    "fbs": tf.float32,
    "restecg": tf.float32,
    "thalach": tf.float32,
    "exang": tf.float32,
    "oldpeak": tf.float32,
    "slope": tf.float32,
    "ca": tf.float32,
    "thal": tf.string,
}


def create_inputs(data_type_mapper):
    """Create model inputs

    Args:
        data_type_mapper (dict): Dictionary with feature as key and dtype as value
                                 For example {'age': tf.float32, ...}
    Returns:
        (dict): Keras inputs for each feature
    """
    return {
        feature: tf.keras.Input(shape=(1,), name=feature, dtype=dtype)
        for feature, dtype in data_type_mapper.items()
    }


feature_layer_inputs = create_inputs(dtype_mapper)


class FeatureLayer(tf.keras.layers.Layer):
    """Custom Layer for Feature engineering steps
    """

    def __init__(self, *args, **kwargs):
        super(FeatureLayer, self).__init__(*args, **kwargs)

    def call(self, inputs):
        age_and_gender = tf.cast(
            tf.math.logical_and(inputs["age"] > 50, inputs["sex"] == 1),
            dtype=tf.float32,
        )

        thal_fixed_category = tf.cast(inputs["thal"] == "fixed", dtype=tf.float32)
        thal_reversible_category = tf.cast(
            inputs["thal"] == "reversible", dtype=tf.float32
        )
        thal_normal_category = tf.cast(inputs["thal"] == "normal", dtype=tf.float32)

        trest_chol_ratio = inputs["trestbps"] / inputs["chol"]
        trest_cross_thalach = inputs["trestbps"] * inputs["thalach"]

        # concat all newly created features into one layer
        feature_list = [
            thal_fixed_category,
            thal_reversible_category,
            thal_normal_category,
            age_and_gender,
            trest_chol_ratio,
            trest_cross_thalach,
        ]

        engineered_feature_layer = tf.keras.layers.concatenate(feature_list)

        numeric_feature_layer = tf.keras.layers.concatenate(
            [inputs[feature] for feature in numeric_features]
        )

        binary_feature_layer = tf.keras.layers.concatenate(
            [inputs[feature] for feature in binary_features]
        )

        # Add the rest of features into final feature layer
        feature_layer = tf.keras.layers.concatenate(
            [engineered_feature_layer, numeric_feature_layer, binary_feature_layer]
        )

        return feature_layer


# setup model, this is basically Logistic regression
feature_layer = FeatureLayer(name="feature_layer")(feature_layer_inputs)
x = tf.keras.layers.BatchNormalization(name="batch_norm")(feature_layer)
output = tf.keras.layers.Dense(1, activation="sigmoid", name="target")(x)
model = tf.keras.Model(inputs=feature_layer_inputs, outputs=output)
model.compile(
    loss=tf.keras.losses.BinaryCrossentropy(),
    optimizer=tf.keras.optimizers.Adam(learning_rate=0.01),
    metrics=[
        tf.keras.metrics.BinaryAccuracy(name="accuracy"),
        tf.keras.metrics.AUC(name="auc"),
    ],
)

"""
# Train Model and Save model
"""

_history = model.fit(dataset, epochs=2, verbose=0)
for _k, _v in _history.history.items():
    RESULTS["history_" + _k] = _v

# save model
tf.keras.models.save_model(model, os.path.join(_tmp, "model.keras"))

"""
# Load model and predict on raw data
"""

# load model for inference
loaded_model = tf.keras.models.load_model(
    os.path.join(_tmp, "model.keras"), custom_objects={"FeatureLayer": FeatureLayer})

_eval = dict(zip(loaded_model.metrics_names, loaded_model.evaluate(dataset, verbose=0)))
print(_eval)
for _k, _v in sorted(_eval.items()):
    RESULTS["loaded_evaluate_" + _k] = _v
RESULTS["evaluate"] = model.evaluate(dataset, verbose=0)
_raw = {k: tf.constant(np.asarray(v[:8]).reshape(-1, 1).astype(
    "str" if k == "thal" else "float32")) for k, v in _cols.items() if k != "target"}
RESULTS["features"] = model.get_layer("feature_layer")(_raw)
RESULTS["predict"] = model.predict(_raw, verbose=0)
RESULTS["loaded_predict"] = loaded_model.predict(_raw, verbose=0)
RESULTS["batch_norm_moving_mean"] = model.get_layer("batch_norm").moving_mean
RESULTS["batch_norm_moving_variance"] = model.get_layer("batch_norm").moving_variance
