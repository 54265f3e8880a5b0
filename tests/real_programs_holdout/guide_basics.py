"""Title: TensorFlow basics (TF guide)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/guide/basics.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: tf.random.set_seed(0) added (tf.random.normal, the op-seeded uniform and Dataset.shuffle
are otherwise unseeded); epochs 100 -> 5 (both loops); the Keras model's kernel fixed
(fix_weights) once built; files saved in a temporary directory; matplotlib plots removed;
displayed and printed values recorded in RESULTS.
"""
import os
import tempfile

import tensorflow as tf
from _corpus import fix_weights

tf.random.set_seed(0)
RESULTS = {}
_tmp = tempfile.mkdtemp()

x = tf.constant([[1., 2., 3.],
                 [4., 5., 6.]])

RESULTS["x_shape"] = list(x.shape)
RESULTS["x_dtype"] = x.dtype.name
RESULTS["x_plus_x"] = x + x
RESULTS["five_x"] = 5 * x
RESULTS["x_xt"] = x @ tf.transpose(x)
RESULTS["concat"] = tf.concat([x, x, x], axis=0)
RESULTS["softmax"] = tf.nn.softmax(x, axis=-1)
RESULTS["reduce_sum"] = tf.reduce_sum(x)
RESULTS["convert"] = tf.convert_to_tensor([1, 2, 3])
RESULTS["reduce_sum_list"] = tf.reduce_sum([1, 2, 3])

if tf.config.list_physical_devices('GPU'):
    print("TensorFlow **IS** using the GPU")
else:
    print("TensorFlow **IS NOT** using the GPU")

var = tf.Variable([0.0, 0.0, 0.0])
RESULTS["assign"] = var.assign([1, 2, 3])
RESULTS["assign_add"] = var.assign_add([1, 1, 1])

x = tf.Variable(1.0)


def f(x):
    y = x**2 + 2*x - 5
    return y


RESULTS["f_x"] = f(x)

with tf.GradientTape() as tape:
    y = f(x)

g_x = tape.gradient(y, x)  # g(x) = dy/dx
RESULTS["g_x"] = g_x


@tf.function
def my_func(x):
    print('Tracing.\n')
    return tf.reduce_sum(x)


x = tf.constant([1, 2, 3])
RESULTS["my_func_1"] = my_func(x)
x = tf.constant([10, 9, 8])
RESULTS["my_func_2"] = my_func(x)
x = tf.constant([10.0, 9.1, 8.2], dtype=tf.float32)
RESULTS["my_func_3"] = my_func(x)


class MyModule(tf.Module):
    def __init__(self, value):
        self.weight = tf.Variable(value)

    @tf.function
    def multiply(self, x):
        return x * self.weight


mod = MyModule(3)
RESULTS["multiply"] = mod.multiply(tf.constant([1, 2, 3]))

save_path = os.path.join(_tmp, 'saved')
tf.saved_model.save(mod, save_path)

reloaded = tf.saved_model.load(save_path)
RESULTS["reloaded_multiply"] = reloaded.multiply(tf.constant([1, 2, 3]))

x = tf.linspace(-2, 2, 201)
x = tf.cast(x, tf.float32)


def f(x):
    y = x**2 + 2*x - 5
    return y


y = f(x) + tf.random.normal(shape=[201])
RESULTS["y"] = y


class Model(tf.Module):

    def __init__(self):
        # Randomly generate weight and bias terms
        rand_init = tf.random.uniform(shape=[3], minval=0., maxval=5., seed=22)
        # Initialize model parameters
        self.w_q = tf.Variable(rand_init[0])
        self.w_l = tf.Variable(rand_init[1])
        self.b = tf.Variable(rand_init[2])

    @tf.function
    def __call__(self, x):
        # Quadratic Model : quadratic_weight * x^2 + linear_weight * x + bias
        return self.w_q * (x**2) + self.w_l * x + self.b


quad_model = Model()
RESULTS["quad_init"] = [quad_model.w_q, quad_model.w_l, quad_model.b]


def mse_loss(y_pred, y):
    return tf.reduce_mean(tf.square(y_pred - y))


batch_size = 32
dataset = tf.data.Dataset.from_tensor_slices((x, y))
dataset = dataset.shuffle(buffer_size=x.shape[0]).batch(batch_size)

# Set training parameters
epochs = 5
learning_rate = 0.01
losses = []

# Format training loop
for epoch in range(epochs):
    for x_batch, y_batch in dataset:
        with tf.GradientTape() as tape:
            batch_loss = mse_loss(quad_model(x_batch), y_batch)
        # Update parameters with respect to the gradient calculations
        grads = tape.gradient(batch_loss, quad_model.variables)
        for g, v in zip(grads, quad_model.variables):
            v.assign_sub(learning_rate*g)
    # Keep track of model loss per epoch
    loss = mse_loss(quad_model(x), y)
    losses.append(loss)
    if epoch % 10 == 0:
        print(f'Mean squared error for step {epoch}: {loss.numpy():0.3f}')
RESULTS["losses"] = losses
RESULTS["quad_trained"] = [v for v in quad_model.variables]

new_model = tf.keras.Sequential([
    tf.keras.layers.Lambda(lambda x: tf.stack([x, x**2], axis=1)),
    tf.keras.layers.Dense(units=1, kernel_initializer=tf.random.normal)])

new_model.compile(
    loss=tf.keras.losses.MSE,
    optimizer=tf.keras.optimizers.SGD(learning_rate=0.01))
new_model.build((None,))
fix_weights(new_model)

history = new_model.fit(x, y,
                        epochs=5,
                        batch_size=32,
                        verbose=0)
RESULTS["keras_loss"] = history.history['loss']

new_model.save(os.path.join(_tmp, 'my_new_model.keras'))
RESULTS["keras_pred"] = new_model(x[:5])
