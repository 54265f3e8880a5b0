"""Title: Image classification (TF tutorial)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/tutorials/images/classification.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: flower_photos.tgz (downloaded; 3670 JPEGs in 5 class folders) -> 5 class folders of 12
synthetic 60x80 JPEGs each (written with PIL from a seeded NumPy generator) in a temporary
directory that the program changes into; the sunflower JPEG (downloaded) -> one more synthetic
JPEG; img_height/img_width 180 -> 64; epochs 10 -> 2 and 15 -> 2; verbose=0;
keras.utils.set_random_seed(0); each model's kernels fixed (fix_weights); matplotlib, PIL displays,
summary() and plot_model removed; the TFLite signature runner is called with its input's name read
from get_input_details() instead of the literal 'keras_tensor_15' (a name from Keras's global
counter, which differs when the program runs twice in one process); prints -> RESULTS.
"""
import os
import tempfile

import numpy as np
import PIL
import PIL.Image
import tensorflow as tf
from _corpus import fix_weights

from tensorflow import keras
from tensorflow.keras import layers
from tensorflow.keras.models import Sequential
import pathlib

tf.keras.utils.set_random_seed(0)
RESULTS = {}
os.chdir(tempfile.mkdtemp())
_rng = np.random.default_rng(0)
for _k, _name in enumerate(["daisy", "dandelion", "roses", "sunflowers", "tulips"]):
  os.makedirs(os.path.join("flower_photos", _name))
  for _i in range(12):
    _pixels = np.clip(_rng.normal(40 * _k + 40, 50, (60, 80, 3)), 0, 255).astype(np.uint8)
    PIL.Image.fromarray(_pixels).save(os.path.join("flower_photos", _name, f"{_i}.jpg"))
PIL.Image.fromarray(_rng.integers(0, 256, (90, 120, 3)).astype(np.uint8)).save("Red_sunflower.jpg")

data_dir = pathlib.Path("flower_photos")
image_count = len(list(data_dir.glob('*/*.jpg')))
RESULTS["image_count"] = image_count
roses = list(data_dir.glob('roses/*'))
RESULTS["rose_size"] = PIL.Image.open(str(roses[0])).size
tulips = list(data_dir.glob('tulips/*'))

batch_size = 32
img_height = 64
img_width = 64
train_ds = tf.keras.utils.image_dataset_from_directory(
  data_dir,
  validation_split=0.2,
  subset="training",
  seed=123,
  image_size=(img_height, img_width),
  batch_size=batch_size)
val_ds = tf.keras.utils.image_dataset_from_directory(
  data_dir,
  validation_split=0.2,
  subset="validation",
  seed=123,
  image_size=(img_height, img_width),
  batch_size=batch_size)
class_names = train_ds.class_names
RESULTS["class_names"] = class_names

for images, labels in train_ds.take(1):
  RESULTS["first_labels"] = labels
  RESULTS["first_images"] = images[:2, ::8, ::8]
for image_batch, labels_batch in train_ds:
  RESULTS["image_batch_shape"], RESULTS["labels_batch_shape"] = image_batch.shape, labels_batch.shape
  break

AUTOTUNE = tf.data.AUTOTUNE

train_ds = train_ds.cache().shuffle(1000).prefetch(buffer_size=AUTOTUNE)
val_ds = val_ds.cache().prefetch(buffer_size=AUTOTUNE)
normalization_layer = layers.Rescaling(1./255)
normalized_ds = train_ds.map(lambda x, y: (normalization_layer(x), y))
image_batch, labels_batch = next(iter(normalized_ds))
first_image = image_batch[0]
# Notice the pixel values are now in `[0,1]`.
RESULTS["min_max"] = [np.min(first_image), np.max(first_image)]
num_classes = len(class_names)

