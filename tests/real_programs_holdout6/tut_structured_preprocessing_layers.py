"""Title: Classify structured data using Keras preprocessing layers (TF tutorial)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/tutorials/structured_data/preprocessing_layers.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: the PetFinder mini CSV (downloaded; 11537 rows, read with pandas) -> 400 synthetic rows
with the same columns and kinds of values from a seeded NumPy generator; pandas (installed in
neither environment) -> a dict of NumPy columns: the 'target' column assignment as written,
`drop(columns=...)` -> popping the two columns, `dataframe.sample(frac=1)` + np.split -> a
seeded NumPy permutation of the rows split at the same fractions, `dataframe.copy()` -> dict(...),
`value.to_numpy()` -> the column; epochs 10 -> 3; verbose=0; keras.utils.set_random_seed(0)
(shuffle, dropout and initializers are unseeded); the model's kernels fixed (fix_weights);
plot_model removed; the final print's `100 * prob` (shape (1,)) -> `100 * prob[0]` (under
NumPy 2.4 TF 2.21 raises TypeError: only 0-dimensional arrays can be converted to Python scalars); the model is saved to a temporary directory (not the working directory);
the layer outputs, history, evaluation and prediction -> RESULTS.
"""
import os
import tempfile

import numpy as np
import tensorflow as tf

from tensorflow.keras import layers
from _corpus import fix_weights

tf.keras.utils.set_random_seed(0)
RESULTS = {}

tf.__version__

_rng = np.random.default_rng(0)
_n = 400


def _pick(values, p=None):
  return np.array(values, dtype=object)[_rng.choice(len(values), _n, p=p)]


dataframe = {
    'Type': _pick(['Cat', 'Dog']),
    'Age': _rng.integers(1, 40, _n),
    'Breed1': _pick(['Tabby', 'Domestic Short Hair', 'Mixed Breed', 'Terrier', 'Poodle', 'Persian']),
    'Gender': _pick(['Male', 'Female', 'Mixed']),
    'Color1': _pick(['Black', 'Brown', 'White', 'Golden', 'Gray', 'Cream']),
    'Color2': _pick(['No Color', 'White', 'Brown', 'Gray', 'Black']),
    'MaturitySize': _pick(['Small', 'Medium', 'Large']),
    'FurLength': _pick(['Short', 'Medium', 'Long']),
    'Vaccinated': _pick(['No', 'Yes', 'Not Sure']),
    'Sterilized': _pick(['No', 'Yes', 'Not Sure']),
    'Health': _pick(['Healthy', 'Minor Injury', 'Serious Injury'], p=[0.8, 0.15, 0.05]),
    'Fee': _rng.choice([0, 0, 0, 50, 100, 150, 300], _n),
    'Description': _pick(['Friendly and playful', 'Needs a home', 'Very calm']),
    'PhotoAmt': _rng.integers(0, 12, _n),
    'AdoptionSpeed': _rng.integers(0, 5, _n),
}
dataframe = {k: (v.astype(str) if v.dtype == object else v) for k, v in dataframe.items()}

# In the original dataset, `'AdoptionSpeed'` of `4` indicates
# a pet was not adopted.
dataframe['target'] = np.where(dataframe['AdoptionSpeed']==4, 0, 1)

# Drop unused features.
for _column in ['AdoptionSpeed', 'Description']:
  dataframe.pop(_column)

_order = _rng.permutation(_n)
train, val, test = ({k: v[rows] for k, v in dataframe.items()}
                    for rows in np.split(_order, [int(0.8*_n), int(0.9*_n)]))

print(len(train['target']), 'training examples')
print(len(val['target']), 'validation examples')
print(len(test['target']), 'test examples')


def df_to_dataset(dataframe, shuffle=True, batch_size=32):
  df = dict(dataframe)
  labels = df.pop('target')
  df = {key: value[:,tf.newaxis] for key, value in dataframe.items()}
  ds = tf.data.Dataset.from_tensor_slices((dict(df), labels))
  if shuffle:
    ds = ds.shuffle(buffer_size=len(labels))
  ds = ds.batch(batch_size)
  ds = ds.prefetch(batch_size)
  return ds


batch_size = 5
train_ds = df_to_dataset(train, batch_size=batch_size)

[(train_features, label_batch)] = train_ds.take(1)
print('Every feature:', list(train_features.keys()))
print('A batch of ages:', train_features['Age'])
print('A batch of targets:', label_batch )
RESULTS['feature_keys'] = sorted(train_features.keys())
RESULTS['ages'] = train_features['Age']
RESULTS['targets'] = label_batch


def get_normalization_layer(name, dataset):
  # Create a Normalization layer for the feature.
  normalizer = layers.Normalization(axis=None)

  # Prepare a Dataset that only yields the feature.
  feature_ds = dataset.map(lambda x, y: x[name])

  # Learn the statistics of the data.
  normalizer.adapt(feature_ds)

  return normalizer


photo_count_col = train_features['PhotoAmt']
layer = get_normalization_layer('PhotoAmt', train_ds)
RESULTS['normalized_photo'] = layer(photo_count_col)


