"""Title: DeepDream (TF tutorial)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/tutorials/generative/deepdream.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: YellowLabradorLooking_new.jpg (downloaded with keras.utils.get_file in download()) -> a
synthetic 240x320 RGB JPEG written with PIL from a seeded NumPy generator in a temporary
directory, read by the tutorial's own download() (PIL open, thumbnail); max_dim 500 -> 200;
InceptionV3(weights='imagenet') (downloaded) -> weights=None with its kernels fixed
(fix_weights); steps 100 -> 4 (simple run), 50 -> 2 (octave loop) and steps_per_octave 100 -> 2;
display/show/IPython/matplotlib and the wall-clock timing removed (each shown image's sum or
shape is recorded instead); keras.utils.set_random_seed(0) (random_roll's tf.random.uniform is
unseeded); prints -> RESULTS. TensorFlow itself differs between two runs by ~1e-4 relative
once the octave runs repeat the gradient normalisation (oneDNN's summation order), so of those
runs only the losses of the first, simple run and the final images' mean pixel rounded to 0.1
are recorded.
"""
import os
import tempfile
import tensorflow as tf

import numpy as np

import PIL.Image
from _corpus import fix_weights

tf.keras.utils.set_random_seed(0)
RESULTS = {}
_dir = tempfile.mkdtemp()
_rng = np.random.default_rng(0)
PIL.Image.fromarray(_rng.integers(0, 256, (240, 320, 3)).astype(np.uint8)).save(
    os.path.join(_dir, "YellowLabradorLooking_new.jpg"))

url = 'https://storage.googleapis.com/download.tensorflow.org/example_images/YellowLabradorLooking_new.jpg'

# Download an image and read it into a NumPy array.
def download(url, max_dim=None):
  name = url.split('/')[-1]
  image_path = os.path.join(_dir, name)
  img = PIL.Image.open(image_path)
  if max_dim:
    img.thumbnail((max_dim, max_dim))
  return np.array(img)

# Normalize an image
def deprocess(img):
  img = 255*(img + 1.0)/2.0
  return tf.cast(img, tf.uint8)


# Downsizing the image makes it easier to work with.
original_img = download(url, max_dim=200)
RESULTS["original_shape"] = list(original_img.shape)

base_model = tf.keras.applications.InceptionV3(include_top=False, weights=None)
fix_weights(base_model)

# Maximize the activations of these layers
names = ['mixed3', 'mixed5']
layers = [base_model.get_layer(name).output for name in names]

# Create the feature extraction model
dream_model = tf.keras.Model(inputs=base_model.input, outputs=layers)

def calc_loss(img, model):
  # Pass forward the image through the model to retrieve the activations.
  # Converts the image into a batch of size 1.
  img_batch = tf.expand_dims(img, axis=0)
  layer_activations = model(img_batch)
  if len(layer_activations) == 1:
    layer_activations = [layer_activations]

  losses = []
  for act in layer_activations:
    loss = tf.math.reduce_mean(act)
    losses.append(loss)

  return  tf.reduce_sum(losses)

class DeepDream(tf.Module):
  def __init__(self, model):
    self.model = model

  @tf.function(
      input_signature=(
        tf.TensorSpec(shape=[None,None,3], dtype=tf.float32),
        tf.TensorSpec(shape=[], dtype=tf.int32),
        tf.TensorSpec(shape=[], dtype=tf.float32),)
  )
  def __call__(self, img, steps, step_size):
      print("Tracing")
      loss = tf.constant(0.0)
      for n in tf.range(steps):
        with tf.GradientTape() as tape:
          # This needs gradients relative to `img`
          # `GradientTape` only watches `tf.Variable`s by default
          tape.watch(img)
          loss = calc_loss(img, self.model)

        # Calculate the gradient of the loss with respect to the pixels of the input image.
        gradients = tape.gradient(loss, img)

        # Normalize the gradients.
        gradients /= tf.math.reduce_std(gradients) + 1e-8

        # In gradient ascent, the "loss" is maximized so that the input image increasingly "excites" the layers.
        # You can update the image by directly adding the gradients (because they're the same shape!)
        img = img + gradients*step_size
        img = tf.clip_by_value(img, -1, 1)

      return loss, img

deepdream = DeepDream(dream_model)

RESULTS["losses"] = []  # (only the first, simple run's are recorded: see the header)
def run_deep_dream_simple(img, steps=100, step_size=0.01):
  # Convert from uint8 to the range expected by the model.
  img = tf.keras.applications.inception_v3.preprocess_input(img)
  img = tf.convert_to_tensor(img)
  step_size = tf.convert_to_tensor(step_size)
  steps_remaining = steps
  step = 0
  while steps_remaining:
    if steps_remaining>100:
      run_steps = tf.constant(100)
    else:
      run_steps = tf.constant(steps_remaining)
    steps_remaining -= run_steps
    step += run_steps

    loss, img = deepdream(img, run_steps, tf.constant(step_size))

    RESULTS["losses"].append(loss)


  result = deprocess(img)

  return result

