"""Title: Transfer learning and fine-tuning (TF tutorial)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/tutorials/images/transfer_learning.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: cats_and_dogs_filtered.zip (downloaded with keras.utils.get_file; 3000 JPEGs) -> a
synthetic tree of the same layout (train/ and validation/, cats/ and dogs/, 16 and 20 JPEGs of
100x120 each, written with PIL from a seeded NumPy generator) in a temporary directory;
MobileNetV2(weights='imagenet') (downloaded) -> weights=None with its kernels fixed (fix_weights,
as the head's); BATCH_SIZE 32 -> 8; IMG_SIZE (160, 160) -> (96, 96) (the Input shape with it);
initial_epochs and fine_tune_epochs 10 -> 2; verbose=0 (fit, evaluate); matplotlib, summary() and
plot_model removed (the base model's layer count and the trainable-variable counts recorded);
keras.utils.set_random_seed(0) (shuffles, augmentation and dropout are unseeded); prints -> RESULTS.
"""
import numpy as np
import os
import tempfile
import tensorflow as tf
from PIL import Image
from _corpus import fix_weights

tf.keras.utils.set_random_seed(0)
RESULTS = {}
PATH = os.path.join(tempfile.mkdtemp(), 'cats_and_dogs_filtered')
_rng = np.random.default_rng(0)
for _split, _n in (("train", 16), ("validation", 20)):
  for _c, _tone in (("cats", 60), ("dogs", 180)):
    os.makedirs(os.path.join(PATH, _split, _c))
    for _k in range(_n):
      _img = np.clip(_rng.normal(_tone, 50, (100, 120, 3)), 0, 255).astype(np.uint8)
      Image.fromarray(_img).save(os.path.join(PATH, _split, _c, f"{_c[:-1]}.{_k}.jpg"))

train_dir = os.path.join(PATH, 'train')
validation_dir = os.path.join(PATH, 'validation')

BATCH_SIZE = 8
IMG_SIZE = (96, 96)

train_dataset = tf.keras.utils.image_dataset_from_directory(train_dir,
                                                            shuffle=True,
                                                            batch_size=BATCH_SIZE,
                                                            image_size=IMG_SIZE)

validation_dataset = tf.keras.utils.image_dataset_from_directory(validation_dir,
                                                                 shuffle=True,
                                                                 batch_size=BATCH_SIZE,
                                                                 image_size=IMG_SIZE)

class_names = train_dataset.class_names
RESULTS["class_names"] = [len(c) for c in class_names]

for images, labels in train_dataset.take(1):
  RESULTS["first_labels"] = labels[:9]
  RESULTS["first_image_sums"] = [tf.reduce_sum(images[i]) for i in range(4)]

