"""Title: Data augmentation (TF tutorial)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/tutorials/images/data_augmentation.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: tfds.load('tf_flowers', split=...) (downloaded; tensorflow_datasets; 3670 JPEGs) ->
32/4/4 synthetic uint8 72x96x3 images with int64 labels of 5 classes from a seeded NumPy generator,
as (image, label) datasets (the three loads return the same data; num_classes and int2str from
the metadata -> 5 and the label as a string); IMG_SIZE 180 -> 48; the stateless_random_crop size
[210, 300, 3] -> [60, 80, 3]; epochs 5 -> 2; verbose=0 (fit, evaluate); matplotlib removed
(each shown image's sum, shape or value range recorded in RESULTS instead);
keras.utils.set_random_seed(0) (shuffles, augmentation layers, tf.random.uniform and the
initializers are unseeded); the model's kernels fixed (fix_weights, after model.build); prints ->
RESULTS. The illustrative Sequential([resize_and_rescale, data_augmentation, Conv2D, ...]) (never
trained) dropped: Keras 3.15 itself fails to build it, resize_and_rescale having been built by
its call on one unbatched image. Of the last pipeline (a tf.random.Generator drawn in a parallel
map, an order TensorFlow does not fix), the batch's shape, range and labels are recorded.
"""
import numpy as np
import tensorflow as tf
from _corpus import fix_weights

from tensorflow.keras import layers

tf.keras.utils.set_random_seed(0)
RESULTS = {}
_rng = np.random.default_rng(0)
_images = _rng.integers(0, 256, (40, 72, 96, 3)).astype(np.uint8)
_labels = _rng.integers(0, 5, 40)


def _load():
    return tuple(tf.data.Dataset.from_tensor_slices((_images[a:b], _labels[a:b]))
                 for a, b in ((0, 32), (32, 36), (36, 40)))


(train_ds, val_ds, test_ds) = _load()

num_classes = 5

image, label = next(iter(train_ds))
RESULTS["first_label"] = label

IMG_SIZE = 48

resize_and_rescale = tf.keras.Sequential([
  layers.Resizing(IMG_SIZE, IMG_SIZE),
  layers.Rescaling(1./255)
])

result = resize_and_rescale(image)
RESULTS["resized"] = result
RESULTS["min_max"] = [result.numpy().min(), result.numpy().max()]

data_augmentation = tf.keras.Sequential([
  layers.RandomFlip("horizontal_and_vertical"),
  layers.RandomRotation(0.2),
])

# Add the image to a batch.
image = tf.cast(tf.expand_dims(image, 0), tf.float32)

RESULTS["augmented_sums"] = []
for i in range(9):
  augmented_image = data_augmentation(image)
  RESULTS["augmented_sums"].append(tf.reduce_sum(augmented_image[0]))

aug_ds = train_ds.map(
  lambda x, y: (resize_and_rescale(x, training=True), y))

batch_size = 32
AUTOTUNE = tf.data.AUTOTUNE

def prepare(ds, shuffle=False, augment=False):
  # Resize and rescale all datasets.
  ds = ds.map(lambda x, y: (resize_and_rescale(x), y),
              num_parallel_calls=AUTOTUNE)

  if shuffle:
    ds = ds.shuffle(1000)

  # Batch all datasets.
  ds = ds.batch(batch_size)

  # Use data augmentation only on the training set.
  if augment:
    ds = ds.map(lambda x, y: (data_augmentation(x, training=True), y),
                num_parallel_calls=AUTOTUNE)

  # Use buffered prefetching on all datasets.
  return ds.prefetch(buffer_size=AUTOTUNE)

train_ds = prepare(train_ds, shuffle=True, augment=True)
val_ds = prepare(val_ds)
test_ds = prepare(test_ds)

