"""Title: Logistic regression (TensorFlow-Examples, TF2)
Source: https://github.com/aymericdamien/TensorFlow-Examples/blob/6dcbe14649163814e72a22a999f20c5e247ce988/tensorflow_v2/notebooks/2_BasicModels/logistic_regression.ipynb
Licence: MIT (aymericdamien/TensorFlow-Examples)
Changed: MNIST -> 512 synthetic 28x28 images of the same dtype; shuffle buffer 5000 -> 1 (the call
stays, the order becomes deterministic); 1000 steps -> 20; results recorded in RESULTS; plotting removed.
"""
import tensorflow as tf
import numpy as np
from _corpus import images, labels
RESULTS = {}

num_classes = 10
num_features = 784
learning_rate = 0.01
training_steps = 20
batch_size = 256
display_step = 5

x_train = (images(512, 28, 28)[..., 0] * 255).astype(np.uint8); y_train = labels(512, 10).astype(np.uint8)
x_test = (images(64, 28, 28, seed=5)[..., 0] * 255).astype(np.uint8); y_test = labels(64, 10, seed=6).astype(np.uint8)
x_train, x_test = np.array(x_train, np.float32), np.array(x_test, np.float32)
x_train, x_test = x_train.reshape([-1, num_features]), x_test.reshape([-1, num_features])
x_train, x_test = x_train / 255., x_test / 255.

train_data = tf.data.Dataset.from_tensor_slices((x_train, y_train))
train_data = train_data.repeat().shuffle(1).batch(batch_size).prefetch(1)

W = tf.Variable(tf.ones([num_features, num_classes]), name="weight")
b = tf.Variable(tf.zeros([num_classes]), name="bias")

def logistic_regression(x):
    return tf.nn.softmax(tf.matmul(x, W) + b)

def cross_entropy(y_pred, y_true):
    y_true = tf.one_hot(y_true, depth=num_classes)
    y_pred = tf.clip_by_value(y_pred, 1e-9, 1.)
    return tf.reduce_mean(-tf.reduce_sum(y_true * tf.math.log(y_pred),1))

def accuracy(y_pred, y_true):
    correct_prediction = tf.equal(tf.argmax(y_pred, 1), tf.cast(y_true, tf.int64))
    return tf.reduce_mean(tf.cast(correct_prediction, tf.float32))

optimizer = tf.optimizers.SGD(learning_rate)

def run_optimization(x, y):
    with tf.GradientTape() as g:
        pred = logistic_regression(x)
        loss = cross_entropy(pred, y)
    gradients = g.gradient(loss, [W, b])
    optimizer.apply_gradients(zip(gradients, [W, b]))

losses = []
for step, (batch_x, batch_y) in enumerate(train_data.take(training_steps), 1):
    run_optimization(batch_x, batch_y)
    if step % display_step == 0:
        pred = logistic_regression(batch_x)
        loss = cross_entropy(pred, batch_y)
        acc = accuracy(pred, batch_y)
        print("step: %i, loss: %f, accuracy: %f" % (step, loss, acc))
        losses.append(loss)

pred = logistic_regression(x_test)
print("Test Accuracy: %f" % accuracy(pred, y_test))
RESULTS["losses"] = losses
RESULTS["test_accuracy"] = accuracy(pred, y_test)
RESULTS["test_pred"] = pred
RESULTS["W"] = W
