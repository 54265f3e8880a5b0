"""Title: Classification on imbalanced data (TF tutorial)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/tutorials/structured_data/imbalanced_data.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: the Credit Card Fraud CSV (downloaded; 284807 rows, read with pandas) -> 3000 synthetic
rows (Time, V1..V28, Amount, Class with ~6% positives) from a seeded NumPy generator; pandas and
sklearn (pandas is installed in neither environment, sklearn not under TensorFlow) -> NumPy:
the DataFrame -> a dict of columns (copy/pop/assign as written, np.array(df) -> the columns
stacked in order), train_test_split(test_size=0.2) -> a seeded permutation split with its sizes
(ceil(0.2 n) test rows), StandardScaler -> the training mean and population std,
confusion_matrix -> NumPy counts (recorded with plot_cm's prints); the describe()/head()
displays, seaborn/matplotlib plots (jointplots, plot_loss, plot_metrics, plot_roc, plot_prc and
the heatmap) removed; EPOCHS 100 -> 1 and the bias experiments' epochs 20 -> 2;
keras.utils.set_random_seed(0) (splits, dropout, np.random and tf.data shuffles are unseeded);
the first two models' kernels fixed (fix_weights; the later models load the saved initial
weights); verbose=0; the histories, evaluations, predictions and counts -> RESULTS.
"""
import tensorflow as tf
from tensorflow import keras

import os
import tempfile

import numpy as np
from _corpus import fix_weights

keras.utils.set_random_seed(0)
RESULTS = {}

_rng = np.random.default_rng(0)
_n = 3000
_class = (_rng.random(_n) < 0.06).astype(np.int64)
raw_df = {'Time': np.sort(_rng.uniform(0, 172792, _n))}
for _i in range(1, 29):
  raw_df[f'V{_i}'] = _rng.normal(size=_n) + _class * _rng.normal(0, 2.0) * (_i % 4 == 0)
raw_df['Amount'] = np.round(_rng.exponential(88.0, _n), 2) * (_rng.random(_n) > 0.01)
raw_df['Class'] = _class

neg, pos = np.bincount(raw_df['Class'])
total = neg + pos
print('Examples:\n    Total: {}\n    Positive: {} ({:.2f}% of total)\n'.format(
    total, pos, 100 * pos / total))
RESULTS['counts'] = [neg, pos]

cleaned_df = dict(raw_df)

# You don't want the `Time` column.
cleaned_df.pop('Time')

# The `Amount` column covers a huge range. Convert to log-space.
eps = 0.001 # 0 => 0.1¢
cleaned_df['Log Amount'] = np.log(cleaned_df.pop('Amount')+eps)


def train_test_split(df, test_size):
  rows = len(next(iter(df.values())))
  order = np.random.permutation(rows)
  n_test = int(np.ceil(test_size * rows))
  return ({k: v[order[n_test:]] for k, v in df.items()},
          {k: v[order[:n_test]] for k, v in df.items()})


# Use a utility from sklearn to split and shuffle your dataset.
train_df, test_df = train_test_split(cleaned_df, test_size=0.2)
train_df, val_df = train_test_split(train_df, test_size=0.2)

# Form np arrays of labels and features.
train_labels = np.array(train_df.pop('Class')).reshape(-1, 1)
bool_train_labels = train_labels[:, 0] != 0
val_labels = np.array(val_df.pop('Class')).reshape(-1, 1)
test_labels = np.array(test_df.pop('Class')).reshape(-1, 1)

train_features = np.stack(list(train_df.values()), axis=1)
val_features = np.stack(list(val_df.values()), axis=1)
test_features = np.stack(list(test_df.values()), axis=1)

print(f'Average class probability in training set:   {train_labels.mean():.4f}')
print(f'Average class probability in validation set: {val_labels.mean():.4f}')
print(f'Average class probability in test set:       {test_labels.mean():.4f}')

_mean, _std = train_features.mean(axis=0), train_features.std(axis=0)
train_features = (train_features - _mean) / _std

val_features = (val_features - _mean) / _std
test_features = (test_features - _mean) / _std

train_features = np.clip(train_features, -5, 5)
val_features = np.clip(val_features, -5, 5)
test_features = np.clip(test_features, -5, 5)


print('Training labels shape:', train_labels.shape)
print('Validation labels shape:', val_labels.shape)
print('Test labels shape:', test_labels.shape)

print('Training features shape:', train_features.shape)
print('Validation features shape:', val_features.shape)
print('Test features shape:', test_features.shape)

METRICS = [
      keras.metrics.BinaryCrossentropy(name='cross entropy'),  # same as model's loss
      keras.metrics.MeanSquaredError(name='Brier score'),
      keras.metrics.TruePositives(name='tp'),
      keras.metrics.FalsePositives(name='fp'),
      keras.metrics.TrueNegatives(name='tn'),
      keras.metrics.FalseNegatives(name='fn'),
      keras.metrics.BinaryAccuracy(name='accuracy'),
      keras.metrics.Precision(name='precision'),
      keras.metrics.Recall(name='recall'),
      keras.metrics.AUC(name='auc'),
      keras.metrics.AUC(name='prc', curve='PR'), # precision-recall curve
]

