"""Title: Classification with Neural Decision Forests (keras.io example, Keras 3 version)
Source: https://github.com/keras-team/keras/blob/2fae37e0c71c70f81baeed9f5e216ae4d8b92280/examples/keras_io/structured_data/deep_neural_decision_forests.py
Licence: Apache-2.0 (keras-team/keras)
Changed: the example's code in order; keras.utils.set_random_seed(0) at the top (np.random
feature masks, initializers, the CSV dataset shuffle); pandas removed: the two
pd.read_csv(<UCI URL>) downloads and DataFrame.to_csv -> synthetic rows in the Census Income
format (5 numeric + 9 categorical columns, categorical values and labels with the file's leading
space, e.g. " State-gov", " <=50K"; a few "?" missing values) drawn from a seeded NumPy
generator and written with the csv module to train_data.csv / test_data.csv in a temporary
directory (600 train and 200 test rows; the dataset has 32,561 and 16,281), the printed
DataFrame shapes -> the row/column counts, the test set's "first record" removal and
trailing-dot stripping kept in list form, and `sorted(list(train_data[name].unique()))` ->
`sorted(set(<that column of the training rows>))`; at the end of encode_categorical two
lines added to pop the IGNORE_COLUMN_NAMES ("fnlwgt") from the features, and `return batch_x,
batch_y` -> `return dict(batch_x), batch_y`: make_csv_dataset yields an OrderedDict of every
column, and Keras 3.15 feeds such features to the model's 13 named inputs by position instead
of by name, both when an extra key is present and when the OrderedDict's order differs from the
inputs' (the Embedding for "race" received capital_gain values: "indices[1] = 14084 is not in
[0, 6)"); num_epochs 10 -> 2; the two functional models given
name="tree" / name="forest" (to key their results); the test accuracies,
the training histories and predictions of both models -> RESULTS. (As published, encode_inputs
sizes every Embedding by the last StringLookup built in the lookup_dict loop, native_country's,
the largest vocabulary in the real data; kept, and the synthetic native_country is likewise given
the most values.)
"""
RESULTS = {}

import csv
import os
import tempfile

os.chdir(tempfile.mkdtemp())

import keras
from keras import layers
from keras.layers import StringLookup
from keras import ops


from tensorflow import data as tf_data
import numpy as np

import math

keras.utils.set_random_seed(0)

"""
## Prepare the data
"""

CSV_HEADER = [
    "age",
    "workclass",
    "fnlwgt",
    "education",
    "education_num",
    "marital_status",
    "occupation",
    "relationship",
    "race",
    "gender",
    "capital_gain",
    "capital_loss",
    "hours_per_week",
    "native_country",
    "income_bracket",
]

_rng = np.random.default_rng(0)
_CATS = {
    "workclass": ["State-gov", "Self-emp-not-inc", "Private", "Federal-gov", "Local-gov", "?"],
    "education": ["Bachelors", "HS-grad", "11th", "Masters", "9th", "Some-college", "Doctorate"],
    "marital_status": ["Never-married", "Married-civ-spouse", "Divorced", "Separated", "Widowed"],
    "occupation": ["Adm-clerical", "Exec-managerial", "Handlers-cleaners", "Prof-specialty",
                   "Sales", "Craft-repair", "Tech-support", "?"],
    "relationship": ["Not-in-family", "Husband", "Wife", "Own-child", "Unmarried"],
    "race": ["White", "Black", "Asian-Pac-Islander", "Amer-Indian-Eskimo", "Other"],
    "gender": ["Male", "Female"],
    "native_country": ["United-States", "Cuba", "Jamaica", "India", "Mexico", "Canada", "England",
                       "Germany", "Iran", "Philippines", "?"],
}
def _synthetic_rows(n, label_suffix=""):
    rows = []
    for _ in range(n):
        row = {
            "age": int(_rng.integers(17, 90)), "fnlwgt": int(_rng.integers(20000, 500000)),
            "education_num": int(_rng.integers(1, 17)),
            "capital_gain": int(_rng.choice([0, 0, 0, 2174, 14084])),
            "capital_loss": int(_rng.choice([0, 0, 0, 1902])),
            "hours_per_week": int(_rng.integers(10, 80)),
        }
        for name, values in _CATS.items():
            row[name] = " " + str(_rng.choice(values))
        score = row["education_num"] / 16 + row["hours_per_week"] / 80 + _rng.normal(0, 0.3)
        row["income_bracket"] = (" >50K" if score > 1.2 else " <=50K") + label_suffix
        rows.append([row[c] if c in ("age", "fnlwgt") or c not in _CATS and c != "income_bracket"
                     else row[c] for c in CSV_HEADER])
    return rows

