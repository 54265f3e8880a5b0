"""Title: Autoencoders: an undercomplete linear autoencoder (PCA), stacked, tied-weights (custom DenseTranspose layer), convolutional, denoising (dropout) and sparse (L1 activity regularization and a custom KL-divergence Regularizer) autoencoders (Hands-On ML 3rd ed., chapter 17)
Source: https://github.com/ageron/handson-ml3/blob/e3f3f9e66d58cfa1d068a498433063a1d3fba9ef/17_autoencoders_gans_and_diffusion_models.ipynb
Licence: Apache-2.0 (ageron/handson-ml3)
Changed: the notebook's code cells from "Performing PCA with an Undercomplete Linear Autoencoder"
through "Sparse Autoencoder" (cells 20-78) in order, after the setup cells (5, 11); the cell that
switches to the legacy tf_keras package (cell 9) removed, so the program runs on Keras 3, with
one change that Keras 3 needs: DenseTranspose.build's `shape=self.dense.input_shape[-1]` ->
`shape=(self.dense.kernel.shape[0],)` (a Keras 3 layer has no input_shape attribute, the
kernel's first dimension is that input size, and Keras 3's add_weight wants a shape tuple, not
an int: "Cannot convert '100' to a shape"); tf.keras.utils.set_random_seed(42) at the top; the sklearn
version check (cell 7), the matplotlib setup and figure-only cells (13, 24, 39, 74), the
plotting inside plot_reconstructions (33) and the t-SNE cells (36-37, sklearn) removed; the two "Extra
Material" sections in this range (training one autoencoder at a time, cells 48-54, and recurrent
autoencoders, cells 61-63) left out to keep the run short; plot_reconstructions'
reconstructions (its model.predict of the first 5 validation images, every 4th pixel) are
returned and put in RESULTS where cells 33, 45, 58, 67, 72 and 79 plot them; Fashion MNIST (60000 + 10000 images, downloaded) -> 160 + 32 synthetic 28x28 uint8
images from a seeded NumPy generator (the last 32 training images as the validation set instead
of 5000); epochs cut: 500 -> 50 (linear autoencoder), 20 and 10 -> 1 everywhere else; the
histories, codings, reconstructions and weights -> RESULTS.
"""
RESULTS = {}

import numpy as np
# [cell 5]
import sys

assert sys.version_info >= (3, 7)
# [cell 11]
from packaging import version
import tensorflow as tf

assert version.parse(tf.__version__) >= version.parse("2.8.0")
tf.keras.utils.set_random_seed(42)
_rng = np.random.default_rng(42)
# [cell 20]
import tensorflow as tf

tf.random.set_seed(42)  # extra code – ensures reproducibility on CPU

encoder = tf.keras.Sequential([tf.keras.layers.Dense(2)])
decoder = tf.keras.Sequential([tf.keras.layers.Dense(3)])
autoencoder = tf.keras.Sequential([encoder, decoder])

optimizer = tf.keras.optimizers.SGD(learning_rate=0.5)
autoencoder.compile(loss="mse", optimizer=optimizer)
# [cell 22]
# extra code – builds the same 3D dataset as in Chapter 8

import numpy as np
from scipy.spatial.transform import Rotation

m = 60
X = np.zeros((m, 3))  # initialize 3D dataset
np.random.seed(42)
angles = (np.random.rand(m) ** 3 + 0.5) * 2 * np.pi  # uneven distribution
X[:, 0], X[:, 1] = np.cos(angles), np.sin(angles) * 0.5  # oval
X += 0.28 * np.random.randn(m, 3)  # add more noise
X = Rotation.from_rotvec([np.pi / 29, -np.pi / 20, np.pi / 4]).apply(X)
X_train = X + [0.2, 0, 0.2]  # shift a bit
# [cell 23]
history = autoencoder.fit(X_train, X_train, epochs=50, verbose=False)
codings = encoder.predict(X_train)
RESULTS["pca_history_loss"] = history.history["loss"]
RESULTS["pca_codings"] = codings
# [cell 28]
# extra code – loads, scales, and splits the fashion MNIST dataset
fashion_mnist = ((_rng.integers(0, 256, (160, 28, 28)).astype(np.uint8),
                  _rng.integers(0, 10, (160,)).astype(np.uint8)),
                 (_rng.integers(0, 256, (32, 28, 28)).astype(np.uint8),
                  _rng.integers(0, 10, (32,)).astype(np.uint8)))
(X_train_full, y_train_full), (X_test, y_test) = fashion_mnist
X_train_full = X_train_full.astype(np.float32) / 255
X_test = X_test.astype(np.float32) / 255
X_train, X_valid = X_train_full[:-32], X_train_full[-32:]
y_train, y_valid = y_train_full[:-32], y_train_full[-32:]
# [cell 30]
tf.random.set_seed(42)  # extra code – ensures reproducibility on CPU

