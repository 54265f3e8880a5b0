"""Title: Migrate tf.feature_column to Keras preprocessing layers (TF guide)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/guide/migrate/migrating_feature_columns.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: the TensorFlow 1 feature-column cells (call_feature_columns, which builds
tf1.keras.layers.DenseFeatures, absent from Keras 3 / TF 2.21) and the Estimator cells dropped;
the cell concatenating `inputs.values()` dropped (Keras 3 raises ValueError: "Only input tensors
may be passed as positional arguments" for a dict_values); the training/inference cells that follow the preprocessing model dropped too, since under Keras 3
`tf.expand_dims(inputs['weight'], -1)` on a KerasTensor raises ValueError ("A KerasTensor cannot
be used as input to a TensorFlow function"), and training_model, the inference model and its
save/load all depend on it; keras.utils.set_random_seed(0) (the Embedding and Dense
initializers are unseeded); the Embedding's and Dense's kernels fixed (fix_weights); the
displayed values -> RESULTS.
"""
import tensorflow as tf
import tensorflow.compat.v1 as tf1
import math
from _corpus import fix_weights

tf.keras.utils.set_random_seed(0)
RESULTS = {}

input_dict = {
  'foo': tf.constant([1]),
  'bar': tf.constant([0]),
  'baz': tf.constant([-1])
}

one_hot_layer = tf.keras.layers.CategoryEncoding(
    num_tokens=3, output_mode='one_hot')
RESULTS['one_hot'] = one_hot_layer([0, 1, 2])

normalization_layer = tf.keras.layers.Normalization(mean=2.0, variance=1.0)
RESULTS['normalized'] = normalization_layer(tf.constant([[0.], [1.], [2.]]))

discretization_layer = tf.keras.layers.Discretization(bin_boundaries=[1, 4, 5])
one_hot_layer = tf.keras.layers.CategoryEncoding(
    num_tokens=4, output_mode='one_hot')
RESULTS['bucketized'] = one_hot_layer(discretization_layer([1., 2., 3., 4., 5.]))

string_lookup_layer = tf.keras.layers.StringLookup(
    vocabulary=['small', 'medium', 'large'],
    num_oov_indices=0,
    output_mode='one_hot')
RESULTS['string_one_hot'] = string_lookup_layer(['small', 'medium', 'large'])

string_lookup_layer = tf.keras.layers.StringLookup(
    vocabulary=['small', 'medium', 'large'], num_oov_indices=0)
embedding = tf.keras.layers.Embedding(3, 4)
embedding.build((None,))
fix_weights(embedding)
RESULTS['embedded'] = embedding(string_lookup_layer(['small', 'medium', 'large']))

ids = tf.constant([[5, 11, 5, 17, 17]])
weights = tf.constant([[0.5, 1.5, 0.7, 1.8, 0.2]])

# Using sparse output is more efficient when `num_tokens` is large.
count_layer = tf.keras.layers.CategoryEncoding(
    num_tokens=20, output_mode='count', sparse=True)
RESULTS['weighted_counts'] = tf.sparse.to_dense(count_layer(ids, count_weights=weights))

ids = tf.constant([[5, 11, 5, 17, 17]])
weights = tf.constant([[0.5, 1.5, 0.7, 1.8, 0.2]])

# For `combiner='mean'`, normalize your weights to sum to 1. Removing this line
# would be equivalent to an `embedding_column` with `combiner='sum'`.
weights = weights / tf.reduce_sum(weights, axis=-1, keepdims=True)

count_layer = tf.keras.layers.CategoryEncoding(
    num_tokens=20, output_mode='count', sparse=True)
embedding_layer = tf.keras.layers.Dense(4, use_bias=False)
embedding_layer.build((None, 20))
fix_weights(embedding_layer, seed=1)
RESULTS['weighted_embedding'] = embedding_layer(count_layer(ids, count_weights=weights))

features = {
    'type': [0, 1, 1],
    'size': ['small', 'small', 'medium'],
    'weight': [2.7, 1.8, 1.6],
}
labels = [1, 1, 0]
predict_features = {'type': [0], 'size': ['foo'], 'weight': [-0.7]}

vocab = ['small', 'medium', 'large']
one_hot_dims = 3
embedding_dims = 4
weight_mean = 2.0
weight_variance = 1.0

inputs = {
  'type': tf.keras.Input(shape=(), dtype='int64'),
  'size': tf.keras.Input(shape=(), dtype='string'),
  'weight': tf.keras.Input(shape=(), dtype='float32'),
}
# Convert index to one-hot; e.g., [2] -> [0,0,1].
type_output = tf.keras.layers.CategoryEncoding(
      one_hot_dims, output_mode='one_hot')(inputs['type'])
# Convert size strings to indices; e.g., ['small'] -> [1].
size_output = tf.keras.layers.StringLookup(vocabulary=vocab)(inputs['size'])
# Normalize the numeric inputs; e.g., [2.0] -> [0.0].
weight_output = tf.keras.layers.Normalization(
      axis=None, mean=weight_mean, variance=weight_variance)(inputs['weight'])
outputs = {
  'type': type_output,
  'size': size_output,
  'weight': weight_output,
}
preprocessing_model = tf.keras.Model(inputs, outputs)

# Apply the preprocessing in tf.data.Dataset.map.
dataset = tf.data.Dataset.from_tensor_slices((features, labels)).batch(1)
dataset = dataset.map(lambda x, y: (preprocessing_model(x), y),
                      num_parallel_calls=tf.data.AUTOTUNE)
# Display a preprocessed input sample.
_sample = next(dataset.take(1).as_numpy_iterator())
RESULTS['sample_type'] = _sample[0]['type']
RESULTS['sample_size'] = _sample[0]['size']
RESULTS['sample_weight'] = _sample[0]['weight']
RESULTS['sample_label'] = _sample[1]