train_data = _synthetic_rows(600)
test_data = [["|1x3 Cross validator"] + [""] * 14] + _synthetic_rows(200, label_suffix=".")

print(f"Train dataset shape: {(len(train_data), len(CSV_HEADER))}")
print(f"Test dataset shape: {(len(test_data), len(CSV_HEADER))}")
RESULTS["train_shape"] = (len(train_data), len(CSV_HEADER))

"""
Remove the first record (because it is not a valid data example) and a trailing
'dot' in the class labels.
"""

test_data = test_data[1:]
for _row in test_data:
    _row[-1] = _row[-1].replace(".", "")

"""
We store the training and test data splits locally as CSV files.
"""

train_data_file = "train_data.csv"
test_data_file = "test_data.csv"

for _path, _rows in ((train_data_file, train_data), (test_data_file, test_data)):
    with open(_path, "w", newline="") as _f:
        csv.writer(_f).writerows(_rows)

"""
## Define dataset metadata
"""

# A list of the numerical feature names.
NUMERIC_FEATURE_NAMES = [
    "age",
    "education_num",
    "capital_gain",
    "capital_loss",
    "hours_per_week",
]
_column = lambda name: [row[CSV_HEADER.index(name)] for row in train_data]
# A dictionary of the categorical features and their vocabulary.
CATEGORICAL_FEATURES_WITH_VOCABULARY = {
    "workclass": sorted(set(_column("workclass"))),
    "education": sorted(set(_column("education"))),
    "marital_status": sorted(set(_column("marital_status"))),
    "occupation": sorted(set(_column("occupation"))),
    "relationship": sorted(set(_column("relationship"))),
    "race": sorted(set(_column("race"))),
    "gender": sorted(set(_column("gender"))),
    "native_country": sorted(set(_column("native_country"))),
}
# A list of the columns to ignore from the dataset.
IGNORE_COLUMN_NAMES = ["fnlwgt"]
# A list of the categorical feature names.
CATEGORICAL_FEATURE_NAMES = list(CATEGORICAL_FEATURES_WITH_VOCABULARY.keys())
# A list of all the input features.
FEATURE_NAMES = NUMERIC_FEATURE_NAMES + CATEGORICAL_FEATURE_NAMES
# A list of column default values for each feature.
COLUMN_DEFAULTS = [
    [0.0]
    if feature_name in NUMERIC_FEATURE_NAMES + IGNORE_COLUMN_NAMES
    else ["NA"]
    for feature_name in CSV_HEADER
]
# The name of the target feature.
TARGET_FEATURE_NAME = "income_bracket"
# A list of the labels of the target features.
TARGET_LABELS = [" <=50K", " >50K"]

"""
## Create `tf_data.Dataset` objects for training and validation
"""


target_label_lookup = StringLookup(
    vocabulary=TARGET_LABELS, mask_token=None, num_oov_indices=0
)


lookup_dict = {}
for feature_name in CATEGORICAL_FEATURE_NAMES:
    vocabulary = CATEGORICAL_FEATURES_WITH_VOCABULARY[feature_name]
    # Create a lookup to convert a string values to an integer indices.
    # Since we are not using a mask token, nor expecting any out of vocabulary
    # (oov) token, we set mask_token to None and num_oov_indices to 0.
    lookup = StringLookup(
        vocabulary=vocabulary, mask_token=None, num_oov_indices=0
    )
    lookup_dict[feature_name] = lookup


def encode_categorical(batch_x, batch_y):
    for feature_name in CATEGORICAL_FEATURE_NAMES:
        batch_x[feature_name] = lookup_dict[feature_name](batch_x[feature_name])

    for feature_name in IGNORE_COLUMN_NAMES:  # (added: see the docstring)
        batch_x.pop(feature_name)
    return dict(batch_x), batch_y


