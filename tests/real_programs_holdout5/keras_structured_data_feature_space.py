"""Title: Structured data classification with FeatureSpace (Keras example, Keras 3 port)
Source: https://github.com/keras-team/keras/blob/39169ad5e64b38483c2f37098a45403f144ad887/examples/keras_io/tensorflow/structured_data/structured_data_classification_with_feature_space.py
Licence: Apache-2.0 (keras-team/keras)
Changed: the heart.csv download read with pd.read_csv (303 patients, 14 columns) -> 303
synthetic patients in the same columns and value ranges from a seeded NumPy generator, held as a
dict of NumPy columns instead of a DataFrame (pandas is not a dependency): dataframe.shape ->
(rows, columns); .head() -> the first 5 rows of each column; .sample(frac=0.2,
random_state=1337) / .drop(index) -> the rows of np.random.RandomState(1337).permutation's
first 20% / the others (in their original order); .copy()/.pop("target")/dict(dataframe) ->
the same on a dict; verbose=2 -> 0 (and predict verbose=0); keras.utils.set_random_seed(0)
(shuffle and dropout are unseeded) and tf.config.experimental.enable_op_determinism() (the
preprocessing runs in parallel maps); the training model's kernels fixed (fix_weights); prints
-> RESULTS.
"""

import os
os.environ["KERAS_BACKEND"] = "tensorflow"

import numpy as np
import tensorflow as tf
import keras
from keras.utils import FeatureSpace
from _corpus import fix_weights

keras.utils.set_random_seed(0)
tf.config.experimental.enable_op_determinism()
RESULTS = {}
_rng = np.random.default_rng(0)
_n = 303
dataframe = {
    "age": _rng.integers(29, 78, _n),
    "sex": _rng.integers(0, 2, _n),
    "cp": _rng.integers(0, 5, _n),
    "trestbps": _rng.integers(94, 201, _n),
    "chol": _rng.integers(126, 565, _n),
    "fbs": _rng.integers(0, 2, _n),
    "restecg": _rng.integers(0, 3, _n),
    "thalach": _rng.integers(71, 203, _n),
    "exang": _rng.integers(0, 2, _n),
    "oldpeak": np.round(_rng.uniform(0.0, 6.2, _n), 1),
    "slope": _rng.integers(1, 4, _n),
    "ca": _rng.integers(0, 4, _n),
    "thal": np.array(["fixed", "normal", "reversible"])[_rng.integers(0, 3, _n)].astype(object),
    "target": _rng.integers(0, 2, _n),
}

print((_n, len(dataframe)))

{k: v[:5] for k, v in dataframe.items()}

_val_rows = np.random.RandomState(1337).permutation(_n)[: round(0.2 * _n)]
_train_rows = np.setdiff1d(np.arange(_n), _val_rows)
val_dataframe = {k: v[_val_rows] for k, v in dataframe.items()}
train_dataframe = {k: v[_train_rows] for k, v in dataframe.items()}

print(
    "Using %d samples for training and %d for validation"
    % (len(train_dataframe["target"]), len(val_dataframe["target"]))
)


def dataframe_to_dataset(dataframe):
    dataframe = dataframe.copy()
    labels = dataframe.pop("target")
    ds = tf.data.Dataset.from_tensor_slices((dict(dataframe), labels))
    ds = ds.shuffle(buffer_size=len(labels))
    return ds


train_ds = dataframe_to_dataset(train_dataframe)
val_ds = dataframe_to_dataset(val_dataframe)

for x, y in train_ds.take(1):
    print("Input:", x)
    print("Target:", y)
    RESULTS["first_age_target"] = [x["age"], y]

train_ds = train_ds.batch(32)
val_ds = val_ds.batch(32)

feature_space = FeatureSpace(
    features={
        # Categorical features encoded as integers
        "sex": "integer_categorical",
        "cp": "integer_categorical",
        "fbs": "integer_categorical",
        "restecg": "integer_categorical",
        "exang": "integer_categorical",
        "ca": "integer_categorical",
        # Categorical feature encoded as string
        "thal": "string_categorical",
        # Numerical features to discretize
        "age": "float_discretized",
        # Numerical features to normalize
        "trestbps": "float_normalized",
        "chol": "float_normalized",
        "thalach": "float_normalized",
        "oldpeak": "float_normalized",
        "slope": "float_normalized",
    },
    # We create additional features by hashing
    # value co-occurrences for the
    # following groups of categorical features.
    crosses=[("sex", "age"), ("thal", "ca")],
    # The hashing space for these co-occurrences
    # wil be 32-dimensional.
    crossing_dim=32,
    # Our utility will one-hot encode all categorical
    # features and concat all features into a single
    # vector (one vector per sample).
    output_mode="concat",
)