stacked_encoder = tf.keras.Sequential([
    tf.keras.layers.Flatten(),
    tf.keras.layers.Dense(100, activation="relu"),
    tf.keras.layers.Dense(30, activation="relu"),
])
stacked_decoder = tf.keras.Sequential([
    tf.keras.layers.Dense(100, activation="relu"),
    tf.keras.layers.Dense(28 * 28),
    tf.keras.layers.Reshape([28, 28])
])
stacked_ae = tf.keras.Sequential([stacked_encoder, stacked_decoder])

stacked_ae.compile(loss="mse", optimizer=tf.keras.optimizers.Nadam())                   
history = stacked_ae.fit(X_train, X_train, epochs=1,
                         validation_data=(X_valid, X_valid))
RESULTS["stacked_history_loss"] = history.history["loss"]
RESULTS["stacked_history_val_loss"] = history.history["val_loss"]
# [cell 33]
import numpy as np

def plot_reconstructions(model, images=X_valid, n_images=5):
    reconstructions = np.clip(model.predict(images[:n_images]), 0, 1)
    return reconstructions

RESULTS["stacked_reconstructions"] = plot_reconstructions(stacked_ae)[:, ::4, ::4]
# [cell 42]
class DenseTranspose(tf.keras.layers.Layer):
    def __init__(self, dense, activation=None, **kwargs):
        super().__init__(**kwargs)
        self.dense = dense
        self.activation = tf.keras.activations.get(activation)

    def build(self, batch_input_shape):
        self.biases = self.add_weight(name="bias",
                                      shape=(self.dense.kernel.shape[0],),
                                      initializer="zeros")
        super().build(batch_input_shape)

    def call(self, inputs):
        Z = tf.matmul(inputs, self.dense.weights[0], transpose_b=True)
        return self.activation(Z + self.biases)
# [cell 44]
tf.random.set_seed(42)  # extra code – ensures reproducibility on CPU

dense_1 = tf.keras.layers.Dense(100, activation="relu")
dense_2 = tf.keras.layers.Dense(30, activation="relu")

tied_encoder = tf.keras.Sequential([
    tf.keras.layers.Flatten(),
    dense_1,
    dense_2
])

tied_decoder = tf.keras.Sequential([
    DenseTranspose(dense_2, activation="relu"),
    DenseTranspose(dense_1),
    tf.keras.layers.Reshape([28, 28])
])

tied_ae = tf.keras.Sequential([tied_encoder, tied_decoder])

# extra code – compiles and fits the model
tied_ae.compile(loss="mse", optimizer=tf.keras.optimizers.Nadam())
history = tied_ae.fit(X_train, X_train, epochs=1,
                      validation_data=(X_valid, X_valid))
RESULTS["tied_history_loss"] = history.history["loss"]
RESULTS["tied_history_val_loss"] = history.history["val_loss"]
RESULTS["tied_n_trainable_weights"] = len(tied_ae.trainable_weights)
RESULTS["tied_count_params"] = tied_ae.count_params()
# [cell 45]
# extra code – plots reconstructions
RESULTS["tied_reconstructions"] = plot_reconstructions(tied_ae)[:, ::4, ::4]
# [cell 57]
tf.random.set_seed(42)  # extra code – ensures reproducibility on CPU

conv_encoder = tf.keras.Sequential([
    tf.keras.layers.Reshape([28, 28, 1]),
    tf.keras.layers.Conv2D(16, 3, padding="same", activation="relu"),
    tf.keras.layers.MaxPool2D(pool_size=2),  # output: 14 × 14 x 16
    tf.keras.layers.Conv2D(32, 3, padding="same", activation="relu"),
    tf.keras.layers.MaxPool2D(pool_size=2),  # output: 7 × 7 x 32
    tf.keras.layers.Conv2D(64, 3, padding="same", activation="relu"),
    tf.keras.layers.MaxPool2D(pool_size=2),  # output: 3 × 3 x 64
    tf.keras.layers.Conv2D(30, 3, padding="same", activation="relu"),
    tf.keras.layers.GlobalAvgPool2D()  # output: 30
])
conv_decoder = tf.keras.Sequential([
    tf.keras.layers.Dense(3 * 3 * 16),
    tf.keras.layers.Reshape((3, 3, 16)),
    tf.keras.layers.Conv2DTranspose(32, 3, strides=2, activation="relu"),
    tf.keras.layers.Conv2DTranspose(16, 3, strides=2, padding="same",
                                    activation="relu"),
    tf.keras.layers.Conv2DTranspose(1, 3, strides=2, padding="same"),
    tf.keras.layers.Reshape([28, 28])
])
conv_ae = tf.keras.Sequential([conv_encoder, conv_decoder])

# extra code – compiles and fits the model
conv_ae.compile(loss="mse", optimizer=tf.keras.optimizers.Nadam())
history = conv_ae.fit(X_train, X_train, epochs=1,
                      validation_data=(X_valid, X_valid))
