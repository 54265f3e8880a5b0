"""Title: Effective TensorFlow 2 (TF guide)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/guide/effective_tf2.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: tfds.load('mnist') (downloaded; tensorflow_datasets) -> 512/128 synthetic uint8 28x28x1
images and int64 labels from a seeded NumPy generator, as (image, label) datasets from
Dataset.from_tensor_slices; NUM_EPOCHS 5 -> 2; verbose=0 (fit, evaluate);
keras.utils.set_random_seed(0) (shuffle, dropout, initializers and tf.random.normal are
unseeded); the models' kernels fixed (fix_weights); prints -> RESULTS (loss and accuracy, the
metrics per epoch, the RNN's shapes and outputs, the cross-entropy, the history's keys).
Three Keras 2 calls that Keras 3 itself rejects, changed to their Keras 3 spelling:
super(DynamicRNN, self).__init__(self) -> __init__(); LSTMCell.get_initial_state(batch_size=,
dtype=tf.float32) -> without dtype; Metric.reset_states() -> reset_state().
"""
import numpy as np
import tensorflow as tf
from _corpus import fix_weights

tf.keras.utils.set_random_seed(0)
RESULTS = {}
_rng = np.random.default_rng(0)
mnist_train = tf.data.Dataset.from_tensor_slices(
    (_rng.integers(0, 256, (512, 28, 28, 1)).astype(np.uint8), _rng.integers(0, 10, 512)))
mnist_test = tf.data.Dataset.from_tensor_slices(
    (_rng.integers(0, 256, (128, 28, 28, 1)).astype(np.uint8), _rng.integers(0, 10, 128)))

BUFFER_SIZE = 10 # Use a much larger value for real code
BATCH_SIZE = 64
NUM_EPOCHS = 2


def scale(image, label):
  image = tf.cast(image, tf.float32)
  image /= 255

  return image, label

train_data = mnist_train.map(scale).shuffle(BUFFER_SIZE).batch(BATCH_SIZE)
test_data = mnist_test.map(scale).batch(BATCH_SIZE)

STEPS_PER_EPOCH = 5

train_data = train_data.take(STEPS_PER_EPOCH)
test_data = test_data.take(STEPS_PER_EPOCH)

image_batch, label_batch = next(iter(train_data))
RESULTS["image_batch_sum"] = tf.reduce_sum(image_batch)
RESULTS["label_batch"] = label_batch

model = tf.keras.Sequential([
    tf.keras.layers.Conv2D(32, 3, activation='relu',
                           kernel_regularizer=tf.keras.regularizers.l2(0.02),
                           input_shape=(28, 28, 1)),
    tf.keras.layers.MaxPooling2D(),
    tf.keras.layers.Flatten(),
    tf.keras.layers.Dropout(0.1),
    tf.keras.layers.Dense(64, activation='relu'),
    tf.keras.layers.BatchNormalization(),
    tf.keras.layers.Dense(10)
])
fix_weights(model)

# Model is the full model w/o custom layers
model.compile(optimizer='adam',
              loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=['accuracy'])

history = model.fit(train_data, epochs=NUM_EPOCHS, verbose=0)
loss, acc = model.evaluate(test_data, verbose=0)
RESULTS["fit_loss"] = history.history["loss"]
RESULTS["fit_accuracy"] = history.history["accuracy"]
RESULTS["evaluate"] = [loss, acc]

model = tf.keras.Sequential([
    tf.keras.layers.Conv2D(32, 3, activation='relu',
                           kernel_regularizer=tf.keras.regularizers.l2(0.02),
                           input_shape=(28, 28, 1)),
    tf.keras.layers.MaxPooling2D(),
    tf.keras.layers.Flatten(),
    tf.keras.layers.Dropout(0.1),
    tf.keras.layers.Dense(64, activation='relu'),
    tf.keras.layers.BatchNormalization(),
    tf.keras.layers.Dense(10)
])
fix_weights(model)

