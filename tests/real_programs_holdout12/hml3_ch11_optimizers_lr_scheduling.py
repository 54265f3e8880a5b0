"""Title: Faster optimizers and learning rate scheduling (Hands-On ML 3rd ed., chapter 11)
Source: https://github.com/ageron/handson-ml3/blob/e3f3f9e66d58cfa1d068a498433063a1d3fba9ef/11_training_deep_neural_networks.ipynb
Licence: Apache-2.0 (ageron/handson-ml3)
Changed: the notebook's code cells of the "Faster Optimizers" and "Learning Rate Scheduling"
sections (cells 78-160) in order, after the setup imports and the Fashion MNIST cells they use
(34-35); tf.keras.utils.set_random_seed(42) at the top (Keras 3's initializers do not follow
tf.random.set_seed alone); Fashion MNIST (60000 + 10000 28x28 uint8 images, downloaded) -> 400
+ 100 synthetic uint8 images and labels from a seeded NumPy generator (the last 100 training
images as the validation set, as the notebook keeps the last 5000); epochs cut to keep the run
short: build_and_train_model's 10 -> 3, n_epochs 20 -> 4 and 25 -> 6 (the piecewise constant
schedule's boundaries [5, 15] kept, so only its first boundary is crossed); the matplotlib
cells (learning curves, schedule plots, plot_lr_vs_loss) removed; the histories, learning
rates found, the callbacks' learning rates and the last model's predictions -> RESULTS.
"""
import numpy as np

RESULTS = {}

import sys

assert sys.version_info >= (3, 7)
from packaging import version
import tensorflow as tf

assert version.parse(tf.__version__) >= version.parse("2.8.0")
tf.keras.utils.set_random_seed(42)
_rng = np.random.default_rng(42)
fashion_mnist = ((_rng.integers(0, 256, (400, 28, 28)).astype(np.uint8),
                  _rng.integers(0, 10, (400,)).astype(np.uint8)),
                 (_rng.integers(0, 256, (100, 28, 28)).astype(np.uint8),
                  _rng.integers(0, 10, (100,)).astype(np.uint8)))
(X_train_full, y_train_full), (X_test, y_test) = fashion_mnist
X_train, y_train = X_train_full[:-100], y_train_full[:-100]
X_valid, y_valid = X_train_full[-100:], y_train_full[-100:]
X_train, X_valid, X_test = X_train / 255, X_valid / 255, X_test / 255
class_names = ["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
               "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot"]
# [cell 78]
# extra code – a little function to test an optimizer on Fashion MNIST

def build_model(seed=42):
    tf.random.set_seed(seed)
    return tf.keras.Sequential([
        tf.keras.layers.Flatten(input_shape=[28, 28]),
        tf.keras.layers.Dense(100, activation="relu",
                              kernel_initializer="he_normal"),
        tf.keras.layers.Dense(100, activation="relu",
                              kernel_initializer="he_normal"),
        tf.keras.layers.Dense(100, activation="relu",
                              kernel_initializer="he_normal"),
        tf.keras.layers.Dense(10, activation="softmax")
    ])

def build_and_train_model(optimizer):
    model = build_model()
    model.compile(loss="sparse_categorical_crossentropy", optimizer=optimizer,
                  metrics=["accuracy"])
    return model.fit(X_train, y_train, epochs=3,
                     validation_data=(X_valid, y_valid))
# [cell 79]
optimizer = tf.keras.optimizers.SGD(learning_rate=0.001)
# [cell 80]
history_sgd = build_and_train_model(optimizer)  # extra code
# [cell 82]
optimizer = tf.keras.optimizers.SGD(learning_rate=0.001, momentum=0.9)
# [cell 83]
history_momentum = build_and_train_model(optimizer)  # extra code
# [cell 85]
optimizer = tf.keras.optimizers.SGD(learning_rate=0.001, momentum=0.9,
                                    nesterov=True)
