"""Title: pix2pix: Image-to-image translation with a conditional GAN (TF tutorial)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/tutorials/generative/pix2pix.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: the facades dataset (downloaded and extracted with tf.keras.utils.get_file; 400/106
256x512 JPEG pairs) -> 4 train and 2 test synthetic 256x512 JPEG files (seeded NumPy pixels, written
with Pillow) in a temporary directory, which the program works in (os.chdir; also for
./training_checkpoints and logs/); BUFFER_SIZE 400 -> 4; the filter counts 64/128/256/512 -> 8/16/
32/64 (generator and discriminator); steps=40000 -> 6, and the checkpoint every 5000 -> 3 steps (so
the restore cell restores one); keras.utils.set_random_seed(0) (the jitter, dropout, list_files and
shuffle are unseeded) and tf.config.experimental.enable_op_determinism() (without it, two
runs of the training under TensorFlow differ from each other by ~1e-4); both models' kernels
fixed (fix_weights); matplotlib, IPython.display, plot_model and the tensorboard magics
removed (generate_images still runs the model and keeps its prediction); the sample pair
train/100.jpg -> train/3.jpg (of the 4); the timings dropped; prints and plots -> RESULTS
(shapes, jittered images, model outputs, predictions, the trained weights).
"""
import tensorflow as tf

import os
import pathlib
import time
import datetime
import tempfile

import numpy as np
from PIL import Image
from _corpus import fix_weights

tf.keras.utils.set_random_seed(0)
tf.config.experimental.enable_op_determinism()
RESULTS = {}
os.chdir(tempfile.mkdtemp())

dataset_name = "facades" #@param ["cityscapes", "edges2handbags", "edges2shoes", "facades", "maps", "night2day"]

_rng = np.random.default_rng(0)
PATH = pathlib.Path(f'{dataset_name}_extracted/{dataset_name}')
for _split, _n in (('train', 4), ('test', 2)):
  os.makedirs(PATH / _split)
  for _i in range(_n):
    _coarse = _rng.integers(0, 256, (16, 32, 3)).astype(np.uint8)
    _pixels = np.kron(_coarse, np.ones((16, 16, 1), np.uint8))
    Image.fromarray(_pixels).save(str(PATH / _split / f'{_i + 1}.jpg'), quality=95)

RESULTS["files"] = sorted(str(p.name) for p in PATH.parent.iterdir())

sample_image = tf.io.read_file(str(PATH / 'train/1.jpg'))
sample_image = tf.io.decode_jpeg(sample_image)
print(sample_image.shape)
RESULTS["sample_image_shape"] = sample_image.shape.as_list()
RESULTS["sample_image_sum"] = tf.reduce_sum(tf.cast(sample_image, tf.int64))

def load(image_file):
  # Read and decode an image file to a uint8 tensor
  image = tf.io.read_file(image_file)
  image = tf.io.decode_jpeg(image)

  # Split each image tensor into two tensors:
  # - one with a real building facade image
  # - one with an architecture label image 
  w = tf.shape(image)[1]
  w = w // 2
  input_image = image[:, w:, :]
  real_image = image[:, :w, :]

  # Convert both images to float32 tensors
  input_image = tf.cast(input_image, tf.float32)
  real_image = tf.cast(real_image, tf.float32)

  return input_image, real_image

inp, re = load(str(PATH / 'train/3.jpg'))
RESULTS["inp_mean"] = tf.reduce_mean(inp)
RESULTS["re_mean"] = tf.reduce_mean(re)

# The facade training set consist of 400 images
BUFFER_SIZE = 4
# The batch size of 1 produced better results for the U-Net in the original pix2pix experiment
BATCH_SIZE = 1
# Each image is 256x256 in size
IMG_WIDTH = 256
IMG_HEIGHT = 256

def resize(input_image, real_image, height, width):
  input_image = tf.image.resize(input_image, [height, width],
                                method=tf.image.ResizeMethod.NEAREST_NEIGHBOR)
  real_image = tf.image.resize(real_image, [height, width],
                               method=tf.image.ResizeMethod.NEAREST_NEIGHBOR)

  return input_image, real_image