def get_dataset_from_csv(csv_file_path, shuffle=False, batch_size=128):
    dataset = (
        tf_data.experimental.make_csv_dataset(
            csv_file_path,
            batch_size=batch_size,
            column_names=CSV_HEADER,
            column_defaults=COLUMN_DEFAULTS,
            label_name=TARGET_FEATURE_NAME,
            num_epochs=1,
            header=False,
            na_value="?",
            shuffle=shuffle,
        )
        .map(lambda features, target: (features, target_label_lookup(target)))
        .map(encode_categorical)
    )

    return dataset.cache()


_x, _y = next(iter(get_dataset_from_csv(test_data_file, batch_size=8)))
RESULTS["first_batch_labels"] = _y
RESULTS["first_batch_workclass"] = _x["workclass"]
RESULTS["first_batch_age"] = _x["age"]

"""
## Create model inputs
"""


def create_model_inputs():
    inputs = {}
    for feature_name in FEATURE_NAMES:
        if feature_name in NUMERIC_FEATURE_NAMES:
            inputs[feature_name] = layers.Input(
                name=feature_name, shape=(), dtype="float32"
            )
        else:
            inputs[feature_name] = layers.Input(
                name=feature_name, shape=(), dtype="int32"
            )
    return inputs


"""
## Encode input features
"""


def encode_inputs(inputs):
    encoded_features = []
    for feature_name in inputs:
        if feature_name in CATEGORICAL_FEATURE_NAMES:
            vocabulary = CATEGORICAL_FEATURES_WITH_VOCABULARY[feature_name]
            # Create a lookup to convert a string values to an integer indices.
            # Since we are not using a mask token, nor expecting any out of vocabulary
            # (oov) token, we set mask_token to None and num_oov_indices to 0.
            value_index = inputs[feature_name]
            embedding_dims = int(math.sqrt(lookup.vocabulary_size()))
            # Create an embedding layer with the specified dimensions.
            embedding = layers.Embedding(
                input_dim=lookup.vocabulary_size(), output_dim=embedding_dims
            )
            # Convert the index values to embedding representations.
            encoded_feature = embedding(value_index)
        else:
            # Use the numerical features as-is.
            encoded_feature = inputs[feature_name]
            if inputs[feature_name].shape[-1] is None:
                encoded_feature = keras.ops.expand_dims(encoded_feature, -1)

        encoded_features.append(encoded_feature)

    encoded_features = layers.concatenate(encoded_features)
    return encoded_features


"""
## Deep Neural Decision Tree
"""


class NeuralDecisionTree(keras.Model):
    def __init__(self, depth, num_features, used_features_rate, num_classes):
        super().__init__()
        self.depth = depth
        self.num_leaves = 2**depth
        self.num_classes = num_classes

        # Create a mask for the randomly selected features.
        num_used_features = int(num_features * used_features_rate)
        one_hot = np.eye(num_features)
        sampled_feature_indices = np.random.choice(
            np.arange(num_features), num_used_features, replace=False
        )
        self.used_features_mask = ops.convert_to_tensor(
            one_hot[sampled_feature_indices], dtype="float32"
        )

        # Initialize the weights of the classes in leaves.
        self.pi = self.add_weight(
            initializer="random_normal",
            shape=[self.num_leaves, self.num_classes],
            dtype="float32",
            trainable=True,
        )

        # Initialize the stochastic routing layer.
        self.decision_fn = layers.Dense(
            units=self.num_leaves, activation="sigmoid", name="decision"
        )

    def call(self, features):
        batch_size = ops.shape(features)[0]

        # Apply the feature mask to the input features.
        features = ops.matmul(
            features, ops.transpose(self.used_features_mask)
        )  # [batch_size, num_used_features]
        # Compute the routing probabilities.
        decisions = ops.expand_dims(
            self.decision_fn(features), axis=2
        )  # [batch_size, num_leaves, 1]
        # Concatenate the routing probabilities with their complements.
        decisions = layers.concatenate(
            [decisions, 1 - decisions], axis=2
        )  # [batch_size, num_leaves, 2]

        mu = ops.ones([batch_size, 1, 1])

        begin_idx = 1
        end_idx = 2
        # Traverse the tree in breadth-first order.
        for level in range(self.depth):
            mu = ops.reshape(
                mu, [batch_size, -1, 1]
            )  # [batch_size, 2 ** level, 1]
            mu = ops.tile(mu, (1, 1, 2))  # [batch_size, 2 ** level, 2]
            level_decisions = decisions[
                :, begin_idx:end_idx, :
            ]  # [batch_size, 2 ** level, 2]
            mu = mu * level_decisions  # [batch_size, 2**level, 2]
            begin_idx = end_idx
            end_idx = begin_idx + 2 ** (level + 1)

        mu = ops.reshape(
            mu, [batch_size, self.num_leaves]
        )  # [batch_size, num_leaves]
        probabilities = keras.activations.softmax(
            self.pi
        )  # [num_leaves, num_classes]
        outputs = ops.matmul(mu, probabilities)  # [batch_size, num_classes]
        return outputs