# [cell 86]
history_nesterov = build_and_train_model(optimizer)  # extra code
# [cell 88]
optimizer = tf.keras.optimizers.Adagrad(learning_rate=0.001)
# [cell 89]
history_adagrad = build_and_train_model(optimizer)  # extra code
# [cell 91]
optimizer = tf.keras.optimizers.RMSprop(learning_rate=0.001, rho=0.9)
# [cell 92]
history_rmsprop = build_and_train_model(optimizer)  # extra code
# [cell 94]
optimizer = tf.keras.optimizers.Adam(learning_rate=0.001, beta_1=0.9,
                                     beta_2=0.999)
# [cell 95]
history_adam = build_and_train_model(optimizer)  # extra code
# [cell 97]
optimizer = tf.keras.optimizers.Adamax(learning_rate=0.001, beta_1=0.9,
                                       beta_2=0.999)
# [cell 98]
history_adamax = build_and_train_model(optimizer)  # extra code
# [cell 100]
optimizer = tf.keras.optimizers.Nadam(learning_rate=0.001, beta_1=0.9,
                                      beta_2=0.999)
# [cell 101]
history_nadam = build_and_train_model(optimizer)  # extra code
# [cell 104]
optimizer = tf.keras.optimizers.AdamW(weight_decay=1e-5, learning_rate=0.001,
                                      beta_1=0.9, beta_2=0.999)
# [cell 105]
history_adamw = build_and_train_model(optimizer)  # extra code
# [cell 111]
lr_schedule = tf.keras.optimizers.schedules.InverseTimeDecay(
    initial_learning_rate=0.01,
    decay_steps=10_000,
    decay_rate=1.0,
    staircase=False
)
optimizer = tf.keras.optimizers.SGD(learning_rate=lr_schedule)
# [cell 113]
history_power_scheduling = build_and_train_model(optimizer)  # extra code
# [cell 117]
lr_schedule = tf.keras.optimizers.schedules.ExponentialDecay(
    initial_learning_rate=0.01,
    decay_steps=20_000,
    decay_rate=0.1,
    staircase=False
)
optimizer = tf.keras.optimizers.SGD(learning_rate=lr_schedule)
# [cell 118]
history_exponential_scheduling = build_and_train_model(optimizer)  # extra code
# [cell 121]
def exponential_decay_fn(epoch):
    return 0.01 * 0.1 ** (epoch / 20)
# [cell 122]
def exponential_decay(lr0, s):
    def exponential_decay_fn(epoch):
        return lr0 * 0.1 ** (epoch / s)
    return exponential_decay_fn

exponential_decay_fn = exponential_decay(lr0=0.01, s=20)
# [cell 123]
# extra code – build and compile a model for Fashion MNIST

tf.random.set_seed(42)
model = build_model()
optimizer = tf.keras.optimizers.SGD(learning_rate=0.001)
model.compile(loss="sparse_categorical_crossentropy", optimizer=optimizer,
              metrics=["accuracy"])
# [cell 124]
n_epochs = 4

lr_scheduler = tf.keras.callbacks.LearningRateScheduler(exponential_decay_fn)
history = model.fit(X_train, y_train, epochs=n_epochs,
                    validation_data=(X_valid, y_valid),
                    callbacks=[lr_scheduler])
RESULTS["lr_scheduler_fn_history"] = [history.history[k] for k in ("loss", "val_loss", "learning_rate")]
# [cell 126]
def exponential_decay_fn(epoch, lr):
    return lr * 0.1 ** (1 / 20)
# [cell 128]
K = tf.keras.backend

class ExponentialDecay(tf.keras.callbacks.Callback):
    def __init__(self, n_steps=40_000):
        super().__init__()
        self.n_steps = n_steps

    def on_batch_begin(self, batch, logs=None):
        # Note: the `batch` argument is reset at each epoch
        lr = self.model.optimizer.learning_rate.numpy()
        new_learning_rate = lr * 0.1 ** (1 / self.n_steps)
        self.model.optimizer.learning_rate = new_learning_rate

    def on_epoch_end(self, epoch, logs=None):
        logs = logs or {}
        logs['lr'] = self.model.optimizer.learning_rate.numpy()
