"""Title: Bi-directional recurrent network (LSTM) on MNIST rows (TensorFlow-Examples, TF2)
Source: https://github.com/aymericdamien/TensorFlow-Examples/blob/6dcbe14649163814e72a22a999f20c5e247ce988/tensorflow_v2/notebooks/3_NeuralNetworks/bidirectional_rnn.ipynb
Licence: MIT (aymericdamien/TensorFlow-Examples)
Changed: MNIST -> 64 synthetic images; shuffle buffer 5000 -> 1; 1000 steps -> 2; the model is
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
training_steps = 2
batch_size = 32
display_step = 1
num_input = 28
timesteps = 28
num_units = 32

x_train = (images(64, 28, 28)[..., 0] * 255).astype(np.uint8); y_train = labels(64, 10).astype(np.uint8)
x_train = np.array(x_train, np.float32)
x_train = x_train.reshape([-1, 28, 28])
x_train = x_train / 255.

train_data = tf.data.Dataset.from_tensor_slices((x_train, y_train))
train_data = train_data.repeat().shuffle(1).batch(batch_size).prefetch(1)

class BiRNN(Model):
    def __init__(self):
        super(BiRNN, self).__init__()
        lstm_fw = layers.LSTM(units=num_units)
        lstm_bw = layers.LSTM(units=num_units, go_backwards=True)
        self.bi_lstm = layers.Bidirectional(lstm_fw, backward_layer=lstm_bw)
        self.out = layers.Dense(num_classes)

    def call(self, x, is_training=False):
        x = self.bi_lstm(x)
        x = self.out(x)
        if not is_training:
            x = tf.nn.softmax(x)
        return x

birnn_net = BiRNN()
birnn_net(x_train[:1])
fix_weights(birnn_net)

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
        pred = birnn_net(x, is_training=True)
        loss = cross_entropy_loss(pred, y)
    trainable_variables = birnn_net.trainable_variables
    gradients = g.gradient(loss, trainable_variables)
    optimizer.apply_gradients(zip(gradients, trainable_variables))

losses = []
for step, (batch_x, batch_y) in enumerate(train_data.take(training_steps), 1):
    run_optimization(batch_x, batch_y)
    if step % display_step == 0:
        pred = birnn_net(batch_x, is_training=True)
        loss = cross_entropy_loss(pred, batch_y)
        losses.append(loss)

RESULTS["losses"] = losses
RESULTS["pred"] = birnn_net(x_train[:4])