"""
## Deep Neural Decision Forest
"""


class NeuralDecisionForest(keras.Model):
    def __init__(
        self, num_trees, depth, num_features, used_features_rate, num_classes
    ):
        super().__init__()
        self.ensemble = []
        # Initialize the ensemble by adding NeuralDecisionTree instances.
        # Each tree will have its own randomly selected input features to use.
        for _ in range(num_trees):
            self.ensemble.append(
                NeuralDecisionTree(
                    depth, num_features, used_features_rate, num_classes
                )
            )

    def call(self, inputs):
        # Initialize the outputs: a [batch_size, num_classes] matrix of zeros.
        batch_size = ops.shape(inputs)[0]
        outputs = ops.zeros([batch_size, num_classes])

        # Aggregate the outputs of trees in the ensemble.
        for tree in self.ensemble:
            outputs += tree(inputs)
        # Divide the outputs by the ensemble size to get the average.
        outputs /= len(self.ensemble)
        return outputs


learning_rate = 0.01
batch_size = 265
num_epochs = 2


def run_experiment(model):
    model.compile(
        optimizer=keras.optimizers.Adam(learning_rate=learning_rate),
        loss=keras.losses.SparseCategoricalCrossentropy(),
        metrics=[keras.metrics.SparseCategoricalAccuracy()],
    )

    print("Start training the model...")
    train_dataset = get_dataset_from_csv(
        train_data_file, shuffle=True, batch_size=batch_size
    )

    _history = model.fit(train_dataset, epochs=num_epochs)
    print("Model training finished")
    RESULTS[f"{model.name}_history_loss"] = _history.history["loss"]

    print("Evaluating the model on the test data...")
    test_dataset = get_dataset_from_csv(test_data_file, batch_size=batch_size)

    _, accuracy = model.evaluate(test_dataset)
    print(f"Test accuracy: {round(accuracy * 100, 2)}%")
    RESULTS[f"{model.name}_test_loss"] = _
    RESULTS[f"{model.name}_test_accuracy"] = accuracy
    RESULTS[f"{model.name}_predictions"] = model.predict(_x)


"""
## Experiment 1: train a decision tree model
"""

num_trees = 10
depth = 10
used_features_rate = 1.0
num_classes = len(TARGET_LABELS)


def create_tree_model():
    inputs = create_model_inputs()
    features = encode_inputs(inputs)
    features = layers.BatchNormalization()(features)
    num_features = features.shape[1]

    tree = NeuralDecisionTree(
        depth, num_features, used_features_rate, num_classes
    )

    outputs = tree(features)
    model = keras.Model(inputs=inputs, outputs=outputs, name="tree")
    return model


tree_model = create_tree_model()
run_experiment(tree_model)
RESULTS["tree_n_params"] = tree_model.count_params()


"""
## Experiment 2: train a forest model
"""

num_trees = 25
depth = 5
used_features_rate = 0.5


def create_forest_model():
    inputs = create_model_inputs()
    features = encode_inputs(inputs)
    features = layers.BatchNormalization()(features)
    num_features = features.shape[1]

    forest_model = NeuralDecisionForest(
        num_trees, depth, num_features, used_features_rate, num_classes
    )

    outputs = forest_model(features)
    model = keras.Model(inputs=inputs, outputs=outputs, name="forest")
    return model


forest_model = create_forest_model()

run_experiment(forest_model)
RESULTS["forest_n_params"] = forest_model.count_params()