model = Sequential([
  layers.Rescaling(1./255, input_shape=(img_height, img_width, 3)),
  layers.Conv2D(16, 3, padding='same', activation='relu'),
  layers.MaxPooling2D(),
  layers.Conv2D(32, 3, padding='same', activation='relu'),
  layers.MaxPooling2D(),
  layers.Conv2D(64, 3, padding='same', activation='relu'),
  layers.MaxPooling2D(),
  layers.Flatten(),
  layers.Dense(128, activation='relu'),
  layers.Dense(num_classes)
])
fix_weights(model)
model.compile(optimizer='adam',
              loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=['accuracy'])
epochs=2
history = model.fit(
  train_ds,
  validation_data=val_ds,
  epochs=epochs,
  verbose=0
)
acc = history.history['accuracy']
val_acc = history.history['val_accuracy']

loss = history.history['loss']
val_loss = history.history['val_loss']
RESULTS["history"] = [acc, val_acc, loss, val_loss]

data_augmentation = keras.Sequential(
  [
    layers.RandomFlip("horizontal",
                      input_shape=(img_height,
                                  img_width,
                                  3)),
    layers.RandomRotation(0.1),
    layers.RandomZoom(0.1),
  ]
)
for images, _ in train_ds.take(1):
  RESULTS["augmented"] = [np.sum(data_augmentation(images)[0].numpy().astype("uint8"))
                          for i in range(9)]

model = Sequential([
  data_augmentation,
  layers.Rescaling(1./255),
  layers.Conv2D(16, 3, padding='same', activation='relu'),
  layers.MaxPooling2D(),
  layers.Conv2D(32, 3, padding='same', activation='relu'),
  layers.MaxPooling2D(),
  layers.Conv2D(64, 3, padding='same', activation='relu'),
  layers.MaxPooling2D(),
  layers.Dropout(0.2),
  layers.Flatten(),
  layers.Dense(128, activation='relu'),
  layers.Dense(num_classes, name="outputs")
])
fix_weights(model, seed=1)
model.compile(optimizer='adam',
              loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=['accuracy'])
epochs = 2
history = model.fit(
  train_ds,
  validation_data=val_ds,
  epochs=epochs,
  verbose=0
)
acc = history.history['accuracy']
val_acc = history.history['val_accuracy']

loss = history.history['loss']
val_loss = history.history['val_loss']
RESULTS["history_augmented"] = [acc, val_acc, loss, val_loss]

sunflower_path = "Red_sunflower.jpg"

img = tf.keras.utils.load_img(
    sunflower_path, target_size=(img_height, img_width)
)
img_array = tf.keras.utils.img_to_array(img)
img_array = tf.expand_dims(img_array, 0) # Create a batch

predictions = model.predict(img_array, verbose=0)
score = tf.nn.softmax(predictions[0])

RESULTS["prediction"] = (
    "This image most likely belongs to {} with a {:.2f} percent confidence."
    .format(class_names[np.argmax(score)], 100 * np.max(score))
)
RESULTS["score"] = score

# Convert the model.
converter = tf.lite.TFLiteConverter.from_keras_model(model)
tflite_model = converter.convert()

# Save the model.
with open('model.tflite', 'wb') as f:
  f.write(tflite_model)

TF_MODEL_FILE_PATH = 'model.tflite' # The default path to the saved TensorFlow Lite model

interpreter = tf.lite.Interpreter(model_path=TF_MODEL_FILE_PATH)
RESULTS["signatures"] = sorted(interpreter.get_signature_list())
classify_lite = interpreter.get_signature_runner('serving_default')
_input_name = list(classify_lite.get_input_details())[0]
RESULTS["output_details"] = sorted(classify_lite.get_output_details())
predictions_lite = classify_lite(**{_input_name: img_array})['output_0']
score_lite = tf.nn.softmax(predictions_lite)
RESULTS["prediction_lite"] = (
    "This image most likely belongs to {} with a {:.2f} percent confidence."
    .format(class_names[np.argmax(score_lite)], 100 * np.max(score_lite))
)
RESULTS["lite_difference_small"] = bool(np.max(np.abs(predictions - predictions_lite)) < 1e-4)
