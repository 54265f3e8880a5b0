"""Title: Recurrent network (LSTM) on MNIST rows (TensorFlow-Examples, TF2)
Source: https://github.com/aymericdamien/TensorFlow-Examples/blob/6dcbe14649163814e72a22a999f20c5e247ce988/tensorflow_v2/notebooks/3_NeuralNetworks/recurrent_network.ipynb
Licence: MIT (aymericdamien/TensorFlow-Examples)
Changed: MNIST -> 96 synthetic images; shuffle buffer 5000 -> 1; 1000 steps -> 3; the model is
built on one batch and its kernels fixed (fix_weights); results recorded in RESULTS.
"""
import tensorflow as tf
from tensorflow.keras import Model, layers
import numpy as np
from _corpus import images, labels, fix_weights
RESULTS = {}

num_classes = 10
num_features = 784
learning_rate = 0.001
training_steps = 3
batch_size = 32
display_step = 1
num_input = 28
timesteps = 28
num_units = 32

x_train = (images(96, 28, 28)[..., 0] * 255).astype(np.uint8); y_train = labels(96, 10).astype(np.uint8)
x_test = (images(8, 28, 28, seed=5)[..., 0] * 255).astype(np.uint8); y_test = labels(8, 10, seed=6).astype(np.uint8)
x_train, x_test = np.array(x_train, np.float32), np.array(x_test, np.float32)
x_train, x_test = x_train.reshape([-1, 28, 28]), x_test.reshape([-1, num_features])
x_train, x_test = x_train / 255., x_test / 255.

train_data = tf.data.Dataset.from_tensor_slices((x_train, y_train))
train_data = train_data.repeat().shuffle(1).batch(batch_size).prefetch(1)

class LSTM(Model):
    def __init__(self):
        super(LSTM, self).__init__()
        self.lstm_layer = layers.LSTM(units=num_units)
        self.out = layers.Dense(num_classes)

    def call(self, x, is_training=False):
        x = self.lstm_layer(x)
        x = self.out(x)
        if not is_training:
            x = tf.nn.softmax(x)
        return x

lstm_net = LSTM()
lstm_net(x_train[:1])
fix_weights(lstm_net)

def cross_entropy_loss(x, y):
    y = tf.cast(y, tf.int64)
    loss = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=x)
    return tf.reduce_mean(loss)

def accuracy(y_pred, y_true):
    correct_prediction = tf.equal(tf.argmax(y_pred, 1), tf.cast(y_true, tf.int64))
    return tf.reduce_mean(tf.cast(correct_prediction, tf.float32), axis=-1)

optimizer = tf.optimizers.Adam(learning_rate)

def run_optimization(x, y):
    with tf.GradientTape() as g:
        pred = lstm_net(x, is_training=True)
        loss = cross_entropy_loss(pred, y)
    trainable_variables = lstm_net.trainable_variables
    gradients = g.gradient(loss, trainable_variables)
    optimizer.apply_gradients(zip(gradients, trainable_variables))

losses = []
for step, (batch_x, batch_y) in enumerate(train_data.take(training_steps), 1):
    run_optimization(batch_x, batch_y)
    if step % display_step == 0:
        pred = lstm_net(batch_x, is_training=True)
        loss = cross_entropy_loss(pred, batch_y)
        acc = accuracy(pred, batch_y)
        print("step: %i, loss: %f, accuracy: %f" % (step, loss, acc))
        losses.append(loss)

RESULTS["losses"] = losses
RESULTS["pred"] = lstm_net(x_train[:4])
