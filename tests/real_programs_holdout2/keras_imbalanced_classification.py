"""Title: Imbalanced classification: credit card fraud detection (Keras example)
Source: https://github.com/keras-team/keras-io/blob/0e2570ad95239574579c493d03eac955af344c24/examples/structured_data/imbalanced_classification.py
Licence: Apache-2.0 (keras-team/keras-io)
Changed: the Kaggle creditcard.csv (284807 rows, 30 features, "Class" quoted) -> a synthetic
creditcard.csv of 2000 rows in the same format (header, 30 float features, quoted 0/1 class,
about 5% positive) from a seeded NumPy generator, written in a temporary directory that the
program changes into (the checkpoints are written there); epochs 30 -> 3; verbose 2 -> 0;
keras.utils.set_random_seed(0); the model's kernels fixed (fix_weights); summary() and prints ->
RESULTS (the header, the first example, the shapes and counts, the history).
"""
import csv
import os
import tempfile

import numpy as np
from _corpus import fix_weights

RESULTS = {}
os.chdir(tempfile.mkdtemp())
_rng = np.random.default_rng(0)
with open("creditcard.csv", "w") as _f:
    _f.write(",".join(['"Time"'] + [f'"V{i}"' for i in range(1, 29)] + ['"Amount"', '"Class"']) + "\n")
    for _i in range(2000):
        _cls = int(_rng.random() < 0.05)
        _row = [float(_i)] + list(_rng.normal(_cls, 1.0, 28)) + [float(_rng.gamma(2.0, 40.0))]
        _f.write(",".join(f"{v:.6g}" for v in _row) + f',"{_cls}"\n')

# Get the real data from https://www.kaggle.com/mlg-ulb/creditcardfraud/
fname = "creditcard.csv"

all_features = []
all_targets = []
with open(fname) as f:
    for i, line in enumerate(f):
        if i == 0:
            RESULTS["header"] = line.strip()
            continue  # Skip header
        fields = line.strip().split(",")
        all_features.append([float(v.replace('"', "")) for v in fields[:-1]])
        all_targets.append([int(fields[-1].replace('"', ""))])
        if i == 1:
            RESULTS["example"] = all_features[-1]

features = np.array(all_features, dtype="float32")
targets = np.array(all_targets, dtype="uint8")
RESULTS["shapes"] = [features.shape, targets.shape]

num_val_samples = int(len(features) * 0.2)
train_features = features[:-num_val_samples]
train_targets = targets[:-num_val_samples]
val_features = features[-num_val_samples:]
val_targets = targets[-num_val_samples:]

RESULTS["samples"] = [len(train_features), len(val_features)]

counts = np.bincount(train_targets[:, 0])
RESULTS["positive"] = "Number of positive samples in training data: {} ({:.2f}% of total)".format(
    counts[1], 100 * float(counts[1]) / len(train_targets))

weight_for_0 = 1.0 / counts[0]
weight_for_1 = 1.0 / counts[1]

mean = np.mean(train_features, axis=0)
train_features -= mean
val_features -= mean
std = np.std(train_features, axis=0)
train_features /= std
val_features /= std

import keras

keras.utils.set_random_seed(0)
model = keras.Sequential(
    [
        keras.Input(shape=train_features.shape[1:]),
        keras.layers.Dense(256, activation="relu"),
        keras.layers.Dense(256, activation="relu"),
        keras.layers.Dropout(0.3),
        keras.layers.Dense(256, activation="relu"),
        keras.layers.Dropout(0.3),
        keras.layers.Dense(1, activation="sigmoid"),
    ]
)
fix_weights(model)
RESULTS["params"] = model.count_params()

metrics = [
    keras.metrics.FalseNegatives(name="fn"),
    keras.metrics.FalsePositives(name="fp"),
    keras.metrics.TrueNegatives(name="tn"),
    keras.metrics.TruePositives(name="tp"),
    keras.metrics.Precision(name="precision"),
    keras.metrics.Recall(name="recall"),
]

model.compile(
    optimizer=keras.optimizers.Adam(1e-2), loss="binary_crossentropy", metrics=metrics
)

callbacks = [keras.callbacks.ModelCheckpoint("fraud_model_at_epoch_{epoch}.keras")]
class_weight = {0: weight_for_0, 1: weight_for_1}

history = model.fit(
    train_features,
    train_targets,
    batch_size=2048,
    epochs=3,
    verbose=0,
    callbacks=callbacks,
    validation_data=(val_features, val_targets),
    class_weight=class_weight,
)
RESULTS["history_keys"] = sorted(history.history)
RESULTS["history"] = [history.history[k] for k in sorted(history.history)]
RESULTS["checkpoints"] = sorted(p for p in os.listdir(".") if p.endswith(".keras"))