model = tf.keras.Sequential([
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
model.build((None, IMG_SIZE, IMG_SIZE, 3))
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
RESULTS["history"] = [history.history[k] for k in sorted(history.history)]

loss, acc = model.evaluate(test_ds, verbose=0)
RESULTS["test"] = [loss, acc]

def random_invert_img(x, p=0.5):
  if  tf.random.uniform([]) < p:
    x = (255-x)
  else:
    x
  return x

def random_invert(factor=0.5):
  return layers.Lambda(lambda x: random_invert_img(x, factor))

random_invert = random_invert()

RESULTS["inverted_sums"] = []
for i in range(9):
  augmented_image = random_invert(image)
  RESULTS["inverted_sums"].append(tf.reduce_sum(augmented_image[0].numpy().astype("uint8")))

class RandomInvert(layers.Layer):
  def __init__(self, factor=0.5, **kwargs):
    super().__init__(**kwargs)
    self.factor = factor

  def call(self, x):
    return random_invert_img(x)

RESULTS["layer_inverted"] = tf.reduce_sum(RandomInvert()(image)[0])

(train_ds, val_ds, test_ds) = _load()

image, label = next(iter(train_ds))

flipped = tf.image.flip_left_right(image)
RESULTS["flipped"] = flipped

grayscaled = tf.image.rgb_to_grayscale(image)
RESULTS["grayscaled"] = tf.squeeze(grayscaled)

saturated = tf.image.adjust_saturation(image, 3)
RESULTS["saturated"] = saturated

bright = tf.image.adjust_brightness(image, 0.4)
RESULTS["bright"] = bright

cropped = tf.image.central_crop(image, central_fraction=0.5)
RESULTS["cropped"] = cropped

rotated = tf.image.rot90(image)
RESULTS["rotated"] = rotated

for i in range(3):
  seed = (i, 0)  # tuple of size (2,)
  stateless_random_brightness = tf.image.stateless_random_brightness(
      image, max_delta=0.95, seed=seed)
  RESULTS[f"stateless_brightness_{i}"] = stateless_random_brightness

for i in range(3):
  seed = (i, 0)  # tuple of size (2,)
  stateless_random_contrast = tf.image.stateless_random_contrast(
      image, lower=0.1, upper=0.9, seed=seed)
  RESULTS[f"stateless_contrast_{i}"] = stateless_random_contrast

for i in range(3):
  seed = (i, 0)  # tuple of size (2,)
  stateless_random_crop = tf.image.stateless_random_crop(
      image, size=[60, 80, 3], seed=seed)
  RESULTS[f"stateless_crop_{i}"] = stateless_random_crop

(train_datasets, val_ds, test_ds) = _load()

def resize_and_rescale(image, label):
  image = tf.cast(image, tf.float32)
  image = tf.image.resize(image, [IMG_SIZE, IMG_SIZE])
  image = (image / 255.0)
  return image, label

def augment(image_label, seed):
  image, label = image_label
  image, label = resize_and_rescale(image, label)
  image = tf.image.resize_with_crop_or_pad(image, IMG_SIZE + 6, IMG_SIZE + 6)
  # Make a new seed.
  new_seed = tf.random.split(seed, num=1)[0, :]
  # Random crop back to the original size.
  image = tf.image.stateless_random_crop(
      image, size=[IMG_SIZE, IMG_SIZE, 3], seed=seed)
  # Random brightness.
  image = tf.image.stateless_random_brightness(
      image, max_delta=0.5, seed=new_seed)
  image = tf.clip_by_value(image, 0, 1)
  return image, label

# Create a `Counter` object and `Dataset.zip` it together with the training set.
counter = tf.data.experimental.Counter()
train_ds = tf.data.Dataset.zip((train_datasets, (counter, counter)))

train_ds = (
    train_ds
    .shuffle(1000)
    .map(augment, num_parallel_calls=AUTOTUNE)
    .batch(batch_size)
    .prefetch(AUTOTUNE)
)

val_ds = (
    val_ds
    .map(resize_and_rescale, num_parallel_calls=AUTOTUNE)
    .batch(batch_size)
    .prefetch(AUTOTUNE)
)

test_ds = (
    test_ds
    .map(resize_and_rescale, num_parallel_calls=AUTOTUNE)
    .batch(batch_size)
    .prefetch(AUTOTUNE)
)
_x, _y = next(iter(train_ds))
RESULTS["counter_batch_sums"] = tf.reduce_sum(_x, axis=[1, 2, 3])
RESULTS["counter_batch_labels"] = _y
RESULTS["val_batch"] = next(iter(val_ds))[0]

# Create a generator.
rng = tf.random.Generator.from_seed(123, alg='philox')

# Create a wrapper function for updating seeds.
def f(x, y):
  seed = rng.make_seeds(1)[:, 0]
  image, label = augment((x, y), seed)
  return image, label

train_ds = (
    train_datasets
    .shuffle(1000)
    .map(f, num_parallel_calls=AUTOTUNE)
    .batch(batch_size)
    .prefetch(AUTOTUNE)
)
_x, _y = next(iter(train_ds))
RESULTS["generator_batch_shape"] = list(_x.shape)
RESULTS["generator_batch_in_range"] = [tf.reduce_min(_x) >= 0, tf.reduce_max(_x) <= 1]
RESULTS["generator_batch_labels"] = _y
