"""Title: Image segmentation (TensorFlow tutorial)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/tutorials/images/segmentation.ipynb
Licence: Apache-2.0 (tensorflow/docs; pix2pix.upsample from tensorflow/examples, Apache-2.0)
Changed: pip cells, IPython/matplotlib and tensorflow_datasets imports, plot_model and the
display() plotting body removed (display() does nothing; clear_output removed from the callback);
`from tensorflow_examples.models.pix2pix import pix2pix` -> its `upsample` function copied inline
(batchnorm branch; tensorflow/examples is not installable here); tfds 'oxford_iiit_pet' ->
40 train / 40 test synthetic datapoints ({'image': uint8 80x80x3, 'segmentation_mask': uint8
80x80x1 with labels 1..3, a disc on a background plus a border ring}) from a seeded NumPy
generator, and `info` -> a stand-in with the same splits[...].num_examples; image size
128 -> 64 (the MobileNetV2 input and the resize), MobileNetV2 weights='imagenet' (download) ->
weights=None; BATCH_SIZE 64 -> 8, BUFFER_SIZE 1000 -> 40, EPOCHS 20 -> 2, the weighted model's
steps_per_epoch 10 -> 2; verbose=0 in fit/predict; keras.utils.set_random_seed(0) (initializers
and the shuffle are unseeded); `tf.keras.losses.Reduction.NONE` (absent from Keras 3) ->
reduction='none'. Histories, predictions, the caught class_weight error's type name and the
sample-weighted losses -> RESULTS.
"""
import numpy as np

import tensorflow as tf
import keras

keras.utils.set_random_seed(0)
RESULTS = {}


def upsample(filters, size, norm_type='batchnorm', apply_dropout=False):
  """Upsamples an input (tensorflow_examples.models.pix2pix.pix2pix.upsample).

  Conv2DTranspose => Batchnorm => Dropout => Relu
  """
  initializer = tf.random_normal_initializer(0., 0.02)

  result = tf.keras.Sequential()
  result.add(
      tf.keras.layers.Conv2DTranspose(filters, size, strides=2,
                                      padding='same',
                                      kernel_initializer=initializer,
                                      use_bias=False))

  if norm_type.lower() == 'batchnorm':
    result.add(tf.keras.layers.BatchNormalization())

  if apply_dropout:
    result.add(tf.keras.layers.Dropout(0.5))

  result.add(tf.keras.layers.ReLU())

  return result


class pix2pix:
  upsample = staticmethod(upsample)


def _pets(n, rng):
  yy, xx = np.mgrid[:80, :80]
  images, masks = [], []
  for _ in range(n):
    cy, cx, r = rng.integers(25, 55), rng.integers(25, 55), rng.integers(10, 20)
    d = np.sqrt((yy - cy) ** 2 + (xx - cx) ** 2)
    mask = np.where(d < r, 1, np.where(d < r + 3, 3, 2)).astype(np.uint8)
    image = rng.integers(0, 80, (80, 80, 3)) + 120 * (mask == 1)[..., None] + 60 * (mask == 3)[..., None]
    images.append(image.astype(np.uint8))
    masks.append(mask[..., None])
  return tf.data.Dataset.from_tensor_slices({'image': np.stack(images),
                                             'segmentation_mask': np.stack(masks)})


class _Split:
  def __init__(self, n):
    self.num_examples = n


class _Info:
  splits = {'train': _Split(40), 'test': _Split(40)}


_rng = np.random.default_rng(0)
dataset, info = {'train': _pets(40, _rng), 'test': _pets(40, _rng)}, _Info()
def normalize(input_image, input_mask):
  input_image = tf.cast(input_image, tf.float32) / 255.0
  input_mask -= 1
  return input_image, input_mask
def load_image(datapoint):
  input_image = tf.image.resize(datapoint['image'], (64, 64))
  input_mask = tf.image.resize(
    datapoint['segmentation_mask'],
    (64, 64),
    method = tf.image.ResizeMethod.NEAREST_NEIGHBOR,
  )

  input_image, input_mask = normalize(input_image, input_mask)

  return input_image, input_mask
TRAIN_LENGTH = info.splits['train'].num_examples
BATCH_SIZE = 8
BUFFER_SIZE = 40
STEPS_PER_EPOCH = TRAIN_LENGTH // BATCH_SIZE
train_images = dataset['train'].map(load_image, num_parallel_calls=tf.data.AUTOTUNE)
test_images = dataset['test'].map(load_image, num_parallel_calls=tf.data.AUTOTUNE)
class Augment(tf.keras.layers.Layer):
  def __init__(self, seed=42):
    super().__init__()
    # both use the same seed, so they'll make the same random changes.
    self.augment_inputs = tf.keras.layers.RandomFlip(mode="horizontal", seed=seed)
    self.augment_labels = tf.keras.layers.RandomFlip(mode="horizontal", seed=seed)

  def call(self, inputs, labels):
    inputs = self.augment_inputs(inputs)
    labels = self.augment_labels(labels)
    return inputs, labels
train_batches = (
    train_images
    .cache()
    .shuffle(BUFFER_SIZE)
    .batch(BATCH_SIZE)
    .repeat()
    .map(Augment())
    .prefetch(buffer_size=tf.data.AUTOTUNE))

test_batches = test_images.batch(BATCH_SIZE)
def display(display_list):

  title = ['Input Image', 'True Mask', 'Predicted Mask']
for images, masks in train_batches.take(2):
  sample_image, sample_mask = images[0], masks[0]
  display([sample_image, sample_mask])
