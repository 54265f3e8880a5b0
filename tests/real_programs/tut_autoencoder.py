"""Title: Intro to autoencoders: the basic and denoising autoencoders (TF tutorial)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/tutorials/generative/autoencoder.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: Fashion-MNIST -> 64 synthetic 28x28 images (train), 16 (test); epochs 10 -> 2,
shuffle=True -> False
(the order is TF's random stream); Dense(tf.math.reduce_prod(shape).numpy()) -> Dense(int(...))
(Keras 3.15 refuses a NumPy int32 as units); tf.random.set_seed(0) for the noise; the
models are built and their kernels fixed (fix_weights); plots removed; results in RESULTS.
"""
import numpy as np
import tensorflow as tf
from tensorflow.keras import layers, losses
from tensorflow.keras.models import Model
from _corpus import images, fix_weights
tf.random.set_seed(0)
RESULTS = {}

x_train = images(64, 28, 28)[..., 0]
x_test = images(16, 28, 28, seed=4)[..., 0]
x_train = x_train.astype('float32') / 1.
x_test = x_test.astype('float32') / 1.

class Autoencoder(Model):
  def __init__(self, latent_dim, shape):
    super(Autoencoder, self).__init__()
    self.latent_dim = latent_dim
    self.shape = shape
    self.encoder = tf.keras.Sequential([
      layers.Flatten(),
      layers.Dense(latent_dim, activation='relu'),
    ])
    self.decoder = tf.keras.Sequential([
      layers.Dense(int(tf.math.reduce_prod(shape).numpy()), activation='sigmoid'),
      layers.Reshape(shape)
    ])

  def call(self, x):
    encoded = self.encoder(x)
    decoded = self.decoder(encoded)
    return decoded

shape = x_test.shape[1:]
latent_dim = 64
autoencoder = Autoencoder(latent_dim, shape)
autoencoder(x_test[:1])
fix_weights(autoencoder)
autoencoder.compile(optimizer='adam', loss=losses.MeanSquaredError())
history = autoencoder.fit(x_train, x_train,
                epochs=2,
                shuffle=False,
                validation_data=(x_test, x_test), verbose=0)
RESULTS["history"] = history.history['loss']
encoded_imgs = autoencoder.encoder(x_test).numpy()
decoded_imgs = autoencoder.decoder(encoded_imgs).numpy()
RESULTS["decoded"] = decoded_imgs[:2]

x_train = x_train[..., tf.newaxis]
x_test = x_test[..., tf.newaxis]
noise_factor = 0.2
x_train_noisy = x_train + noise_factor * tf.random.normal(shape=x_train.shape)
x_test_noisy = x_test + noise_factor * tf.random.normal(shape=x_test.shape)
x_train_noisy = tf.clip_by_value(x_train_noisy, clip_value_min=0., clip_value_max=1.)
x_test_noisy = tf.clip_by_value(x_test_noisy, clip_value_min=0., clip_value_max=1.)
RESULTS["x_test_noisy"] = x_test_noisy[:2]

class Denoise(Model):
  def __init__(self):
    super(Denoise, self).__init__()
    self.encoder = tf.keras.Sequential([
      layers.Input(shape=(28, 28, 1)),
      layers.Conv2D(16, (3, 3), activation='relu', padding='same', strides=2),
      layers.Conv2D(8, (3, 3), activation='relu', padding='same', strides=2)])

    self.decoder = tf.keras.Sequential([
      layers.Conv2DTranspose(8, kernel_size=3, strides=2, activation='relu', padding='same'),
      layers.Conv2DTranspose(16, kernel_size=3, strides=2, activation='relu', padding='same'),
      layers.Conv2D(1, kernel_size=(3, 3), activation='sigmoid', padding='same')])

  def call(self, x):
    encoded = self.encoder(x)
    decoded = self.decoder(encoded)
    return decoded

autoencoder = Denoise()
autoencoder.compile(optimizer='adam', loss=losses.MeanSquaredError())
autoencoder(x_test[:1])
fix_weights(autoencoder, seed=1)
history = autoencoder.fit(x_train_noisy, x_train,
                epochs=2,
                shuffle=False,
                validation_data=(x_test_noisy, x_test), verbose=0)
RESULTS["denoise_history"] = history.history['loss']
RESULTS["denoise_val"] = history.history['val_loss']