def random_crop(input_image, real_image):
  stacked_image = tf.stack([input_image, real_image], axis=0)
  cropped_image = tf.image.random_crop(
      stacked_image, size=[2, IMG_HEIGHT, IMG_WIDTH, 3])

  return cropped_image[0], cropped_image[1]

# Normalizing the images to [-1, 1]
def normalize(input_image, real_image):
  input_image = (input_image / 127.5) - 1
  real_image = (real_image / 127.5) - 1

  return input_image, real_image

@tf.function()
def random_jitter(input_image, real_image):
  # Resizing to 286x286
  input_image, real_image = resize(input_image, real_image, 286, 286)

  # Random cropping back to 256x256
  input_image, real_image = random_crop(input_image, real_image)

  if tf.random.uniform(()) > 0.5:
    # Random mirroring
    input_image = tf.image.flip_left_right(input_image)
    real_image = tf.image.flip_left_right(real_image)

  return input_image, real_image

_jittered = []
for i in range(4):
  rj_inp, rj_re = random_jitter(inp, re)
  _jittered.append(rj_inp[::64, ::64, 0] / 255.0)
RESULTS["jittered"] = _jittered

def load_image_train(image_file):
  input_image, real_image = load(image_file)
  input_image, real_image = random_jitter(input_image, real_image)
  input_image, real_image = normalize(input_image, real_image)

  return input_image, real_image

def load_image_test(image_file):
  input_image, real_image = load(image_file)
  input_image, real_image = resize(input_image, real_image,
                                   IMG_HEIGHT, IMG_WIDTH)
  input_image, real_image = normalize(input_image, real_image)

  return input_image, real_image

train_dataset = tf.data.Dataset.list_files(str(PATH / 'train/*.jpg'))
train_dataset = train_dataset.map(load_image_train,
                                  num_parallel_calls=tf.data.AUTOTUNE)
train_dataset = train_dataset.shuffle(BUFFER_SIZE)
train_dataset = train_dataset.batch(BATCH_SIZE)

try:
  test_dataset = tf.data.Dataset.list_files(str(PATH / 'test/*.jpg'))
except tf.errors.InvalidArgumentError:
  test_dataset = tf.data.Dataset.list_files(str(PATH / 'val/*.jpg'))
test_dataset = test_dataset.map(load_image_test)
test_dataset = test_dataset.batch(BATCH_SIZE)

OUTPUT_CHANNELS = 3

def downsample(filters, size, apply_batchnorm=True):
  initializer = tf.random_normal_initializer(0., 0.02)

  result = tf.keras.Sequential()
  result.add(
      tf.keras.layers.Conv2D(filters, size, strides=2, padding='same',
                             kernel_initializer=initializer, use_bias=False))

  if apply_batchnorm:
    result.add(tf.keras.layers.BatchNormalization())

  result.add(tf.keras.layers.LeakyReLU())

  return result

down_model = downsample(3, 4)
down_result = down_model(tf.expand_dims(inp, 0))
print (down_result.shape)
RESULTS["down_shape"] = down_result.shape.as_list()

def upsample(filters, size, apply_dropout=False):
  initializer = tf.random_normal_initializer(0., 0.02)

  result = tf.keras.Sequential()
  result.add(
    tf.keras.layers.Conv2DTranspose(filters, size, strides=2,
                                    padding='same',
                                    kernel_initializer=initializer,
                                    use_bias=False))

  result.add(tf.keras.layers.BatchNormalization())

  if apply_dropout:
      result.add(tf.keras.layers.Dropout(0.5))

  result.add(tf.keras.layers.ReLU())

  return result

up_model = upsample(3, 4)
up_result = up_model(down_result)
print (up_result.shape)
RESULTS["up_shape"] = up_result.shape.as_list()