def get_category_encoding_layer(name, dataset, dtype, max_tokens=None):
  # Create a layer that turns strings into integer indices.
  if dtype == 'string':
    index = layers.StringLookup(max_tokens=max_tokens)
  # Otherwise, create a layer that turns integer values into integer indices.
  else:
    index = layers.IntegerLookup(max_tokens=max_tokens)

  # Prepare a `tf.data.Dataset` that only yields the feature.
  feature_ds = dataset.map(lambda x, y: x[name])

  # Learn the set of possible values and assign them a fixed integer index.
  index.adapt(feature_ds)

  # Encode the integer indices.
  encoder = layers.CategoryEncoding(num_tokens=index.vocabulary_size())

  # Apply multi-hot encoding to the indices. The lambda function captures the
  # layer, so you can use them, or include them in the Keras Functional model later.
  return lambda feature: encoder(index(feature))


test_type_col = train_features['Type']
test_type_layer = get_category_encoding_layer(name='Type',
                                              dataset=train_ds,
                                              dtype='string')
RESULTS['type_encoded'] = test_type_layer(test_type_col)

test_age_col = train_features['Age']
test_age_layer = get_category_encoding_layer(name='Age',
                                             dataset=train_ds,
                                             dtype='int64',
                                             max_tokens=5)
RESULTS['age_encoded'] = test_age_layer(test_age_col)

batch_size = 256
train_ds = df_to_dataset(train, batch_size=batch_size)
val_ds = df_to_dataset(val, shuffle=False, batch_size=batch_size)
test_ds = df_to_dataset(test, shuffle=False, batch_size=batch_size)

all_inputs = {}
encoded_features = []

# Numerical features.
for header in ['PhotoAmt', 'Fee']:
  numeric_col = tf.keras.Input(shape=(1,), name=header)
  normalization_layer = get_normalization_layer(header, train_ds)
  encoded_numeric_col = normalization_layer(numeric_col)
  all_inputs[header] = numeric_col
  encoded_features.append(encoded_numeric_col)

age_col = tf.keras.Input(shape=(1,), name='Age', dtype='int64')

encoding_layer = get_category_encoding_layer(name='Age',
                                             dataset=train_ds,
                                             dtype='int64',
                                             max_tokens=5)
encoded_age_col = encoding_layer(age_col)
all_inputs['Age'] = age_col
encoded_features.append(encoded_age_col)

categorical_cols = ['Type', 'Color1', 'Color2', 'Gender', 'MaturitySize',
                    'FurLength', 'Vaccinated', 'Sterilized', 'Health', 'Breed1']

for header in categorical_cols:
  categorical_col = tf.keras.Input(shape=(1,), name=header, dtype='string')
  encoding_layer = get_category_encoding_layer(name=header,
                                               dataset=train_ds,
                                               dtype='string',
                                               max_tokens=5)
  encoded_categorical_col = encoding_layer(categorical_col)
  all_inputs[header] = categorical_col
  encoded_features.append(encoded_categorical_col)

encoded_features
RESULTS['encoded_widths'] = [int(f.shape[-1]) for f in encoded_features]

all_features = tf.keras.layers.concatenate(encoded_features)
x = tf.keras.layers.Dense(32, activation="relu")(all_features)
x = tf.keras.layers.Dropout(0.5)(x)
output = tf.keras.layers.Dense(1)(x)

model = tf.keras.Model(all_inputs, output)
fix_weights(model)

model.compile(optimizer='adam',
              loss=tf.keras.losses.BinaryCrossentropy(from_logits=True),
              metrics=["accuracy"],
              run_eagerly=True)

_history = model.fit(train_ds, epochs=3, validation_data=val_ds, verbose=0)
RESULTS['loss'] = _history.history['loss']
RESULTS['val_loss'] = _history.history['val_loss']
RESULTS['val_accuracy'] = _history.history['val_accuracy']

result = model.evaluate(test_ds, return_dict=True, verbose=0)
print(result)
RESULTS['test_loss'] = result['loss']
RESULTS['test_accuracy'] = result['accuracy']

_path = os.path.join(tempfile.mkdtemp(), 'my_pet_classifier.keras')
model.save(_path)
reloaded_model = tf.keras.models.load_model(_path)

sample = {
    'Type': 'Cat',
    'Age': 3,
    'Breed1': 'Tabby',
    'Gender': 'Male',
    'Color1': 'Black',
    'Color2': 'White',
    'MaturitySize': 'Small',
    'FurLength': 'Short',
    'Vaccinated': 'No',
    'Sterilized': 'No',
    'Health': 'Healthy',
    'Fee': 100,
    'PhotoAmt': 2,
}

input_dict = {name: tf.convert_to_tensor([value]) for name, value in sample.items()}
predictions = reloaded_model.predict(input_dict, verbose=0)
prob = tf.nn.sigmoid(predictions[0])

print(
    "This particular pet had a %.1f percent probability "
    "of getting adopted." % (100 * prob[0])
)
RESULTS['prob'] = prob
RESULTS['reloaded_test_logits'] = reloaded_model.predict(test_ds, verbose=0)
