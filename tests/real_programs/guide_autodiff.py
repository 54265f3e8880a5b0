"""Title: Introduction to gradients and automatic differentiation (TF guide)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/guide/autodiff.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: the guide's cells in order as one script; the Dense layer's kernel fixed (fix_weights);
printed values recorded in RESULTS.
"""
import numpy as np
import tensorflow as tf
from _corpus import fix_weights
RESULTS = {}

x = tf.Variable(3.0)
with tf.GradientTape() as tape:
  y = x**2
dy_dx = tape.gradient(y, x)
RESULTS["dy_dx"] = dy_dx

w = tf.Variable(tf.random.normal((3, 2)), name='w')
b = tf.Variable(tf.zeros(2, dtype=tf.float32), name='b')
fix_weights([w])
x = [[1., 2., 3.]]
with tf.GradientTape(persistent=True) as tape:
  y = x @ w + b
  loss = tf.reduce_mean(y**2)
[dl_dw, dl_db] = tape.gradient(loss, [w, b])
my_vars = {'w': w, 'b': b}
grad = tape.gradient(loss, my_vars)
RESULTS["dl_dw"] = dl_dw
RESULTS["dl_db"] = grad['b']

layer = tf.keras.layers.Dense(2, activation='relu')
x = tf.constant([[1., 2., 3.]])
layer(x)
fix_weights(layer)
with tf.GradientTape() as tape:
  y = layer(x)
  loss = tf.reduce_mean(y**2)
grad = tape.gradient(loss, layer.trainable_variables)
RESULTS["layer_grads"] = [g for g in grad][0]

x0 = tf.Variable(3.0, name='x0')
x1 = tf.Variable(3.0, name='x1', trainable=False)
x2 = tf.Variable(2.0, name='x2') + 1.0
x3 = tf.constant(3.0, name='x3')
with tf.GradientTape() as tape:
  y = (x0**2) + (x1**2) + (x2**2)
grad = tape.gradient(y, [x0, x1, x2, x3])
RESULTS["grad_none"] = [g is None for g in grad]
RESULTS["watched"] = [var.name for var in tape.watched_variables()]

x = tf.constant(3.0)
with tf.GradientTape() as tape:
  tape.watch(x)
  y = x**2
RESULTS["watch_const"] = tape.gradient(y, x)

x0 = tf.Variable(0.0)
x1 = tf.Variable(10.0)
with tf.GradientTape(watch_accessed_variables=False) as tape:
  tape.watch(x1)
  y0 = tf.math.sin(x0)
  y1 = tf.nn.softplus(x1)
  y = y0 + y1
  ys = tf.reduce_sum(y)
grad = tape.gradient(ys, {'x0': x0, 'x1': x1})
RESULTS["dy_dx1"] = grad['x1']

x = tf.constant(3.0)
with tf.GradientTape() as tape:
  tape.watch(x)
  y = x * x
  z = y * y
RESULTS["dz_dy"] = tape.gradient(z, y)

x = tf.constant([1, 3.0])
with tf.GradientTape(persistent=True) as tape:
  tape.watch(x)
  y = x * x
  z = y * y
RESULTS["persistent"] = [tape.gradient(z, x), tape.gradient(y, x)]
del tape

x = tf.Variable(2.0)
with tf.GradientTape(persistent=True) as tape:
  y0 = x**2
  y1 = 1 / x
RESULTS["two_targets"] = tape.gradient({'y0': y0, 'y1': y1}, x)

x = tf.Variable(2.)
with tf.GradientTape() as tape:
  y = x * [3., 4.]
RESULTS["vector_target"] = tape.gradient(y, x)

x = tf.linspace(-10.0, 10.0, 200+1)
with tf.GradientTape() as tape:
  tape.watch(x)
  y = tf.nn.sigmoid(x)
dy_dx = tape.gradient(y, x)
RESULTS["sigmoid_grad"] = dy_dx

x = tf.constant(1.0)
v0 = tf.Variable(2.0)
v1 = tf.Variable(2.0)
with tf.GradientTape(persistent=True) as tape:
  tape.watch(x)
  if x > 0.0:
    result = v0
  else:
    result = v1**2
dv0, dv1 = tape.gradient(result, [v0, v1])
RESULTS["control_flow"] = [dv0, dv1 is None]

x = tf.Variable(2.)
y = tf.Variable(3.)
with tf.GradientTape() as tape:
  z = y * y
RESULTS["unconnected_none"] = tape.gradient(z, x) is None

x = tf.Variable(2.0)
for epoch in range(2):
  with tf.GradientTape() as tape:
    y = x+1
  RESULTS["assign_add_%d" % epoch] = tape.gradient(y, x) is None
  x = x + 1

x = tf.Variable([[1.0, 2.0],
                 [3.0, 4.0]], dtype=tf.float32)
with tf.GradientTape() as tape:
  x2 = x**2
  y = np.mean(x2, axis=0)
  y = tf.reduce_mean(y, axis=0)
RESULTS["numpy_breaks"] = tape.gradient(y, x) is None

x = tf.constant(10)
with tf.GradientTape() as g:
  g.watch(x)
  y = x * x
RESULTS["int_none"] = g.gradient(y, x) is None

x0 = tf.Variable(3.0)
x1 = tf.Variable(0.0)
with tf.GradientTape() as tape:
  x1.assign_add(x0)
  y = x1**2
RESULTS["stateful_none"] = tape.gradient(y, x0) is None

x = tf.Variable([2., 2.])
y = tf.Variable(3.)
with tf.GradientTape() as tape:
  z = y**2
RESULTS["zero_grad"] = tape.gradient(z, x, unconnected_gradients=tf.UnconnectedGradients.ZERO)