def make_model(metrics=METRICS, output_bias=None):
  if output_bias is not None:
    output_bias = tf.keras.initializers.Constant(output_bias)
  model = keras.Sequential([
      keras.layers.Dense(
          16, activation='relu',
          input_shape=(train_features.shape[-1],)),
      keras.layers.Dropout(0.5),
      keras.layers.Dense(1, activation='sigmoid',
                         bias_initializer=output_bias),
  ])

  model.compile(
      optimizer=keras.optimizers.Adam(learning_rate=1e-3),
      loss=keras.losses.BinaryCrossentropy(),
      metrics=metrics)

  return model

EPOCHS = 1
BATCH_SIZE = 2048

def early_stopping():
 return tf.keras.callbacks.EarlyStopping(
    monitor='val_prc',
    verbose=1,
    patience=10,
    mode='max',
    restore_best_weights=True)

model = make_model()
fix_weights(model)
model.summary()

RESULTS['predict_no_bias'] = model.predict(train_features[:10], verbose=0)

results = model.evaluate(train_features, train_labels, batch_size=BATCH_SIZE, verbose=0)
print("Loss: {:0.4f}".format(results[0]))
RESULTS['loss_no_bias'] = results[0]

initial_bias = np.log([pos/neg])
initial_bias
RESULTS['initial_bias'] = initial_bias

model = make_model(output_bias=initial_bias)
fix_weights(model, seed=1)
RESULTS['predict_bias'] = model.predict(train_features[:10], verbose=0)

results = model.evaluate(train_features, train_labels, batch_size=BATCH_SIZE, verbose=0)
print("Loss: {:0.4f}".format(results[0]))
RESULTS['loss_bias'] = results[0]

initial_weights = os.path.join(tempfile.mkdtemp(), 'initial.weights.h5')
model.save_weights(initial_weights)

model = make_model()
model.load_weights(initial_weights)
model.layers[-1].bias.assign([0.0])
zero_bias_history = model.fit(
    train_features,
    train_labels,
    batch_size=BATCH_SIZE,
    epochs=2,
    validation_data=(val_features, val_labels),
    verbose=0)
RESULTS['zero_bias_loss'] = zero_bias_history.history['loss']
RESULTS['zero_bias_val_loss'] = zero_bias_history.history['val_loss']

model = make_model()
model.load_weights(initial_weights)
careful_bias_history = model.fit(
    train_features,
    train_labels,
    batch_size=BATCH_SIZE,
    epochs=2,
    validation_data=(val_features, val_labels),
    verbose=0)
RESULTS['careful_bias_loss'] = careful_bias_history.history['loss']
RESULTS['careful_bias_val_loss'] = careful_bias_history.history['val_loss']

model = make_model()
model.load_weights(initial_weights)
baseline_history = model.fit(
    train_features,
    train_labels,
    batch_size=BATCH_SIZE,
    epochs=EPOCHS,
    callbacks=[early_stopping()],
    validation_data=(val_features, val_labels), verbose=0)
RESULTS['baseline_history'] = [baseline_history.history[k] for k in
                               ['loss', 'prc', 'precision', 'recall', 'val_loss', 'val_prc', 'val_auc']]

train_predictions_baseline = model.predict(train_features, batch_size=BATCH_SIZE, verbose=0)
test_predictions_baseline = model.predict(test_features, batch_size=BATCH_SIZE, verbose=0)
RESULTS['test_predictions_baseline'] = test_predictions_baseline

_cms = []


def plot_cm(labels, predictions, threshold=0.5):
  predicted = (predictions > threshold)[:, 0].astype(int)
  cm = np.zeros((2, 2), np.int64)
  np.add.at(cm, (labels[:, 0], predicted), 1)
  _cms.append(cm)

  print('Legitimate Transactions Detected (True Negatives): ', cm[0][0])
  print('Legitimate Transactions Incorrectly Detected (False Positives): ', cm[0][1])
  print('Fraudulent Transactions Missed (False Negatives): ', cm[1][0])
  print('Fraudulent Transactions Detected (True Positives): ', cm[1][1])
  print('Total Fraudulent Transactions: ', np.sum(cm[1]))


baseline_results = model.evaluate(test_features, test_labels,
                                  batch_size=BATCH_SIZE, verbose=0)
for name, value in zip(model.metrics_names, baseline_results):
  print(name, ': ', value)
print()
RESULTS['baseline_results'] = baseline_results

plot_cm(test_labels, test_predictions_baseline)

plot_cm(test_labels, test_predictions_baseline, threshold=0.1)
plot_cm(test_labels, test_predictions_baseline, threshold=0.01)

# Scaling by total/2 helps keep the loss to a similar magnitude.
# The sum of the weights of all examples stays the same.
weight_for_0 = (1 / neg) * (total / 2.0)
weight_for_1 = (1 / pos) * (total / 2.0)

class_weight = {0: weight_for_0, 1: weight_for_1}

print('Weight for class 0: {:.2f}'.format(weight_for_0))
print('Weight for class 1: {:.2f}'.format(weight_for_1))