val_batches = tf.data.experimental.cardinality(validation_dataset)
test_dataset = validation_dataset.take(val_batches // 5)
validation_dataset = validation_dataset.skip(val_batches // 5)

RESULTS["cardinalities"] = [tf.data.experimental.cardinality(validation_dataset),
                            tf.data.experimental.cardinality(test_dataset)]

AUTOTUNE = tf.data.AUTOTUNE

train_dataset = train_dataset.prefetch(buffer_size=AUTOTUNE)
validation_dataset = validation_dataset.prefetch(buffer_size=AUTOTUNE)
test_dataset = test_dataset.prefetch(buffer_size=AUTOTUNE)

data_augmentation = tf.keras.Sequential([
  tf.keras.layers.RandomFlip('horizontal'),
  tf.keras.layers.RandomRotation(0.2),
])

for image, _ in train_dataset.take(1):
  first_image = image[0]
  RESULTS["augmented_sums"] = []
  for i in range(9):
    augmented_image = data_augmentation(tf.expand_dims(first_image, 0))
    RESULTS["augmented_sums"].append(tf.reduce_sum(augmented_image[0] / 255))

preprocess_input = tf.keras.applications.mobilenet_v2.preprocess_input

rescale = tf.keras.layers.Rescaling(1./127.5, offset=-1)

# Create the base model from the pre-trained model MobileNet V2
IMG_SHAPE = IMG_SIZE + (3,)
base_model = tf.keras.applications.MobileNetV2(input_shape=IMG_SHAPE,
                                               include_top=False,
                                               weights=None)
fix_weights(base_model)

image_batch, label_batch = next(iter(train_dataset))
feature_batch = base_model(image_batch)
RESULTS["feature_batch_shape"] = list(feature_batch.shape)

base_model.trainable = False

global_average_layer = tf.keras.layers.GlobalAveragePooling2D()
feature_batch_average = global_average_layer(feature_batch)
RESULTS["feature_batch_average_shape"] = list(feature_batch_average.shape)

prediction_layer = tf.keras.layers.Dense(1, activation='sigmoid')
prediction_batch = prediction_layer(feature_batch_average)
fix_weights(prediction_layer)
RESULTS["prediction_batch_shape"] = list(prediction_batch.shape)

inputs = tf.keras.Input(shape=(96, 96, 3))
x = data_augmentation(inputs)
x = preprocess_input(x)
x = base_model(x, training=False)
x = global_average_layer(x)
x = tf.keras.layers.Dropout(0.2)(x)
outputs = prediction_layer(x)
model = tf.keras.Model(inputs, outputs)

RESULTS["trainable_variables_frozen"] = len(model.trainable_variables)

base_learning_rate = 0.0001
model.compile(optimizer=tf.keras.optimizers.Adam(learning_rate=base_learning_rate),
              loss=tf.keras.losses.BinaryCrossentropy(),
              metrics=[tf.keras.metrics.BinaryAccuracy(threshold=0.5, name='accuracy')])

initial_epochs = 2

loss0, accuracy0 = model.evaluate(validation_dataset, verbose=0)

RESULTS["initial"] = [loss0, accuracy0]

history = model.fit(train_dataset,
                    epochs=initial_epochs,
                    validation_data=validation_dataset,
                    verbose=0)

acc = history.history['accuracy']
val_acc = history.history['val_accuracy']

loss = history.history['loss']
val_loss = history.history['val_loss']

base_model.trainable = True

# Let's take a look to see how many layers are in the base model
RESULTS["base_model_layers"] = len(base_model.layers)

# Fine-tune from this layer onwards
fine_tune_at = 100

# Freeze all the layers before the `fine_tune_at` layer
for layer in base_model.layers[:fine_tune_at]:
  layer.trainable = False

model.compile(loss=tf.keras.losses.BinaryCrossentropy(),
              optimizer = tf.keras.optimizers.RMSprop(learning_rate=base_learning_rate/10),
              metrics=[tf.keras.metrics.BinaryAccuracy(threshold=0.5, name='accuracy')])

RESULTS["trainable_variables_fine"] = len(model.trainable_variables)

fine_tune_epochs = 2
total_epochs =  initial_epochs + fine_tune_epochs

history_fine = model.fit(train_dataset,
                         epochs=total_epochs,
                         initial_epoch=len(history.epoch),
                         validation_data=validation_dataset,
                         verbose=0)

acc += history_fine.history['accuracy']
val_acc += history_fine.history['val_accuracy']

loss += history_fine.history['loss']
val_loss += history_fine.history['val_loss']
RESULTS["curves"] = [acc, val_acc, loss, val_loss]
RESULTS["fine_epochs"] = history_fine.epoch

loss, accuracy = model.evaluate(test_dataset, verbose=0)
RESULTS["test"] = [loss, accuracy]

# Retrieve a batch of images from the test set
image_batch, label_batch = test_dataset.as_numpy_iterator().next()
predictions = model.predict_on_batch(image_batch).flatten()
predictions = tf.where(predictions < 0.5, 0, 1)

RESULTS["predictions"] = predictions.numpy()
RESULTS["labels"] = label_batch