optimizer = tf.keras.optimizers.Adam(0.001)
loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)

@tf.function
def train_step(inputs, labels):
  with tf.GradientTape() as tape:
    predictions = model(inputs, training=True)
    regularization_loss=tf.math.add_n(model.losses)
    pred_loss=loss_fn(labels, predictions)
    total_loss=pred_loss + regularization_loss

  gradients = tape.gradient(total_loss, model.trainable_variables)
  optimizer.apply_gradients(zip(gradients, model.trainable_variables))

for epoch in range(NUM_EPOCHS):
  for inputs, labels in train_data:
    train_step(inputs, labels)
RESULTS["custom_loop_kernel_sums"] = [tf.reduce_sum(v) for v in model.trainable_variables]

class DynamicRNN(tf.keras.Model):

  def __init__(self, rnn_cell):
    super(DynamicRNN, self).__init__()
    self.cell = rnn_cell

  @tf.function(input_signature=[tf.TensorSpec(dtype=tf.float32, shape=[None, None, 3])])
  def call(self, input_data):

    # [batch, time, features] -> [time, batch, features]
    input_data = tf.transpose(input_data, [1, 0, 2])
    timesteps =  tf.shape(input_data)[0]
    batch_size = tf.shape(input_data)[1]
    outputs = tf.TensorArray(tf.float32, timesteps)
    state = self.cell.get_initial_state(batch_size = batch_size)
    for i in tf.range(timesteps):
      output, state = self.cell(input_data[i], state)
      outputs = outputs.write(i, output)
    return tf.transpose(outputs.stack(), [1, 0, 2]), state

lstm_cell = tf.keras.layers.LSTMCell(units = 13)

my_rnn = DynamicRNN(lstm_cell)
outputs, state = my_rnn(tf.random.normal(shape=[10,20,3]))
RESULTS["rnn_outputs_shape"] = list(outputs.shape)
RESULTS["rnn_outputs_mean"] = tf.reduce_mean(outputs)
RESULTS["rnn_state_shapes"] = [list(s.shape) for s in state]

cce = tf.keras.losses.CategoricalCrossentropy(from_logits=True)
RESULTS["cce"] = cce([[1, 0]], [[-1.0,3.0]]).numpy()

# Create the metrics
loss_metric = tf.keras.metrics.Mean(name='train_loss')
accuracy_metric = tf.keras.metrics.SparseCategoricalAccuracy(name='train_accuracy')

@tf.function
def train_step(inputs, labels):
  with tf.GradientTape() as tape:
    predictions = model(inputs, training=True)
    regularization_loss=tf.math.add_n(model.losses)
    pred_loss=loss_fn(labels, predictions)
    total_loss=pred_loss + regularization_loss

  gradients = tape.gradient(total_loss, model.trainable_variables)
  optimizer.apply_gradients(zip(gradients, model.trainable_variables))
  # Update the metrics
  loss_metric.update_state(total_loss)
  accuracy_metric.update_state(labels, predictions)


RESULTS["epoch_loss"], RESULTS["epoch_accuracy"] = [], []
for epoch in range(NUM_EPOCHS):
  # Reset the metrics
  loss_metric.reset_state()
  accuracy_metric.reset_state()

  for inputs, labels in train_data:
    train_step(inputs, labels)
  # Get the metric results
  mean_loss=loss_metric.result()
  mean_accuracy = accuracy_metric.result()

  RESULTS["epoch_loss"].append(mean_loss)
  RESULTS["epoch_accuracy"].append(mean_accuracy)

model.compile(
    optimizer = tf.keras.optimizers.Adam(0.001),
    loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
    metrics = ['acc', 'accuracy', tf.keras.metrics.SparseCategoricalAccuracy(name="my_accuracy")])
history = model.fit(train_data, verbose=0)

RESULTS["history_keys"] = [len(k) for k in sorted(history.history.keys())]
RESULTS["history"] = [history.history[k] for k in sorted(history.history.keys())]
