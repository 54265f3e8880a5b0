"""Title: Deep Learning with Python, 3rd ed., chapter 4: Classifying newswires, a multiclass classification example (Reuters)
Source: https://github.com/fchollet/deep-learning-with-python-notebooks/blob/dea84a4e12cc3bb3cb61ce952a0168bca113d315/chapter04_classification-and-regression.ipynb
Licence: MIT (fchollet/deep-learning-with-python-notebooks)
Changed: the notebook's "Classifying newswires" cells (35-66) in order, after the imports and
the multi_hot_encode function they use from the IMDb section (cells 14 and 17); the `!pip` cell,
the `KERAS_BACKEND = "jax"` cell and the IPython cell-magic cell removed (the program runs on
Keras's TensorFlow backend); keras.utils.set_random_seed(0) at the top; the Reuters dataset
(8982 + 2246 newswires of word indices below 10000, 46 topics, downloaded) -> 1300 + 300
synthetic newswires of 20-150 word indices in [1, 10000) and topics in [0, 46) from a seeded
NumPy generator (every topic present in each split, so to_categorical gives 46 columns; the
first 300 training newswires as the validation set instead of 1000); the decoding cell (39)
removed (it downloads the word index); epochs cut: 20 -> 6 and 9 -> 4 (the last model's
20 -> 5); the matplotlib cells (51-53) removed, their histories -> RESULTS, with the displayed
values (lengths, a sample, the results, the shuffled-label baseline, the predictions).
"""
RESULTS = {}

import keras
keras.utils.set_random_seed(0)
import numpy as np

def _synthetic_newswires(n, rng):
    data = [rng.integers(1, 10000, rng.integers(20, 151)).tolist() for _ in range(n)]
    labels = rng.permutation(np.concatenate([np.arange(46), rng.integers(0, 46, n - 46)]))
    return np.array(data, dtype=object), labels.astype(np.int64)

_rng = np.random.default_rng(0)
# [cell 14]
import numpy as np

def multi_hot_encode(sequences, num_classes):
    results = np.zeros((len(sequences), num_classes))
    for i, sequence in enumerate(sequences):
        results[i][sequence] = 1.0
    return results

# [cell 17]
import keras
from keras import layers

# [cell 35]
(train_data, train_labels), (test_data, test_labels) = (
    _synthetic_newswires(1300, _rng), _synthetic_newswires(300, _rng))
# [cell 36]
RESULTS["len_train_data"] = len(train_data)
# [cell 37]
RESULTS["len_test_data"] = len(test_data)
# [cell 38]
RESULTS["train_data_10"] = np.array(train_data[10])
# [cell 40]
RESULTS["train_labels_10"] = train_labels[10]
# [cell 42]
x_train = multi_hot_encode(train_data, num_classes=10000)
x_test = multi_hot_encode(test_data, num_classes=10000)
# [cell 43]
def one_hot_encode(labels, num_classes=46):
    results = np.zeros((len(labels), num_classes))
    for i, label in enumerate(labels):
        results[i, label] = 1.0
    return results

y_train = one_hot_encode(train_labels)
y_test = one_hot_encode(test_labels)
# [cell 44]
from keras.utils import to_categorical

y_train = to_categorical(train_labels)
y_test = to_categorical(test_labels)
RESULTS["y_train_shape"] = list(y_train.shape)
RESULTS["y_train_first3"] = y_train[:3]
# [cell 46]
model = keras.Sequential(
    [
        layers.Dense(64, activation="relu"),
        layers.Dense(64, activation="relu"),
        layers.Dense(46, activation="softmax"),
    ]
)
# [cell 47]
top_3_accuracy = keras.metrics.TopKCategoricalAccuracy(
    k=3, name="top_3_accuracy"
)
model.compile(
    optimizer="adam",
    loss="categorical_crossentropy",
    metrics=["accuracy", top_3_accuracy],
)
# [cell 49]
x_val = x_train[:300]
partial_x_train = x_train[300:]
y_val = y_train[:300]
partial_y_train = y_train[300:]
# [cell 50]
history = model.fit(
    partial_x_train,
    partial_y_train,
    epochs=6,
    batch_size=512,
    validation_data=(x_val, y_val),
)
for _k, _v in history.history.items():
    RESULTS["history1_" + _k] = _v
# [cell 54]
model = keras.Sequential(
    [
        layers.Dense(64, activation="relu"),
        layers.Dense(64, activation="relu"),
        layers.Dense(46, activation="softmax"),
    ]
)
model.compile(
    optimizer="adam",
    loss="categorical_crossentropy",
    metrics=["accuracy"],
)
_h2 = model.fit(
    x_train,
    y_train,
    epochs=4,
    batch_size=512,
)
RESULTS["history2_loss"] = _h2.history["loss"]
RESULTS["history2_accuracy"] = _h2.history["accuracy"]
results = model.evaluate(x_test, y_test)
# [cell 55]
RESULTS["results"] = results
# [cell 56]
import copy
test_labels_copy = copy.copy(test_labels)
np.random.shuffle(test_labels_copy)
hits_array = np.array(test_labels == test_labels_copy)
RESULTS["random_baseline"] = hits_array.mean()
# [cell 58]
predictions = model.predict(x_test)
RESULTS["predictions_first5"] = predictions[:5]
# [cell 59]
RESULTS["predictions_0_shape"] = list(predictions[0].shape)
# [cell 60]
RESULTS["predictions_0_sum"] = np.sum(predictions[0])
# [cell 61]
RESULTS["predictions_0_argmax"] = np.argmax(predictions[0])
RESULTS["predictions_argmax_all"] = np.argmax(predictions, axis=1)
# [cell 63]
y_train = train_labels
y_test = test_labels
# [cell 64]
model.compile(
    optimizer="adam",
    loss="sparse_categorical_crossentropy",
    metrics=["accuracy"],
)
RESULTS["sparse_eval_after_recompile"] = model.evaluate(x_test, y_test)
# [cell 66]
model = keras.Sequential(
    [
        layers.Dense(64, activation="relu"),
        layers.Dense(4, activation="relu"),
        layers.Dense(46, activation="softmax"),
    ]
)
model.compile(
    optimizer="adam",
    loss="categorical_crossentropy",
    metrics=["accuracy"],
)
_h3 = model.fit(
    partial_x_train,
    partial_y_train,
    epochs=5,
    batch_size=128,
    validation_data=(x_val, y_val),
)
for _k, _v in _h3.history.items():
    RESULTS["history3_" + _k] = _v
RESULTS["bottleneck_predictions_first3"] = model.predict(x_test[:3])