def Generator():
  inputs = tf.keras.layers.Input(shape=[256, 256, 3])

  down_stack = [
    downsample(8, 4, apply_batchnorm=False),  # (batch_size, 128, 128, 64)
    downsample(16, 4),  # (batch_size, 64, 64, 128)
    downsample(32, 4),  # (batch_size, 32, 32, 256)
    downsample(64, 4),  # (batch_size, 16, 16, 512)
    downsample(64, 4),  # (batch_size, 8, 8, 512)
    downsample(64, 4),  # (batch_size, 4, 4, 512)
    downsample(64, 4),  # (batch_size, 2, 2, 512)
    downsample(64, 4),  # (batch_size, 1, 1, 512)
  ]

  up_stack = [
    upsample(64, 4, apply_dropout=True),  # (batch_size, 2, 2, 1024)
    upsample(64, 4, apply_dropout=True),  # (batch_size, 4, 4, 1024)
    upsample(64, 4, apply_dropout=True),  # (batch_size, 8, 8, 1024)
    upsample(64, 4),  # (batch_size, 16, 16, 1024)
    upsample(32, 4),  # (batch_size, 32, 32, 512)
    upsample(16, 4),  # (batch_size, 64, 64, 256)
    upsample(8, 4),  # (batch_size, 128, 128, 128)
  ]

  initializer = tf.random_normal_initializer(0., 0.02)
  last = tf.keras.layers.Conv2DTranspose(OUTPUT_CHANNELS, 4,
                                         strides=2,
                                         padding='same',
                                         kernel_initializer=initializer,
                                         activation='tanh')  # (batch_size, 256, 256, 3)

  x = inputs

  # Downsampling through the model
  skips = []
  for down in down_stack:
    x = down(x)
    skips.append(x)

  skips = reversed(skips[:-1])

  # Upsampling and establishing the skip connections
  for up, skip in zip(up_stack, skips):
    x = up(x)
    x = tf.keras.layers.Concatenate()([x, skip])

  x = last(x)

  return tf.keras.Model(inputs=inputs, outputs=x)

generator = Generator()
fix_weights(generator)

gen_output = generator(inp[tf.newaxis, ...], training=False)
RESULTS["gen_output"] = gen_output[0, ::32, ::32, :]

LAMBDA = 100

loss_object = tf.keras.losses.BinaryCrossentropy(from_logits=True)

def generator_loss(disc_generated_output, gen_output, target):
  gan_loss = loss_object(tf.ones_like(disc_generated_output), disc_generated_output)

  # Mean absolute error
  l1_loss = tf.reduce_mean(tf.abs(target - gen_output))

  total_gen_loss = gan_loss + (LAMBDA * l1_loss)

  return total_gen_loss, gan_loss, l1_loss

def Discriminator():
  initializer = tf.random_normal_initializer(0., 0.02)

  inp = tf.keras.layers.Input(shape=[256, 256, 3], name='input_image')
  tar = tf.keras.layers.Input(shape=[256, 256, 3], name='target_image')

  x = tf.keras.layers.concatenate([inp, tar])  # (batch_size, 256, 256, channels*2)

  down1 = downsample(8, 4, False)(x)  # (batch_size, 128, 128, 64)
  down2 = downsample(16, 4)(down1)  # (batch_size, 64, 64, 128)
  down3 = downsample(32, 4)(down2)  # (batch_size, 32, 32, 256)

  zero_pad1 = tf.keras.layers.ZeroPadding2D()(down3)  # (batch_size, 34, 34, 256)
  conv = tf.keras.layers.Conv2D(64, 4, strides=1,
                                kernel_initializer=initializer,
                                use_bias=False)(zero_pad1)  # (batch_size, 31, 31, 512)

  batchnorm1 = tf.keras.layers.BatchNormalization()(conv)

  leaky_relu = tf.keras.layers.LeakyReLU()(batchnorm1)

  zero_pad2 = tf.keras.layers.ZeroPadding2D()(leaky_relu)  # (batch_size, 33, 33, 512)

  last = tf.keras.layers.Conv2D(1, 4, strides=1,
                                kernel_initializer=initializer)(zero_pad2)  # (batch_size, 30, 30, 1)

  return tf.keras.Model(inputs=[inp, tar], outputs=last)

discriminator = Discriminator()
fix_weights(discriminator, seed=1)

disc_out = discriminator([inp[tf.newaxis, ...], gen_output], training=False)
RESULTS["disc_out"] = disc_out[0, ::5, ::5, -1]

def discriminator_loss(disc_real_output, disc_generated_output):
  real_loss = loss_object(tf.ones_like(disc_real_output), disc_real_output)

  generated_loss = loss_object(tf.zeros_like(disc_generated_output), disc_generated_output)

  total_disc_loss = real_loss + generated_loss

  return total_disc_loss

