"""Title: Load and preprocess images (TF tutorial)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/tutorials/load_data/images.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: flower_photos.tgz (downloaded; 3670 JPEGs in 5 class folders and LICENSE.txt) -> 5 class
folders of 12 synthetic 60x80 JPEGs each (written with PIL from a seeded NumPy generator) and a
LICENSE.txt, in a temporary directory that the program changes into; tfds.load('tf_flowers') ->
three Dataset.from_tensor_slices splits of 48/6/6 synthetic 60x80x3 uint8 images and int64 labels,
so metadata.features['label'].num_classes -> 5 and get_label_name (only used in a plot title) is
gone; img_height/img_width 180 -> 64; epochs 3 -> 2; verbose=0; keras.utils.set_random_seed(0);
model.build before its kernels are fixed (fix_weights); matplotlib and PIL displays removed;
prints -> RESULTS.
"""
import numpy as np
import os
import tempfile

import PIL
import PIL.Image
import tensorflow as tf
from _corpus import fix_weights

tf.keras.utils.set_random_seed(0)
RESULTS = {}
os.chdir(tempfile.mkdtemp())
_rng = np.random.default_rng(0)
for _k, _name in enumerate(["daisy", "dandelion", "roses", "sunflowers", "tulips"]):
  os.makedirs(os.path.join("flower_photos", _name))
  for _i in range(12):
    _pixels = np.clip(_rng.normal(40 * _k + 40, 50, (60, 80, 3)), 0, 255).astype(np.uint8)
    PIL.Image.fromarray(_pixels).save(os.path.join("flower_photos", _name, f"{_i}.jpg"))
with open(os.path.join("flower_photos", "LICENSE.txt"), "w") as _f:
  _f.write("Synthetic images.\n")

import pathlib
data_dir = pathlib.Path("flower_photos")
image_count = len(list(data_dir.glob('*/*.jpg')))
RESULTS["image_count"] = image_count

roses = list(data_dir.glob('roses/*'))
PIL.Image.open(str(roses[0]))

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

for image_batch, labels_batch in train_ds:
  RESULTS["image_batch_shape"], RESULTS["labels_batch_shape"] = image_batch.shape, labels_batch.shape
  break

normalization_layer = tf.keras.layers.Rescaling(1./255)
normalized_ds = train_ds.map(lambda x, y: (normalization_layer(x), y))
image_batch, labels_batch = next(iter(normalized_ds))
first_image = image_batch[0]
# Notice the pixel values are now in `[0,1]`.
RESULTS["min_max"] = [np.min(first_image), np.max(first_image)]

AUTOTUNE = tf.data.AUTOTUNE

train_ds = train_ds.cache().prefetch(buffer_size=AUTOTUNE)
val_ds = val_ds.cache().prefetch(buffer_size=AUTOTUNE)

num_classes = 5

model = tf.keras.Sequential([
  tf.keras.layers.Rescaling(1./255),
  tf.keras.layers.Conv2D(32, 3, activation='relu'),
  tf.keras.layers.MaxPooling2D(),
  tf.keras.layers.Conv2D(32, 3, activation='relu'),
  tf.keras.layers.MaxPooling2D(),
  tf.keras.layers.Conv2D(32, 3, activation='relu'),
  tf.keras.layers.MaxPooling2D(),
  tf.keras.layers.Flatten(),
  tf.keras.layers.Dense(128, activation='relu'),
  tf.keras.layers.Dense(num_classes)
])
model.build((None, img_height, img_width, 3))
fix_weights(model)

model.compile(
  optimizer='adam',
  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
  metrics=['accuracy'])

history = model.fit(
  train_ds,
  validation_data=val_ds,
  epochs=2,
  verbose=0
)
RESULTS["history_from_directory"] = [history.history[k] for k in sorted(history.history)]

list_ds = tf.data.Dataset.list_files(str(data_dir/'*/*'), shuffle=False)
list_ds = list_ds.shuffle(image_count, reshuffle_each_iteration=False)

RESULTS["files"] = [os.path.relpath(f.numpy().decode(), os.getcwd()) for f in list_ds.take(5)]

class_names = np.array(sorted([item.name for item in data_dir.glob('*') if item.name != "LICENSE.txt"]))
RESULTS["class_names_sorted"] = class_names

val_size = int(image_count * 0.2)
train_ds = list_ds.skip(val_size)
val_ds = list_ds.take(val_size)

RESULTS["cardinalities"] = [tf.data.experimental.cardinality(train_ds).numpy(),
                            tf.data.experimental.cardinality(val_ds).numpy()]


def get_label(file_path):
  # Convert the path to a list of path components
  parts = tf.strings.split(file_path, os.path.sep)
  # The second to last is the class-directory
  one_hot = parts[-2] == class_names
  # Integer encode the label
  return tf.argmax(one_hot)

def decode_img(img):
  # Convert the compressed string to a 3D uint8 tensor
  img = tf.io.decode_jpeg(img, channels=3)
  # Resize the image to the desired size
  return tf.image.resize(img, [img_height, img_width])

def process_path(file_path):
  label = get_label(file_path)
  # Load the raw data from the file as a string
  img = tf.io.read_file(file_path)
  img = decode_img(img)
  return img, label

# Set `num_parallel_calls` so multiple images are loaded/processed in parallel.
train_ds = train_ds.map(process_path, num_parallel_calls=AUTOTUNE)
val_ds = val_ds.map(process_path, num_parallel_calls=AUTOTUNE)

for image, label in train_ds.take(1):
  RESULTS["image_shape"] = image.numpy().shape
  RESULTS["label"] = label.numpy()
  RESULTS["image"] = image.numpy()[::8, ::8]


def configure_for_performance(ds):
  ds = ds.cache()
  ds = ds.shuffle(buffer_size=1000)
  ds = ds.batch(batch_size)
  ds = ds.prefetch(buffer_size=AUTOTUNE)
  return ds

train_ds = configure_for_performance(train_ds)
val_ds = configure_for_performance(val_ds)

image_batch, label_batch = next(iter(train_ds))
RESULTS["label_batch"] = label_batch

history = model.fit(
  train_ds,
  validation_data=val_ds,
  epochs=2,
  verbose=0
)
RESULTS["history_tf_data"] = [history.history[k] for k in sorted(history.history)]

_images = _rng.integers(0, 256, (60, 60, 80, 3)).astype(np.uint8)
_labels = _rng.integers(0, 5, 60).astype(np.int64)
(train_ds, val_ds, test_ds) = (
    tf.data.Dataset.from_tensor_slices((_images[:48], _labels[:48])),
    tf.data.Dataset.from_tensor_slices((_images[48:54], _labels[48:54])),
    tf.data.Dataset.from_tensor_slices((_images[54:], _labels[54:])))

num_classes = 5
RESULTS["num_classes"] = num_classes

image, label = next(iter(train_ds))

train_ds = configure_for_performance(train_ds)
val_ds = configure_for_performance(val_ds)
test_ds = configure_for_performance(test_ds)
RESULTS["tfds_batch_labels"] = next(iter(train_ds))[1]