dream_img = run_deep_dream_simple(img=original_img,
                                  steps=4, step_size=0.01)
RESULTS["simple_losses"] = list(RESULTS["losses"])
RESULTS["dream_img_mean"] = tf.reduce_mean(tf.cast(dream_img, tf.float32))

OCTAVE_SCALE = 1.30

img = tf.constant(np.array(original_img))
base_shape = tf.shape(img)[:-1]
float_base_shape = tf.cast(base_shape, tf.float32)

for n in range(-2, 3):
  new_shape = tf.cast(float_base_shape*(OCTAVE_SCALE**n), tf.int32)

  img = tf.image.resize(img, new_shape).numpy()

  img = run_deep_dream_simple(img=img, steps=2, step_size=0.01)

img = tf.image.resize(img, base_shape)
img = tf.image.convert_image_dtype(img/255.0, dtype=tf.uint8)
RESULTS["octave_img_mean"] = np.round(tf.reduce_mean(tf.cast(img, tf.float32)).numpy(), 1)
RESULTS["octave_img_shape"] = list(img.shape)
del RESULTS["losses"]

def random_roll(img, maxroll):
  # Randomly shift the image to avoid tiled boundaries.
  shift = tf.random.uniform(shape=[2], minval=-maxroll, maxval=maxroll, dtype=tf.int32)
  img_rolled = tf.roll(img, shift=shift, axis=[0,1])
  return shift, img_rolled

shift, img_rolled = random_roll(np.array(original_img), 512)
RESULTS["img_rolled_shape"] = list(img_rolled.shape)

class TiledGradients(tf.Module):
  def __init__(self, model):
    self.model = model

  @tf.function(
      input_signature=(
        tf.TensorSpec(shape=[None,None,3], dtype=tf.float32),
        tf.TensorSpec(shape=[2], dtype=tf.int32),
        tf.TensorSpec(shape=[], dtype=tf.int32),)
  )
  def __call__(self, img, img_size, tile_size=512):
    shift, img_rolled = random_roll(img, tile_size)

    # Initialize the image gradients to zero.
    gradients = tf.zeros_like(img_rolled)

    # Skip the last tile, unless there's only one tile.
    xs = tf.range(0, img_size[1], tile_size)[:-1]
    if not tf.cast(len(xs), bool):
      xs = tf.constant([0])
    ys = tf.range(0, img_size[0], tile_size)[:-1]
    if not tf.cast(len(ys), bool):
      ys = tf.constant([0])

    for x in xs:
      for y in ys:
        # Calculate the gradients for this tile.
        with tf.GradientTape() as tape:
          # This needs gradients relative to `img_rolled`.
          # `GradientTape` only watches `tf.Variable`s by default.
          tape.watch(img_rolled)

          # Extract a tile out of the image.
          img_tile = img_rolled[y:y+tile_size, x:x+tile_size]
          loss = calc_loss(img_tile, self.model)

        # Update the image gradients for this tile.
        gradients = gradients + tape.gradient(loss, img_rolled)

    # Undo the random shift applied to the image and its gradients.
    gradients = tf.roll(gradients, shift=-shift, axis=[0,1])

    # Normalize the gradients.
    gradients /= tf.math.reduce_std(gradients) + 1e-8

    return gradients

get_tiled_gradients = TiledGradients(dream_model)

def run_deep_dream_with_octaves(img, steps_per_octave=100, step_size=0.01,
                                octaves=range(-2,3), octave_scale=1.3):
  base_shape = tf.shape(img)
  img = tf.keras.utils.img_to_array(img)
  img = tf.keras.applications.inception_v3.preprocess_input(img)

  initial_shape = img.shape[:-1]
  img = tf.image.resize(img, initial_shape)
  for octave in octaves:
    # Scale the image based on the octave
    new_size = tf.cast(tf.convert_to_tensor(base_shape[:-1]), tf.float32)*(octave_scale**octave)
    new_size = tf.cast(new_size, tf.int32)
    img = tf.image.resize(img, new_size)

    for step in range(steps_per_octave):
      gradients = get_tiled_gradients(img, new_size)
      img = img + gradients*step_size
      img = tf.clip_by_value(img, -1, 1)

  result = deprocess(img)
  return result

img = run_deep_dream_with_octaves(img=original_img, steps_per_octave=2, step_size=0.01)

img = tf.image.resize(img, base_shape)
img = tf.image.convert_image_dtype(img/255.0, dtype=tf.uint8)
RESULTS["tiled_img_mean"] = np.round(tf.reduce_mean(tf.cast(img, tf.float32)).numpy(), 1)
RESULTS["tiled_img_shape"] = list(img.shape)
