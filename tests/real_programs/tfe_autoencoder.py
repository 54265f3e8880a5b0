"""Title: Autoencoder, raw TensorFlow ops (TensorFlow-Examples, TF2)
Source: https://github.com/aymericdamien/TensorFlow-Examples/blob/6dcbe14649163814e72a22a999f20c5e247ce988/tensorflow_v2/notebooks/3_NeuralNetworks/autoencoder.ipynb
Licence: MIT (aymericdamien/TensorFlow-Examples)
Changed: MNIST -> 512 synthetic images; shuffle buffer 10000 -> 1; 20000 steps -> 10; the unseeded
RandomNormal weights and biases fixed (fix_weights); `weights.values() + biases.values()` (a
TypeError on Python 3, under TensorFlow too) -> list(...) + list(...); results in RESULTS.
"""
import tensorflow as tf
import numpy as np
from _corpus import images, labels, fix_weights
RESULTS = {}

num_features = 784
learning_rate = 0.01
training_steps = 10
batch_size = 256
display_step = 5
num_hidden_1 = 128
num_hidden_2 = 64

x_train = (images(512, 28, 28)[..., 0] * 255).astype(np.uint8); y_train = labels(512, 10).astype(np.uint8)
x_test = (images(64, 28, 28, seed=5)[..., 0] * 255).astype(np.uint8); y_test = labels(64, 10, seed=6).astype(np.uint8)
x_train, x_test = x_train.astype(np.float32), x_test.astype(np.float32)
x_train, x_test = x_train.reshape([-1, num_features]), x_test.reshape([-1, num_features])
x_train, x_test = x_train / 255., x_test / 255.

train_data = tf.data.Dataset.from_tensor_slices((x_train, y_train))
train_data = train_data.repeat().shuffle(1).batch(batch_size).prefetch(1)
test_data = tf.data.Dataset.from_tensor_slices((x_test, y_test))
test_data = test_data.repeat().batch(batch_size).prefetch(1)

random_normal = tf.initializers.RandomNormal()

weights = {
    'encoder_h1': tf.Variable(random_normal([num_features, num_hidden_1])),
    'encoder_h2': tf.Variable(random_normal([num_hidden_1, num_hidden_2])),
    'decoder_h1': tf.Variable(random_normal([num_hidden_2, num_hidden_1])),
    'decoder_h2': tf.Variable(random_normal([num_hidden_1, num_features])),
}
biases = {
    'encoder_b1': tf.Variable(random_normal([num_hidden_1])),
    'encoder_b2': tf.Variable(random_normal([num_hidden_2])),
    'decoder_b1': tf.Variable(random_normal([num_hidden_1])),
    'decoder_b2': tf.Variable(random_normal([num_features])),
}
fix_weights(list(weights.values()) + list(biases.values()), vectors=True)

def encoder(x):
    layer_1 = tf.nn.sigmoid(tf.add(tf.matmul(x, weights['encoder_h1']),
                                   biases['encoder_b1']))
    layer_2 = tf.nn.sigmoid(tf.add(tf.matmul(layer_1, weights['encoder_h2']),
                                   biases['encoder_b2']))
    return layer_2

def decoder(x):
    layer_1 = tf.nn.sigmoid(tf.add(tf.matmul(x, weights['decoder_h1']),
                                   biases['decoder_b1']))
    layer_2 = tf.nn.sigmoid(tf.add(tf.matmul(layer_1, weights['decoder_h2']),
                                   biases['decoder_b2']))
    return layer_2

def mean_square(reconstructed, original):
    return tf.reduce_mean(tf.pow(original - reconstructed, 2))

optimizer = tf.optimizers.Adam(learning_rate=learning_rate)

def run_optimization(x):
    with tf.GradientTape() as g:
        reconstructed_image = decoder(encoder(x))
        loss = mean_square(reconstructed_image, x)
    trainable_variables = list(weights.values()) + list(biases.values())
    gradients = g.gradient(loss, trainable_variables)
    optimizer.apply_gradients(zip(gradients, trainable_variables))
    return loss

losses = []
for step, (batch_x, _) in enumerate(train_data.take(training_steps + 1)):
    loss = run_optimization(batch_x)
    if step % display_step == 0:
        print("step: %i, loss: %f" % (step, loss))
        losses.append(loss)

n = 4
canvas_recon = np.empty((28 * n, 28 * n))
for i, (batch_x, _) in enumerate(test_data.take(n)):
    reconstructed_images = decoder(encoder(batch_x))
    for j in range(n):
        reconstr_img = reconstructed_images[j].numpy().reshape([28, 28])
        canvas_recon[i * 28:(i + 1) * 28, j * 28:(j + 1) * 28] = reconstr_img

RESULTS["losses"] = losses
RESULTS["canvas_recon"] = canvas_recon