generator_optimizer = tf.keras.optimizers.Adam(2e-4, beta_1=0.5)
discriminator_optimizer = tf.keras.optimizers.Adam(2e-4, beta_1=0.5)

checkpoint_dir = './training_checkpoints'
checkpoint_prefix = os.path.join(checkpoint_dir, "ckpt")
checkpoint = tf.train.Checkpoint(generator_optimizer=generator_optimizer,
                                 discriminator_optimizer=discriminator_optimizer,
                                 generator=generator,
                                 discriminator=discriminator)

_predictions = []

def generate_images(model, test_input, tar):
  prediction = model(test_input, training=True)
  _predictions.append(prediction[0, ::32, ::32, :])

  display_list = [test_input[0], tar[0], prediction[0]]
  title = ['Input Image', 'Ground Truth', 'Predicted Image']

for example_input, example_target in test_dataset.take(1):
  generate_images(generator, example_input, example_target)

log_dir="logs/"

summary_writer = tf.summary.create_file_writer(
  log_dir + "fit/" + datetime.datetime.now().strftime("%Y%m%d-%H%M%S"))

@tf.function
def train_step(input_image, target, step):
  with tf.GradientTape() as gen_tape, tf.GradientTape() as disc_tape:
    gen_output = generator(input_image, training=True)

    disc_real_output = discriminator([input_image, target], training=True)
    disc_generated_output = discriminator([input_image, gen_output], training=True)

    gen_total_loss, gen_gan_loss, gen_l1_loss = generator_loss(disc_generated_output, gen_output, target)
    disc_loss = discriminator_loss(disc_real_output, disc_generated_output)

  generator_gradients = gen_tape.gradient(gen_total_loss,
                                          generator.trainable_variables)
  discriminator_gradients = disc_tape.gradient(disc_loss,
                                               discriminator.trainable_variables)

  generator_optimizer.apply_gradients(zip(generator_gradients,
                                          generator.trainable_variables))
  discriminator_optimizer.apply_gradients(zip(discriminator_gradients,
                                              discriminator.trainable_variables))

  with summary_writer.as_default():
    tf.summary.scalar('gen_total_loss', gen_total_loss, step=step//1000)
    tf.summary.scalar('gen_gan_loss', gen_gan_loss, step=step//1000)
    tf.summary.scalar('gen_l1_loss', gen_l1_loss, step=step//1000)
    tf.summary.scalar('disc_loss', disc_loss, step=step//1000)

def fit(train_ds, test_ds, steps):
  example_input, example_target = next(iter(test_ds.take(1)))
  start = time.time()

  for step, (input_image, target) in train_ds.repeat().take(steps).enumerate():
    if (step) % 1000 == 0:

      if step != 0:
        print(f'Time taken for 1000 steps: {time.time()-start:.2f} sec\n')

      start = time.time()

      generate_images(generator, example_input, example_target)
      print(f"Step: {step//1000}k")

    train_step(input_image, target, step)

    # Training step
    if (step+1) % 10 == 0:
      print('.', end='', flush=True)


    # Save (checkpoint) the model every 5k steps
    if (step + 1) % 3 == 0:
      checkpoint.save(file_prefix=checkpoint_prefix)

fit(train_dataset, test_dataset, steps=6)
RESULTS["gen_kernel_after"] = generator.trainable_variables[0][:, :, 0, 0]
RESULTS["disc_last_kernel_after"] = discriminator.trainable_variables[-2][:, :, 0, 0]
RESULTS["checkpoint_files"] = sorted(os.listdir(checkpoint_dir))
RESULTS["log_dirs"] = len(os.listdir(log_dir + "fit/"))

# Restoring the latest checkpoint in checkpoint_dir
checkpoint.restore(tf.train.latest_checkpoint(checkpoint_dir))
RESULTS["gen_kernel_restored"] = generator.trainable_variables[0][:, :, 0, 0]
RESULTS["optimizer_iterations"] = generator_optimizer.iterations

# Run the trained model on a few examples from the test set
for inp, tar in test_dataset.take(5):
  generate_images(generator, inp, tar)
RESULTS["predictions"] = _predictions
