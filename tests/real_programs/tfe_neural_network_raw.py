"""Title: Neural network, raw TensorFlow ops (TensorFlow-Examples, TF2)
Source: https://github.com/aymericdamien/TensorFlow-Examples/blob/6dcbe14649163814e72a22a999f20c5e247ce988/tensorflow_v2/notebooks/3_NeuralNetworks/neural_network_raw.ipynb
Licence: MIT (aymericdamien/TensorFlow-Examples)
Changed: MNIST -> 512 synthetic images; shuffle buffer 5000 -> 1; 3000 steps -> 10; the unseeded
RandomNormal weights fixed (fix_weights); results recorded in RESULTS.
"""
import tensorflow as tf
import numpy as np
from _corpus import images, labels, fix_weights
RESULTS = {}

num_classes = 10
num_features = 784
learning_rate = 0.1
training_steps = 10
batch_size = 256
display_step = 5
n_hidden_1 = 128
n_hidden_2 = 256

x_train = (images(512, 28, 28)[..., 0] * 255).astype(np.uint8); y_train = labels(512, 10).astype(np.uint8)
x_test = (images(64, 28, 28, seed=5)[..., 0] * 255).astype(np.uint8); y_test = labels(64, 10, seed=6).astype(np.uint8)
x_train, x_test = np.array(x_train, np.float32), np.array(x_test, np.float32)
x_train, x_test = x_train.reshape([-1, num_features]), x_test.reshape([-1, num_features])
x_train, x_test = x_train / 255., x_test / 255.

train_data = tf.data.Dataset.from_tensor_slices((x_train, y_train))
train_data = train_data.repeat().shuffle(1).batch(batch_size).prefetch(1)

random_normal = tf.initializers.RandomNormal()

weights = {
    'h1': tf.Variable(random_normal([num_features, n_hidden_1])),
    'h2': tf.Variable(random_normal([n_hidden_1, n_hidden_2])),
    'out': tf.Variable(random_normal([n_hidden_2, num_classes]))
}
biases = {
    'b1': tf.Variable(tf.zeros([n_hidden_1])),
    'b2': tf.Variable(tf.zeros([n_hidden_2])),
    'out': tf.Variable(tf.zeros([num_classes]))
}
fix_weights(list(weights.values()))

def neural_net(x):
    layer_1 = tf.add(tf.matmul(x, weights['h1']), biases['b1'])
    layer_1 = tf.nn.sigmoid(layer_1)
    layer_2 = tf.add(tf.matmul(layer_1, weights['h2']), biases['b2'])
    layer_2 = tf.nn.sigmoid(layer_2)
    out_layer = tf.matmul(layer_2, weights['out']) + biases['out']
    return tf.nn.softmax(out_layer)

def cross_entropy(y_pred, y_true):
    y_true = tf.one_hot(y_true, depth=num_classes)
    y_pred = tf.clip_by_value(y_pred, 1e-9, 1.)
    return tf.reduce_mean(-tf.reduce_sum(y_true * tf.math.log(y_pred)))

def accuracy(y_pred, y_true):
    correct_prediction = tf.equal(tf.argmax(y_pred, 1), tf.cast(y_true, tf.int64))
    return tf.reduce_mean(tf.cast(correct_prediction, tf.float32), axis=-1)

optimizer = tf.optimizers.SGD(learning_rate)

def run_optimization(x, y):
    with tf.GradientTape() as g:
        pred = neural_net(x)
        loss = cross_entropy(pred, y)
    trainable_variables = list(weights.values()) + list(biases.values())
    gradients = g.gradient(loss, trainable_variables)
    optimizer.apply_gradients(zip(gradients, trainable_variables))

losses = []
for step, (batch_x, batch_y) in enumerate(train_data.take(training_steps), 1):
    run_optimization(batch_x, batch_y)
    if step % display_step == 0:
        pred = neural_net(batch_x)
        loss = cross_entropy(pred, batch_y)
        acc = accuracy(pred, batch_y)
        print("step: %i, loss: %f, accuracy: %f" % (step, loss, acc))
        losses.append(loss)

pred = neural_net(x_test)
RESULTS["losses"] = losses
RESULTS["test_pred"] = pred
RESULTS["b1"] = biases['b1']