weighted_model = make_model()
weighted_model.load_weights(initial_weights)

weighted_history = weighted_model.fit(
    train_features,
    train_labels,
    batch_size=BATCH_SIZE,
    epochs=EPOCHS,
    callbacks=[early_stopping()],
    validation_data=(val_features, val_labels),
    # The class weights go here
    class_weight=class_weight, verbose=0)
RESULTS['weighted_history'] = [weighted_history.history[k] for k in
                               ['loss', 'prc', 'recall', 'val_loss', 'val_prc']]

train_predictions_weighted = weighted_model.predict(train_features, batch_size=BATCH_SIZE, verbose=0)
test_predictions_weighted = weighted_model.predict(test_features, batch_size=BATCH_SIZE, verbose=0)

weighted_results = weighted_model.evaluate(test_features, test_labels,
                                           batch_size=BATCH_SIZE, verbose=0)
for name, value in zip(weighted_model.metrics_names, weighted_results):
  print(name, ': ', value)
print()
RESULTS['weighted_results'] = weighted_results

plot_cm(test_labels, test_predictions_weighted)

pos_features = train_features[bool_train_labels]
neg_features = train_features[~bool_train_labels]

pos_labels = train_labels[bool_train_labels]
neg_labels = train_labels[~bool_train_labels]

ids = np.arange(len(pos_features))
choices = np.random.choice(ids, len(neg_features))

res_pos_features = pos_features[choices]
res_pos_labels = pos_labels[choices]

res_pos_features.shape

resampled_features = np.concatenate([res_pos_features, neg_features], axis=0)
resampled_labels = np.concatenate([res_pos_labels, neg_labels], axis=0)

order = np.arange(len(resampled_labels))
np.random.shuffle(order)
resampled_features = resampled_features[order]
resampled_labels = resampled_labels[order]

resampled_features.shape
RESULTS['resampled_labels_mean'] = resampled_labels.mean()

BUFFER_SIZE = 100000

def make_ds(features, labels):
  ds = tf.data.Dataset.from_tensor_slices((features, labels))#.cache()
  ds = ds.shuffle(BUFFER_SIZE).repeat()
  return ds

pos_ds = make_ds(pos_features, pos_labels)
neg_ds = make_ds(neg_features, neg_labels)

for features, label in pos_ds.take(1):
  print("Features:\n", features.numpy())
  print()
  print("Label: ", label.numpy())
  RESULTS['pos_label'] = label

resampled_ds = tf.data.Dataset.sample_from_datasets([pos_ds, neg_ds], weights=[0.5, 0.5])
resampled_ds = resampled_ds.batch(BATCH_SIZE).prefetch(2)

for features, label in resampled_ds.take(1):
  print(label.numpy().mean())
  RESULTS['resampled_batch_mean'] = label.numpy().mean()

resampled_steps_per_epoch = int(np.ceil(2.0*neg/BATCH_SIZE))
resampled_steps_per_epoch
RESULTS['resampled_steps_per_epoch'] = resampled_steps_per_epoch

resampled_model = make_model()
resampled_model.load_weights(initial_weights)

# Reset the bias to zero, since this dataset is balanced.
output_layer = resampled_model.layers[-1]
output_layer.bias.assign([0])

val_ds = tf.data.Dataset.from_tensor_slices((val_features, val_labels)).cache()
val_ds = val_ds.batch(BATCH_SIZE).prefetch(2)

resampled_history = resampled_model.fit(
    resampled_ds,
    epochs=EPOCHS,
    steps_per_epoch=resampled_steps_per_epoch,
    callbacks=[early_stopping()],
    validation_data=val_ds, verbose=0)
RESULTS['resampled_history'] = [resampled_history.history[k] for k in ['loss', 'val_loss', 'val_prc']]

resampled_model = make_model()
resampled_model.load_weights(initial_weights)

# Reset the bias to zero, since this dataset is balanced.
output_layer = resampled_model.layers[-1]
output_layer.bias.assign([0])

resampled_history = resampled_model.fit(
    resampled_ds,
    # These are not real epochs
    steps_per_epoch=20,
    epochs=10*EPOCHS,
    callbacks=[early_stopping()],
    validation_data=(val_ds), verbose=0)
RESULTS['resampled_history_long'] = [resampled_history.history[k] for k in ['loss', 'val_loss', 'val_prc']]

train_predictions_resampled = resampled_model.predict(train_features, batch_size=BATCH_SIZE, verbose=0)
test_predictions_resampled = resampled_model.predict(test_features, batch_size=BATCH_SIZE, verbose=0)

resampled_results = resampled_model.evaluate(test_features, test_labels,
                                             batch_size=BATCH_SIZE, verbose=0)
for name, value in zip(resampled_model.metrics_names, resampled_results):
  print(name, ': ', value)
print()
RESULTS['resampled_results'] = resampled_results
plot_cm(test_labels, test_predictions_resampled)
RESULTS['confusion_matrices'] = _cms
RESULTS['test_predictions_resampled'] = test_predictions_resampled