feature_space = FeatureSpace(
    features={
        # Categorical features encoded as integers
        "sex": FeatureSpace.integer_categorical(num_oov_indices=0),
        "cp": FeatureSpace.integer_categorical(num_oov_indices=0),
        "fbs": FeatureSpace.integer_categorical(num_oov_indices=0),
        "restecg": FeatureSpace.integer_categorical(num_oov_indices=0),
        "exang": FeatureSpace.integer_categorical(num_oov_indices=0),
        "ca": FeatureSpace.integer_categorical(num_oov_indices=0),
        # Categorical feature encoded as string
        "thal": FeatureSpace.string_categorical(num_oov_indices=0),
        # Numerical features to discretize
        "age": FeatureSpace.float_discretized(num_bins=30),
        # Numerical features to normalize
        "trestbps": FeatureSpace.float_normalized(),
        "chol": FeatureSpace.float_normalized(),
        "thalach": FeatureSpace.float_normalized(),
        "oldpeak": FeatureSpace.float_normalized(),
        "slope": FeatureSpace.float_normalized(),
    },
    # Specify feature cross with a custom crossing dim.
    crosses=[
        FeatureSpace.cross(feature_names=("sex", "age"), crossing_dim=64),
        FeatureSpace.cross(
            feature_names=("thal", "ca"),
            crossing_dim=16,
        ),
    ],
    output_mode="concat",
)

train_ds_with_no_labels = train_ds.map(lambda x, _: x)
feature_space.adapt(train_ds_with_no_labels)

for x, _ in train_ds.take(1):
    preprocessed_x = feature_space(x)
    print("preprocessed_x.shape:", preprocessed_x.shape)
    print("preprocessed_x.dtype:", preprocessed_x.dtype)
    RESULTS["preprocessed_x"] = preprocessed_x
    RESULTS["preprocessed_x_dtype"] = str(preprocessed_x.dtype)

preprocessed_train_ds = train_ds.map(
    lambda x, y: (feature_space(x), y), num_parallel_calls=tf.data.AUTOTUNE
)
preprocessed_train_ds = preprocessed_train_ds.prefetch(tf.data.AUTOTUNE)

preprocessed_val_ds = val_ds.map(
    lambda x, y: (feature_space(x), y), num_parallel_calls=tf.data.AUTOTUNE
)
preprocessed_val_ds = preprocessed_val_ds.prefetch(tf.data.AUTOTUNE)

dict_inputs = feature_space.get_inputs()
encoded_features = feature_space.get_encoded_features()

x = keras.layers.Dense(32, activation="relu")(encoded_features)
x = keras.layers.Dropout(0.5)(x)
predictions = keras.layers.Dense(1, activation="sigmoid")(x)

training_model = keras.Model(inputs=encoded_features, outputs=predictions)
fix_weights(training_model)
training_model.compile(
    optimizer="adam", loss="binary_crossentropy", metrics=["accuracy"]
)

inference_model = keras.Model(inputs=dict_inputs, outputs=predictions)

history = training_model.fit(
    preprocessed_train_ds,
    epochs=20,
    validation_data=preprocessed_val_ds,
    verbose=0,
)
RESULTS["history"] = [history.history[k] for k in ("loss", "accuracy", "val_loss", "val_accuracy")]

sample = {
    "age": 60,
    "sex": 1,
    "cp": 1,
    "trestbps": 145,
    "chol": 233,
    "fbs": 1,
    "restecg": 2,
    "thalach": 150,
    "exang": 0,
    "oldpeak": 2.3,
    "slope": 3,
    "ca": 0,
    "thal": "fixed",
}

input_dict = {
    name: tf.convert_to_tensor([value]) for name, value in sample.items()
}
predictions = inference_model.predict(input_dict, verbose=0)

print(
    f"This particular patient had a {100 * predictions[0][0]:.2f}% probability "
    "of having a heart disease, as evaluated by our model."
)
RESULTS["predictions"] = predictions