# [cell 129]
lr0 = 0.01
model = build_model()
optimizer = tf.keras.optimizers.SGD(learning_rate=lr0)
model.compile(loss="sparse_categorical_crossentropy", optimizer=optimizer,
              metrics=["accuracy"])
# [cell 130]
import math

batch_size = 32
n_steps = n_epochs * math.ceil(len(X_train) / batch_size)
exp_decay = ExponentialDecay(n_steps)
history = model.fit(X_train, y_train, epochs=n_epochs,
                    validation_data=(X_valid, y_valid),
                    callbacks=[exp_decay])
RESULTS["exp_decay_callback_history"] = [history.history[k] for k in ("loss", "val_loss", "lr")]
RESULTS["exp_decay_final_lr"] = model.optimizer.learning_rate
# [cell 132]
lr_schedule = tf.keras.optimizers.schedules.PiecewiseConstantDecay(
    boundaries = [50_000 * n_epochs // batch_size, 80_000 * n_epochs // batch_size] ,
    values=[0.01, 0.005, 0.001]
)
optimizer = tf.keras.optimizers.SGD(learning_rate=lr_schedule)
# [cell 133]
history_piecewise_scheduling = build_and_train_model(optimizer)  # extra code
# [cell 136]
def piecewise_constant_fn(epoch):
    if epoch < 5:
        return 0.01
    elif epoch < 15:
        return 0.005
    else:
        return 0.001
# [cell 137]
# extra code – this cell demonstrates a more general way to define
#              piecewise constant scheduling.

def piecewise_constant(boundaries, values):
    boundaries = np.array([0] + boundaries)
    values = np.array(values)
    def piecewise_constant_fn(epoch):
        return values[(boundaries > epoch).argmax() - 1]
    return piecewise_constant_fn

piecewise_constant_fn = piecewise_constant([5, 15], [0.01, 0.005, 0.001])
# [cell 138]
# extra code – use a tf.keras.callbacks.LearningRateScheduler like earlier

n_epochs = 6

lr_scheduler = tf.keras.callbacks.LearningRateScheduler(piecewise_constant_fn)

model = build_model()
optimizer = tf.keras.optimizers.Nadam(learning_rate=lr0)
model.compile(loss="sparse_categorical_crossentropy", optimizer=optimizer,
              metrics=["accuracy"])
history = model.fit(X_train, y_train, epochs=n_epochs,
                    validation_data=(X_valid, y_valid),
                    callbacks=[lr_scheduler])
RESULTS["piecewise_fn_history"] = [history.history[k] for k in ("loss", "val_loss", "learning_rate")]
# [cell 140]
for name in sorted(dir(tf.keras.optimizers.schedules)):
    if name[0] == name[0].lower():  # must start with capital letter
        continue
    scheduler_class = getattr(tf.keras.optimizers.schedules, name)
    print(f"• {name} – {scheduler_class.__doc__.splitlines()[0]}")
# [cell 142]
# extra code – build and compile the model

model = build_model()
optimizer = tf.keras.optimizers.SGD(learning_rate=lr0)
model.compile(loss="sparse_categorical_crossentropy", optimizer=optimizer,
              metrics=["accuracy"])
# [cell 143]
lr_scheduler = tf.keras.callbacks.ReduceLROnPlateau(factor=0.5, patience=5)
history = model.fit(X_train, y_train, epochs=n_epochs,
                    validation_data=(X_valid, y_valid),
                    callbacks=[lr_scheduler])
RESULTS["reduce_lr_on_plateau_history"] = [history.history[k] for k in ("loss", "val_loss", "learning_rate")]
# [cell 147]
K = tf.keras.backend

class ExponentialLearningRate(tf.keras.callbacks.Callback):
    def __init__(self, factor):
        self.factor = factor
        self.rates = []
        self.losses = []

    def on_epoch_begin(self, epoch, logs=None):
        self.sum_of_epoch_losses = 0

    def on_batch_end(self, batch, logs=None):
        mean_epoch_loss = logs["loss"]  # the epoch's mean loss so far 
        new_sum_of_epoch_losses = mean_epoch_loss * (batch + 1)
        batch_loss = new_sum_of_epoch_losses - self.sum_of_epoch_losses
        self.sum_of_epoch_losses = new_sum_of_epoch_losses
        lr = self.model.optimizer.learning_rate.numpy()
        self.rates.append(lr)
        self.losses.append(batch_loss)
        self.model.optimizer.learning_rate = lr * self.factor
# [cell 149]
def find_learning_rate(model, X, y, epochs=1, batch_size=32, min_rate=1e-4,
                       max_rate=1):
    init_weights = model.get_weights()
    iterations = math.ceil(len(X) / batch_size) * epochs
    factor = (max_rate / min_rate) ** (1 / iterations)
    init_lr = K.get_value(model.optimizer.learning_rate)
    model.optimizer.learning_rate = min_rate
    exp_lr = ExponentialLearningRate(factor)
    history = model.fit(X, y, epochs=epochs, batch_size=batch_size,
                        callbacks=[exp_lr])
    model.optimizer.learning_rate = init_lr
    model.set_weights(init_weights)
    return exp_lr.rates, exp_lr.losses
# [cell 153]
model = build_model()
model.compile(loss="sparse_categorical_crossentropy",
              optimizer=tf.keras.optimizers.SGD(learning_rate=0.001),
              metrics=["accuracy"])
# [cell 155]
batch_size = 128
rates, losses = find_learning_rate(model, X_train, y_train, epochs=1,
                                   batch_size=batch_size)
RESULTS["find_lr_rates"] = rates
RESULTS["find_lr_losses"] = losses
RESULTS["weights_restored"] = model.get_weights()[0]
# [cell 158]
class OneCycleScheduler(tf.keras.callbacks.Callback):
    def __init__(self, iterations, max_lr=1e-3, start_lr=None,
                 last_iterations=None, last_lr=None):
        self.iterations = iterations
        self.max_lr = max_lr
        self.start_lr = start_lr or max_lr / 10
        self.last_iterations = last_iterations or iterations // 10 + 1
        self.half_iteration = (iterations - self.last_iterations) // 2
        self.last_lr = last_lr or self.start_lr / 1000
        self.iteration = 0

    def _interpolate(self, iter1, iter2, lr1, lr2):
        return (lr2 - lr1) * (self.iteration - iter1) / (iter2 - iter1) + lr1

    def on_batch_begin(self, batch, logs):
        if self.iteration < self.half_iteration:
            lr = self._interpolate(0, self.half_iteration, self.start_lr,
                                   self.max_lr)
        elif self.iteration < 2 * self.half_iteration:
            lr = self._interpolate(self.half_iteration, 2 * self.half_iteration,
                                   self.max_lr, self.start_lr)
        else:
            lr = self._interpolate(2 * self.half_iteration, self.iterations,
                                   self.start_lr, self.last_lr)
        self.iteration += 1
        self.model.optimizer.learning_rate = lr
# [cell 160]
model = build_model()
model.compile(loss="sparse_categorical_crossentropy",
              optimizer=tf.keras.optimizers.SGD(),
              metrics=["accuracy"])
n_epochs = 6
onecycle = OneCycleScheduler(math.ceil(len(X_train) / batch_size) * n_epochs,
                             max_lr=0.1)
history = model.fit(X_train, y_train, epochs=n_epochs, batch_size=batch_size,
                    validation_data=(X_valid, y_valid),
                    callbacks=[onecycle])
RESULTS["onecycle_history"] = [history.history[k] for k in ("loss", "val_loss", "accuracy", "val_accuracy")]
RESULTS["onecycle_iteration"] = onecycle.iteration
RESULTS["onecycle_final_lr"] = model.optimizer.learning_rate
RESULTS["onecycle_predictions"] = model.predict(X_test[:5])

for _name in ("sgd", "momentum", "nesterov", "adagrad", "rmsprop", "adam", "adamax", "nadam",
              "adamw", "power_scheduling", "exponential_scheduling", "piecewise_scheduling"):
    _history = globals()["history_" + _name]
    RESULTS["history_" + _name] = [_history.history[k] for k in ("loss", "accuracy", "val_loss", "val_accuracy")]
