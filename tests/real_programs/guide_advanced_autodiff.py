"""Title: Advanced automatic differentiation (TF guide)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/guide/advanced_autodiff.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: the guide's cells in order as one script (ragged/plotting cells left out); the Dense
layers' kernels fixed (fix_weights); printed values recorded in RESULTS.
"""
import tensorflow as tf
from _corpus import fix_weights
RESULTS = {}

x = tf.Variable(2.0)
y = tf.Variable(3.0)
with tf.GradientTape() as t:
  x_sq = x * x
  with t.stop_recording():
    y_sq = y * y
  z = x_sq + y_sq
grad = t.gradient(z, {'x': x, 'y': y})
RESULTS["stop_recording"] = [grad['x'], grad['y'] is None]

x = tf.Variable(2.0)
y = tf.Variable(3.0)
reset = True
with tf.GradientTape() as t:
  y_sq = y * y
  if reset:
    t.reset()
  z = x * x + y_sq
grad = t.gradient(z, {'x': x, 'y': y})
RESULTS["reset"] = [grad['x'], grad['y'] is None]

with tf.GradientTape() as t:
  y_sq = y**2
  z = x**2 + tf.stop_gradient(y_sq)
grad = t.gradient(z, {'x': x, 'y': y})
RESULTS["stop_gradient"] = [grad['x'], grad['y'] is None]

@tf.custom_gradient
def clip_gradients(y):
  def backward(dy):
    return tf.clip_by_norm(dy, 0.5)
  return y, backward

v = tf.Variable(2.0)
with tf.GradientTape() as t:
  output = clip_gradients(v)
RESULTS["custom_gradient"] = t.gradient(output, v)

x = tf.constant(2.0)
with tf.GradientTape(persistent=True) as tape:
  tape.watch(x)
  y = x * x
  z = y * y
RESULTS["multiple"] = [tape.gradient(z, x), tape.gradient(y, x)]

x = tf.Variable(2.0)
with tf.GradientTape() as tape:
  y0 = x**2
  y1 = 1 / x
RESULTS["sum_of_targets"] = tape.gradient([y0, y1], x)

x = tf.linspace(-10.0, 10.0, 200+1)
with tf.GradientTape() as tape:
  tape.watch(x)
  y = tf.nn.sigmoid(x)
RESULTS["elementwise"] = tape.gradient(y, x)

x = tf.Variable(1.0)
with tf.GradientTape() as t2:
  with tf.GradientTape() as t1:
    y = x * x * x
  dy_dx = t1.gradient(y, x)
d2y_dx2 = t2.gradient(dy_dx, x)
RESULTS["second_order"] = [dy_dx, d2y_dx2]

x = tf.random.normal([7, 5])
layer = tf.keras.layers.Dense(10, activation=tf.nn.relu)
layer(x)
fix_weights(layer)
x = tf.constant(__import__("numpy").random.default_rng(0).normal(size=(7, 5)).astype("float32"))
with tf.GradientTape() as t2:
  with tf.GradientTape() as t1:
    t1.watch(x)
    y = layer(x)
    out = tf.reduce_sum(layer(x)**2)
  g1 = t1.gradient(out, x)
  g1_mag = tf.norm(g1)
dg1_mag = t2.gradient(g1_mag, layer.trainable_variables)
RESULTS["input_gradient_regularization"] = dg1_mag[0]

x = tf.linspace(-10.0, 10.0, 200+1)
delta = tf.linspace(-3.0, 3.0, 7)
with tf.GradientTape() as tape:
  tape.watch(delta)
  y = tf.nn.sigmoid(x+delta[:, tf.newaxis])
dy_dx = tape.jacobian(y, delta)
RESULTS["jacobian_scalar_source"] = dy_dx

x = tf.constant(__import__("numpy").random.default_rng(1).normal(size=(7, 5)).astype("float32"))
layer = tf.keras.layers.Dense(10, activation=tf.nn.relu)
with tf.GradientTape(persistent=True) as tape:
  y = layer(x)
fix_weights(layer)
with tf.GradientTape(persistent=True) as tape:
  y = layer(x)
j = tape.jacobian(y, layer.kernel)
RESULTS["jacobian_shape"] = j.shape.as_list()
RESULTS["jacobian_sum"] = tf.reduce_sum(j, axis=[2, 3])
g = tape.gradient(y, layer.kernel)
delta = tf.reduce_max(abs(g - tf.reduce_sum(j, axis=[0, 1])))
RESULTS["jacobian_vs_gradient"] = float(delta) < 1e-5

x = tf.constant(__import__("numpy").random.default_rng(2).normal(size=(7, 5)).astype("float32"))
layer1 = tf.keras.layers.Dense(8, activation=tf.nn.relu)
layer2 = tf.keras.layers.Dense(6, activation=tf.nn.relu)
layer2(layer1(x))
fix_weights(layer1, seed=1)
fix_weights(layer2, seed=2)
with tf.GradientTape() as t2:
  with tf.GradientTape() as t1:
    x = layer1(x)
    x = layer2(x)
    loss = tf.reduce_mean(x**2)
  g = t1.gradient(loss, layer1.kernel)
h = t2.jacobian(g, layer1.kernel)
n_params = tf.reduce_prod(layer1.kernel.shape)
g_vec = tf.reshape(g, [n_params, 1])
h_mat = tf.reshape(h, [n_params, n_params])
RESULTS["hessian"] = h_mat
def imshow_zero_center(image, **kwargs):
  lim = tf.reduce_max(abs(image))
  return lim
RESULTS["hessian_lim"] = imshow_zero_center(h_mat)
eps = 1e-3
eye_eps = tf.eye(h_mat.shape[0])*eps
update = tf.linalg.solve(h_mat + eye_eps, g_vec)
RESULTS["newton_update"] = update

x = tf.constant(__import__("numpy").random.default_rng(3).normal(size=(7, 5)).astype("float32"))
layer1 = tf.keras.layers.Dense(8, activation=tf.nn.elu)
layer2 = tf.keras.layers.Dense(6, activation=tf.nn.elu)
layer2(layer1(x))
fix_weights(layer1, seed=3)
fix_weights(layer2, seed=4)
with tf.GradientTape(persistent=True, watch_accessed_variables=False) as tape:
  tape.watch(x)
  y = layer1(x)
  y = layer2(y)
j = tape.jacobian(y, x)
j_sum = tf.reduce_sum(j, axis=2)
j_select = tf.einsum('bxby->bxy', j)
jb = tape.batch_jacobian(y, x)
RESULTS["batch_jacobian"] = jb
RESULTS["batch_jacobian_matches"] = float(tf.reduce_max(abs(j_select - jb))) < 1e-6
