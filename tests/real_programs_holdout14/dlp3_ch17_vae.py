"""Title: Deep Learning with Python, 3rd ed., chapter 17: Implementing a VAE with Keras (a Sampler layer with a SeedGenerator, a Model subclass overriding compute_loss with loss trackers, keras.ops)
Source: https://github.com/fchollet/deep-learning-with-python-notebooks/blob/dea84a4e12cc3bb3cb61ce952a0168bca113d315/chapter17_image-generation.ipynb
Licence: MIT (fchollet/deep-learning-with-python-notebooks)
Changed: the notebook's "Implementing a VAE with Keras" cells (9-16) in order; the `!pip` cell,
the `KERAS_BACKEND = "jax"` cell and the IPython cell-magic cell removed (the program runs on
Keras's TensorFlow backend); keras.utils.set_random_seed(0) at the top; MNIST (60000 + 10000
28x28 uint8 digits, downloaded) -> 192 + 64 synthetic uint8 images from a seeded NumPy generator
(blurred blobs, so the binary cross-entropy has something to learn); epochs 30 -> 3; the
latent-grid plot (cell 16) keeps its decoding loop on a 5x5 grid instead of 30x30 (n = 30 -> 5)
with the matplotlib calls removed, the figure -> RESULTS; the encoder/decoder summaries (cells
10, 13) -> their parameter counts; the history, the metric trackers, the encoder's outputs and
the decoded grid -> RESULTS.
"""
RESULTS = {}

import keras
keras.utils.set_random_seed(0)
import numpy as np

def _synthetic_digits(n, rng):
    yy, xx = np.mgrid[0:28, 0:28]
    images = np.zeros((n, 28, 28))
    for k in range(n):
        for _ in range(3):
            cy, cx = rng.uniform(6, 22, 2)
            images[k] += np.exp(-((yy - cy) ** 2 + (xx - cx) ** 2) / (2 * rng.uniform(2, 9)))
    return (255 * np.clip(images, 0, 1)).astype(np.uint8)

_rng = np.random.default_rng(0)
# [cell 9]
import keras
from keras import layers

latent_dim = 2

image_inputs = keras.Input(shape=(28, 28, 1))
x = layers.Conv2D(32, 3, activation="relu", strides=2, padding="same")(
    image_inputs
)
x = layers.Conv2D(64, 3, activation="relu", strides=2, padding="same")(x)
x = layers.Flatten()(x)
x = layers.Dense(16, activation="relu")(x)
z_mean = layers.Dense(latent_dim, name="z_mean")(x)
z_log_var = layers.Dense(latent_dim, name="z_log_var")(x)
encoder = keras.Model(image_inputs, [z_mean, z_log_var], name="encoder")
# [cell 10]
RESULTS["encoder_count_params"] = encoder.count_params()
# [cell 11]
from keras import ops

class Sampler(keras.Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.seed_generator = keras.random.SeedGenerator()
        self.built = True

    def call(self, z_mean, z_log_var):
        batch_size = ops.shape(z_mean)[0]
        z_size = ops.shape(z_mean)[1]
        epsilon = keras.random.normal(
            (batch_size, z_size), seed=self.seed_generator
        )
        return z_mean + ops.exp(0.5 * z_log_var) * epsilon
# [cell 12]
latent_inputs = keras.Input(shape=(latent_dim,))
x = layers.Dense(7 * 7 * 64, activation="relu")(latent_inputs)
x = layers.Reshape((7, 7, 64))(x)
x = layers.Conv2DTranspose(64, 3, activation="relu", strides=2, padding="same")(
    x
)
x = layers.Conv2DTranspose(32, 3, activation="relu", strides=2, padding="same")(
    x
)
decoder_outputs = layers.Conv2D(1, 3, activation="sigmoid", padding="same")(x)
decoder = keras.Model(latent_inputs, decoder_outputs, name="decoder")
# [cell 13]
RESULTS["decoder_count_params"] = decoder.count_params()
# [cell 14]
class VAE(keras.Model):
    def __init__(self, encoder, decoder, **kwargs):
        super().__init__(**kwargs)
        self.encoder = encoder
        self.decoder = decoder
        self.sampler = Sampler()
        self.reconstruction_loss_tracker = keras.metrics.Mean(
            name="reconstruction_loss"
        )
        self.kl_loss_tracker = keras.metrics.Mean(name="kl_loss")

    def call(self, inputs):
        return self.encoder(inputs)

    def compute_loss(self, x, y, y_pred, sample_weight=None, training=True):
        original = x
        z_mean, z_log_var = y_pred
        reconstruction = self.decoder(self.sampler(z_mean, z_log_var))

        reconstruction_loss = ops.mean(
            ops.sum(
                keras.losses.binary_crossentropy(x, reconstruction), axis=(1, 2)
            )
        )
        kl_loss = -0.5 * (
            1 + z_log_var - ops.square(z_mean) - ops.exp(z_log_var)
        )
        total_loss = reconstruction_loss + ops.mean(kl_loss)

        self.reconstruction_loss_tracker.update_state(reconstruction_loss)
        self.kl_loss_tracker.update_state(kl_loss)
        return total_loss
# [cell 15]
import numpy as np

(x_train, _), (x_test, _) = ((_synthetic_digits(192, _rng), None),
                             (_synthetic_digits(64, _rng), None))
mnist_digits = np.concatenate([x_train, x_test], axis=0)
mnist_digits = np.expand_dims(mnist_digits, -1).astype("float32") / 255

vae = VAE(encoder, decoder)
vae.compile(optimizer=keras.optimizers.Adam())
history = vae.fit(mnist_digits, epochs=3, batch_size=128)
for _k, _v in history.history.items():
    RESULTS["history_" + _k] = _v
RESULTS["reconstruction_loss_tracker"] = vae.reconstruction_loss_tracker.result()
RESULTS["kl_loss_tracker"] = vae.kl_loss_tracker.result()
_z_mean, _z_log_var = vae.predict(mnist_digits[:8])
RESULTS["z_mean_first8"] = _z_mean
RESULTS["z_log_var_first8"] = _z_log_var
# [cell 16]
n = 5
digit_size = 28
figure = np.zeros((digit_size * n, digit_size * n))

grid_x = np.linspace(-1, 1, n)
grid_y = np.linspace(-1, 1, n)[::-1]

for i, yi in enumerate(grid_y):
    for j, xi in enumerate(grid_x):
        z_sample = np.array([[xi, yi]])
        x_decoded = vae.decoder.predict(z_sample)
        digit = x_decoded[0].reshape(digit_size, digit_size)
        figure[
            i * digit_size : (i + 1) * digit_size,
            j * digit_size : (j + 1) * digit_size,
        ] = digit

start_range = digit_size // 2
end_range = n * digit_size + start_range
pixel_range = np.arange(start_range, end_range, digit_size)
sample_range_x = np.round(grid_x, 1)
sample_range_y = np.round(grid_y, 1)
RESULTS["figure"] = figure
RESULTS["figure_mean"] = figure.mean()
RESULTS["pixel_range"] = pixel_range
RESULTS["sample_range_x"] = sample_range_x
