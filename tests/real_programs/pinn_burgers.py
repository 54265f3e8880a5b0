"""Title: Physics-informed neural network for Burgers' equation (nested tapes)
Source: https://github.com/janblechschmidt/PDEsByNNs/blob/main/PINN_Solver.ipynb
Licence: MIT (Jan Blechschmidt, PDEsByNNs)
Changed: N_0 = N_b = 20, N_r = 200 collocation points (10000), 5000 epochs -> 3; Input(2) ->
Input((2,)) (Keras 3 refuses an int shape); `tape.watch(model.trainable_variables)` removed
(TF 2.21 rejects Keras 3 variables there; trainable variables are watched anyway); keras.utils.set_random_seed(0) for
random_bernoulli; the kernels fixed (fix_weights); timing and plots removed; results in RESULTS.
"""
import tensorflow as tf
import numpy as np
from _corpus import fix_weights
RESULTS = {}

DTYPE='float32'
tf.keras.backend.set_floatx(DTYPE)

pi = tf.constant(np.pi, dtype=DTYPE)
viscosity = .01/pi

def fun_u_0(x):
    return -tf.sin(pi * x)

def fun_u_b(t, x):
    n = x.shape[0]
    return tf.zeros((n,1), dtype=DTYPE)

def fun_r(t, x, u, u_t, u_x, u_xx):
    return u_t + u * u_x - viscosity * u_xx

N_0 = 20
N_b = 20
N_r = 200

tmin = 0.
tmax = 1.
xmin = -1.
xmax = 1.

lb = tf.constant([tmin, xmin], dtype=DTYPE)
ub = tf.constant([tmax, xmax], dtype=DTYPE)

tf.random.set_seed(0)
tf.keras.utils.set_random_seed(0)

t_0 = tf.ones((N_0,1), dtype=DTYPE)*lb[0]
x_0 = tf.random.uniform((N_0,1), lb[1], ub[1], dtype=DTYPE)
X_0 = tf.concat([t_0, x_0], axis=1)
u_0 = fun_u_0(x_0)

t_b = tf.random.uniform((N_b,1), lb[0], ub[0], dtype=DTYPE)
x_b = lb[1] + (ub[1] - lb[1]) * tf.keras.backend.random_bernoulli((N_b,1), 0.5, dtype=DTYPE)
X_b = tf.concat([t_b, x_b], axis=1)
u_b = fun_u_b(t_b, x_b)

t_r = tf.random.uniform((N_r,1), lb[0], ub[0], dtype=DTYPE)
x_r = tf.random.uniform((N_r,1), lb[1], ub[1], dtype=DTYPE)
X_r = tf.concat([t_r, x_r], axis=1)

X_data = [X_0, X_b]
u_data = [u_0, u_b]
RESULTS["X_r"] = X_r

def init_model(num_hidden_layers=8, num_neurons_per_layer=20):
    model = tf.keras.Sequential()
    model.add(tf.keras.Input((2,)))
    scaling_layer = tf.keras.layers.Lambda(
                lambda x: 2.0*(x - lb)/(ub - lb) - 1.0)
    model.add(scaling_layer)
    for _ in range(num_hidden_layers):
        model.add(tf.keras.layers.Dense(num_neurons_per_layer,
            activation=tf.keras.activations.get('tanh'),
            kernel_initializer='glorot_normal'))
    model.add(tf.keras.layers.Dense(1))
    return model

def get_r(model, X_r):
    with tf.GradientTape(persistent=True) as tape:
        t, x = X_r[:, 0:1], X_r[:,1:2]
        tape.watch(t)
        tape.watch(x)
        u = model(tf.stack([t[:,0], x[:,0]], axis=1))
        u_x = tape.gradient(u, x)
    u_t = tape.gradient(u, t)
    u_xx = tape.gradient(u_x, x)
    del tape
    return fun_r(t, x, u, u_t, u_x, u_xx)

def compute_loss(model, X_r, X_data, u_data):
    r = get_r(model, X_r)
    phi_r = tf.reduce_mean(tf.square(r))
    loss = phi_r
    for i in range(len(X_data)):
        u_pred = model(X_data[i])
        loss += tf.reduce_mean(tf.square(u_data[i] - u_pred))
    return loss

def get_grad(model, X_r, X_data, u_data):
    with tf.GradientTape(persistent=True) as tape:
        loss = compute_loss(model, X_r, X_data, u_data)
    g = tape.gradient(loss, model.trainable_variables)
    del tape
    return loss, g

model = init_model()
fix_weights(model)

lr = tf.keras.optimizers.schedules.PiecewiseConstantDecay([1000,3000],[1e-2,1e-3,5e-4])
optim = tf.keras.optimizers.Adam(learning_rate=lr)

@tf.function
def train_step():
    loss, grad_theta = get_grad(model, X_r, X_data, u_data)
    optim.apply_gradients(zip(grad_theta, model.trainable_variables))
    return loss

N = 3
hist = []
for i in range(N+1):
    loss = train_step()
    hist.append(loss.numpy())
RESULTS["hist"] = hist
RESULTS["residual"] = get_r(model, X_r[:10])