RESULTS["conv_history_loss"] = history.history["loss"]
RESULTS["conv_history_val_loss"] = history.history["val_loss"]
# [cell 58]
# extra code – shows the reconstructions
RESULTS["conv_reconstructions"] = plot_reconstructions(conv_ae)[:, ::4, ::4]
# [cell 66]
tf.random.set_seed(42)  # extra code – ensures reproducibility on CPU

dropout_encoder = tf.keras.Sequential([
    tf.keras.layers.Flatten(),
    tf.keras.layers.Dropout(0.5),
    tf.keras.layers.Dense(100, activation="relu"),
    tf.keras.layers.Dense(30, activation="relu")
])
dropout_decoder = tf.keras.Sequential([
    tf.keras.layers.Dense(100, activation="relu"),
    tf.keras.layers.Dense(28 * 28),
    tf.keras.layers.Reshape([28, 28])
])
dropout_ae = tf.keras.Sequential([dropout_encoder, dropout_decoder])

# extra code – compiles and fits the model
dropout_ae.compile(loss="mse", optimizer=tf.keras.optimizers.Nadam())
history = dropout_ae.fit(X_train, X_train, epochs=1,
                         validation_data=(X_valid, X_valid))
RESULTS["dropout_history_loss"] = history.history["loss"]
RESULTS["dropout_history_val_loss"] = history.history["val_loss"]
# [cell 67]
# extra code – this cell generates and saves Figure 17–9
tf.random.set_seed(42)
dropout = tf.keras.layers.Dropout(0.5)
RESULTS["dropout_reconstructions"] = plot_reconstructions(dropout_ae, dropout(X_valid, training=True))[:, ::4, ::4]
# [cell 71]
tf.random.set_seed(42)  # extra code – ensures reproducibility on CPU

sparse_l1_encoder = tf.keras.Sequential([
    tf.keras.layers.Flatten(),
    tf.keras.layers.Dense(100, activation="relu"),
    tf.keras.layers.Dense(300, activation="sigmoid"),
    tf.keras.layers.ActivityRegularization(l1=1e-4)
])
sparse_l1_decoder = tf.keras.Sequential([
    tf.keras.layers.Dense(100, activation="relu"),
    tf.keras.layers.Dense(28 * 28),
    tf.keras.layers.Reshape([28, 28])
])
sparse_l1_ae = tf.keras.Sequential([sparse_l1_encoder, sparse_l1_decoder])

# extra code – compiles and fits the model
sparse_l1_ae.compile(loss="mse", optimizer=tf.keras.optimizers.Nadam())
history = sparse_l1_ae.fit(X_train, X_train, epochs=1,
                           validation_data=(X_valid, X_valid))
RESULTS["sparse_l1_history_loss"] = history.history["loss"]
RESULTS["sparse_l1_history_val_loss"] = history.history["val_loss"]
# [cell 72]
# extra code – shows the reconstructions
RESULTS["sparse_l1_reconstructions"] = plot_reconstructions(sparse_l1_ae)[:, ::4, ::4]
# [cell 76]
kl_divergence = tf.keras.losses.kullback_leibler_divergence

class KLDivergenceRegularizer(tf.keras.regularizers.Regularizer):
    def __init__(self, weight, target):
        self.weight = weight
        self.target = target

    def __call__(self, inputs):
        mean_activities = tf.reduce_mean(inputs, axis=0)
        return self.weight * (
            kl_divergence(self.target, mean_activities) +
            kl_divergence(1. - self.target, 1. - mean_activities))
# [cell 78]
tf.random.set_seed(42)  # extra code – ensures reproducibility on CPU

kld_reg = KLDivergenceRegularizer(weight=5e-3, target=0.1)
sparse_kl_encoder = tf.keras.Sequential([
    tf.keras.layers.Flatten(),
    tf.keras.layers.Dense(100, activation="relu"),
    tf.keras.layers.Dense(300, activation="sigmoid",
                          activity_regularizer=kld_reg)
])
sparse_kl_decoder = tf.keras.Sequential([
    tf.keras.layers.Dense(100, activation="relu"),
    tf.keras.layers.Dense(28 * 28),
    tf.keras.layers.Reshape([28, 28])
])
sparse_kl_ae = tf.keras.Sequential([sparse_kl_encoder, sparse_kl_decoder])

# extra code – compiles and fits the model
sparse_kl_ae.compile(loss="mse", optimizer=tf.keras.optimizers.Nadam())
history = sparse_kl_ae.fit(X_train, X_train, epochs=1,
                           validation_data=(X_valid, X_valid))
RESULTS["sparse_kl_history_loss"] = history.history["loss"]
RESULTS["sparse_kl_history_val_loss"] = history.history["val_loss"]
RESULTS["sparse_kl_regularizer_value"] = kld_reg(sparse_kl_encoder(X_valid))
RESULTS["sparse_kl_reconstructions"] = plot_reconstructions(sparse_kl_ae)[:, ::4, ::4]