RESULTS["sample_image_shape"] = list(sample_image.shape)
RESULTS["sample_mask_shape"] = list(sample_mask.shape)
RESULTS["sample_mask_dtype"] = np.array(sample_mask.dtype.name)
base_model = tf.keras.applications.MobileNetV2(input_shape=[64, 64, 3], include_top=False,
                                               weights=None)

# Use the activations of these layers
layer_names = [
    'block_1_expand_relu',   # 64x64
    'block_3_expand_relu',   # 32x32
    'block_6_expand_relu',   # 16x16
    'block_13_expand_relu',  # 8x8
    'block_16_project',      # 4x4
]
base_model_outputs = [base_model.get_layer(name).output for name in layer_names]

# Create the feature extraction model
down_stack = tf.keras.Model(inputs=base_model.input, outputs=base_model_outputs)

down_stack.trainable = False
up_stack = [
    pix2pix.upsample(512, 3),  # 4x4 -> 8x8
    pix2pix.upsample(256, 3),  # 8x8 -> 16x16
    pix2pix.upsample(128, 3),  # 16x16 -> 32x32
    pix2pix.upsample(64, 3),   # 32x32 -> 64x64
]
def unet_model(output_channels:int):
  inputs = tf.keras.layers.Input(shape=[64, 64, 3])

  # Downsampling through the model
  skips = down_stack(inputs)
  x = skips[-1]
  skips = reversed(skips[:-1])

  # Upsampling and establishing the skip connections
  for up, skip in zip(up_stack, skips):
    x = up(x)
    concat = tf.keras.layers.Concatenate()
    x = concat([x, skip])

  # This is the last layer of the model
  last = tf.keras.layers.Conv2DTranspose(
      filters=output_channels, kernel_size=3, strides=2,
      padding='same')  #64x64 -> 128x128

  x = last(x)

  return tf.keras.Model(inputs=inputs, outputs=x)
OUTPUT_CLASSES = 3

model = unet_model(output_channels=OUTPUT_CLASSES)
model.compile(optimizer='adam',
              loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=['accuracy'])
RESULTS["trainable_params"] = sum(int(np.prod(v.shape)) for v in model.trainable_weights)
RESULTS["params"] = model.count_params()
def create_mask(pred_mask):
  pred_mask = tf.math.argmax(pred_mask, axis=-1)
  pred_mask = pred_mask[..., tf.newaxis]
  return pred_mask[0]
def show_predictions(dataset=None, num=1):
  if dataset:
    for image, mask in dataset.take(num):
      pred_mask = model.predict(image, verbose=0)
      display([image[0], mask[0], create_mask(pred_mask)])
  else:
    display([sample_image, sample_mask,
             create_mask(model.predict(sample_image[tf.newaxis, ...], verbose=0))])
show_predictions()
RESULTS["initial_prediction"] = model.predict(sample_image[tf.newaxis, ...], verbose=0)[0, ::8, ::8]
class DisplayCallback(tf.keras.callbacks.Callback):
  def on_epoch_end(self, epoch, logs=None):
    show_predictions()
    print ('\nSample Prediction after epoch {}\n'.format(epoch+1))
EPOCHS = 2
VAL_SUBSPLITS = 5
VALIDATION_STEPS = info.splits['test'].num_examples//BATCH_SIZE//VAL_SUBSPLITS

model_history = model.fit(train_batches, epochs=EPOCHS,
                          steps_per_epoch=STEPS_PER_EPOCH,
                          validation_steps=VALIDATION_STEPS,
                          validation_data=test_batches,
                          callbacks=[DisplayCallback()], verbose=0)
loss = model_history.history['loss']
val_loss = model_history.history['val_loss']
RESULTS["history"] = [model_history.history[k] for k in sorted(model_history.history)]

show_predictions(test_batches, 3)
for image, mask in test_batches.take(1):
  RESULTS["test_mask"] = create_mask(model.predict(image, verbose=0))[::8, ::8, 0]
try:
  model_history = model.fit(train_batches, epochs=EPOCHS,
                            steps_per_epoch=STEPS_PER_EPOCH,
                            class_weight = {0:2.0, 1:2.0, 2:1.0}, verbose=0)
  assert False
except Exception as e:
  print(f"Expected {type(e).__name__}: {e}")
  RESULTS["class_weight_error"] = np.array(type(e).__name__)
label = np.array([0,0])
prediction = np.array([[-3., 0], [-3, 0]])
sample_weight = [1, 10]

loss = tf.keras.losses.SparseCategoricalCrossentropy(
    from_logits=True,
    reduction='none'
)
RESULTS["weighted_loss"] = loss(label, prediction, sample_weight).numpy()
def add_sample_weights(image, label):
  # The weights for each class, with the constraint that:
  #     sum(class_weights) == 1.0
  class_weights = tf.constant([2.0, 2.0, 1.0])
  class_weights = class_weights/tf.reduce_sum(class_weights)

  # Create an image of `sample_weights` by using the label at each pixel as an
  # index into the `class weights` .
  sample_weights = tf.gather(class_weights, indices=tf.cast(label, tf.int32))

  return image, label, sample_weights
_spec = train_batches.map(add_sample_weights).element_spec
RESULTS["weights_spec_shape"] = [-1 if d is None else d for d in _spec[2].shape.as_list()]
weighted_model = unet_model(OUTPUT_CLASSES)
weighted_model.compile(
    optimizer='adam',
    loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
    metrics=['accuracy'])
_wh = weighted_model.fit(
    train_batches.map(add_sample_weights),
    epochs=1,
    steps_per_epoch=2, verbose=0)
RESULTS["weighted_history"] = [_wh.history[k] for k in sorted(_wh.history)]
