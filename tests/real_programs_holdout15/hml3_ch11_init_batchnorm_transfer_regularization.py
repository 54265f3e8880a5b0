"""Title: Initializers, nonsaturating activations (LeakyReLU, ELU, a 100-layer SELU net), batch normalization, gradient clipping, reusing a pretrained Keras model (clone_model, freezing layers), l2 regularization, dropout, MC dropout with a custom MCDropout layer, and max-norm constraints (Hands-On ML 3rd ed., chapter 11)
Source: https://github.com/ageron/handson-ml3/blob/e3f3f9e66d58cfa1d068a498433063a1d3fba9ef/11_training_deep_neural_networks.ipynb
Licence: Apache-2.0 (ageron/handson-ml3)
Changed: the notebook's code cells from "Xavier and He Initialization" to the end of "Reusing a
Keras model" and of "Avoiding Overfitting Through Regularization" (l1/l2, Dropout, MC Dropout,
Max norm), in order, after the setup cells; the matplotlib setup and every plotting cell
(sigmoid, leaky ReLU, ELU/SELU, GELU/Swish/Mish figures) removed (the SELU figure cell's
scipy-computed alpha_0_1/scale_0_1 are kept as values); tf.keras.utils.set_random_seed(42) at
the top (the notebook's own tf.random.set_seed calls kept); Fashion MNIST (60,000 + 10,000
28x28 uint8 images, downloaded) -> 600 + 100 synthetic uint8 images with labels from a seeded
NumPy generator (the last 100 training images as the validation set, where the notebook keeps
the last 5,000); the 100-layer SELU/ReLU nets 100 -> 20 layers and their epochs 5 -> 1; other
epochs cut: batch-norm 2 -> 1, model A/B 20 -> 2, B-on-A 4 -> 1 and 16 -> 2, l2 2 -> 1,
dropout 10 -> 2, max-norm 10 -> 2; `X_train_B[:200]` kept (fewer samples than 200 exist);
MC dropout's 100 samples -> 20; model.summary() cells print; "my_model_A.keras" saved in a
temporary directory; the displayed values (variables, histories, evaluations, MC dropout
probabilities, accuracy) -> RESULTS.
"""
RESULTS = {}

import os
import tempfile

os.chdir(tempfile.mkdtemp())

# [setup]
import sys

assert sys.version_info >= (3, 7)
from packaging import version
import tensorflow as tf

assert version.parse(tf.__version__) >= version.parse("2.8.0")
tf.keras.utils.set_random_seed(42)
import numpy as np

# [Xavier and He Initialization]
dense = tf.keras.layers.Dense(50, activation="relu",
                              kernel_initializer="he_normal")
he_avg_init = tf.keras.initializers.VarianceScaling(scale=2., mode="fan_avg",
                                                    distribution="uniform")
dense = tf.keras.layers.Dense(50, activation="sigmoid",
                              kernel_initializer=he_avg_init)
RESULTS["he_avg_init_sample_std"] = np.std(he_avg_init(shape=(200, 100)).numpy())

# [Leaky ReLU]
leaky_relu = tf.keras.layers.LeakyReLU(alpha=0.2)  # defaults to alpha=0.3
dense = tf.keras.layers.Dense(50, activation=leaky_relu,
                              kernel_initializer="he_normal")
RESULTS["leaky_relu_out"] = leaky_relu(tf.constant([-2., -0.5, 0., 1.5]))
model = tf.keras.models.Sequential([
    # [...]  # more layers
    tf.keras.layers.Dense(50, kernel_initializer="he_normal"),  # no activation
    tf.keras.layers.LeakyReLU(alpha=0.2),  # activation as a separate layer
    # [...]  # more layers
])

# [ELU]
dense = tf.keras.layers.Dense(50, activation="elu",
                              kernel_initializer="he_normal")

# [SELU]
from scipy.special import erfc

# alpha and scale to self normalize with mean 0 and standard deviation 1
# (see equation 14 in the paper):
alpha_0_1 = -np.sqrt(2 / np.pi) / (erfc(1 / np.sqrt(2)) * np.exp(1 / 2) - 1)
scale_0_1 = (
    (1 - erfc(1 / np.sqrt(2)) * np.sqrt(np.e))
    * np.sqrt(2 * np.pi)
    * (
        2 * erfc(np.sqrt(2)) * np.e ** 2
        + np.pi * erfc(1 / np.sqrt(2)) ** 2 * np.e
        - 2 * (2 + np.pi) * erfc(1 / np.sqrt(2)) * np.sqrt(np.e)
        + np.pi
        + 2
    ) ** (-1 / 2)
)
RESULTS["alpha_0_1"] = alpha_0_1
RESULTS["scale_0_1"] = scale_0_1
dense = tf.keras.layers.Dense(50, activation="selu",
                              kernel_initializer="lecun_normal")
tf.random.set_seed(42)
model = tf.keras.Sequential()
model.add(tf.keras.layers.Flatten(input_shape=[28, 28]))
for layer in range(20):
    model.add(tf.keras.layers.Dense(100, activation="selu",
                                    kernel_initializer="lecun_normal"))
model.add(tf.keras.layers.Dense(10, activation="softmax"))
model.compile(loss="sparse_categorical_crossentropy",
              optimizer=tf.keras.optimizers.SGD(learning_rate=0.001),
              metrics=["accuracy"])
_rng = np.random.default_rng(42)
def _synthetic_fashion(n):
    return (_rng.integers(0, 256, (n, 28, 28)).astype(np.uint8),
            _rng.integers(0, 10, n).astype(np.uint8))
fashion_mnist = (_synthetic_fashion(600), _synthetic_fashion(100))
(X_train_full, y_train_full), (X_test, y_test) = fashion_mnist
X_train, y_train = X_train_full[:-100], y_train_full[:-100]
X_valid, y_valid = X_train_full[-100:], y_train_full[-100:]
X_train, X_valid, X_test = X_train / 255, X_valid / 255, X_test / 255
class_names = ["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
               "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot"]
pixel_means = X_train.mean(axis=0, keepdims=True)
pixel_stds = X_train.std(axis=0, keepdims=True)
X_train_scaled = (X_train - pixel_means) / pixel_stds
X_valid_scaled = (X_valid - pixel_means) / pixel_stds
X_test_scaled = (X_test - pixel_means) / pixel_stds
history = model.fit(X_train_scaled, y_train, epochs=1,
                    validation_data=(X_valid_scaled, y_valid))
RESULTS["selu_history"] = [history.history["loss"], history.history["val_loss"]]
tf.random.set_seed(42)
model = tf.keras.Sequential()
model.add(tf.keras.layers.Flatten(input_shape=[28, 28]))
for layer in range(20):
    model.add(tf.keras.layers.Dense(100, activation="relu",
                                    kernel_initializer="he_normal"))
model.add(tf.keras.layers.Dense(10, activation="softmax"))
model.compile(loss="sparse_categorical_crossentropy",
              optimizer=tf.keras.optimizers.SGD(learning_rate=0.001),
              metrics=["accuracy"])
history = model.fit(X_train_scaled, y_train, epochs=1,
                    validation_data=(X_valid_scaled, y_valid))
RESULTS["relu_history"] = [history.history["loss"], history.history["val_loss"]]

# [Batch Normalization]
# extra code - clear the name counters and set the random seed
tf.keras.backend.clear_session()
tf.random.set_seed(42)
model = tf.keras.Sequential([
    tf.keras.layers.Flatten(input_shape=[28, 28]),
    tf.keras.layers.BatchNormalization(),
    tf.keras.layers.Dense(300, activation="relu",
                          kernel_initializer="he_normal"),
    tf.keras.layers.BatchNormalization(),
    tf.keras.layers.Dense(100, activation="relu",
                          kernel_initializer="he_normal"),
    tf.keras.layers.BatchNormalization(),
    tf.keras.layers.Dense(10, activation="softmax")
])
model.summary()
RESULTS["bn_n_params"] = model.count_params()
RESULTS["bn_trainable_params"] = sum(int(np.prod(v.shape)) for v in model.trainable_variables)
_vars = [(var.name, var.trainable) for var in model.layers[1].variables]
print(_vars)
RESULTS["bn_var_names"] = [n for n, t in _vars]
RESULTS["bn_var_trainable"] = [t for n, t in _vars]
# extra code – just show that the model works! 😊
model.compile(loss="sparse_categorical_crossentropy", optimizer="sgd",
              metrics=["accuracy"])
history = model.fit(X_train, y_train, epochs=1, validation_data=(X_valid, y_valid))
RESULTS["bn1_history"] = [history.history["loss"], history.history["val_loss"]]
RESULTS["bn1_moving_mean"] = model.layers[1].moving_mean.numpy()[::50]
# extra code - clear the name counters and set the random seed
tf.keras.backend.clear_session()
tf.random.set_seed(42)
model = tf.keras.Sequential([
    tf.keras.layers.Flatten(input_shape=[28, 28]),
    tf.keras.layers.Dense(300, kernel_initializer="he_normal", use_bias=False),
    tf.keras.layers.BatchNormalization(),
    tf.keras.layers.Activation("relu"),
    tf.keras.layers.Dense(100, kernel_initializer="he_normal", use_bias=False),
    tf.keras.layers.BatchNormalization(),
    tf.keras.layers.Activation("relu"),
    tf.keras.layers.Dense(10, activation="softmax")
])
# extra code – just show that the model works! 😊
model.compile(loss="sparse_categorical_crossentropy", optimizer="sgd",
              metrics=["accuracy"])
history = model.fit(X_train, y_train, epochs=1, validation_data=(X_valid, y_valid))
RESULTS["bn2_history"] = [history.history["loss"], history.history["val_loss"]]

# [Gradient Clipping]
optimizer = tf.keras.optimizers.SGD(clipvalue=1.0)
model.compile(loss="sparse_categorical_crossentropy", optimizer=optimizer)
optimizer = tf.keras.optimizers.SGD(clipnorm=1.0)
model.compile(loss="sparse_categorical_crossentropy", optimizer=optimizer)
RESULTS["clipnorm_loss"] = model.evaluate(X_valid, y_valid)

# [Reusing a Keras model]
# extra code – split Fashion MNIST into tasks A and B, then train and save
#              model A to "my_model_A".

pos_class_id = class_names.index("Pullover")
neg_class_id = class_names.index("T-shirt/top")

def split_dataset(X, y):
    y_for_B = (y == pos_class_id) | (y == neg_class_id)
    y_A = y[~y_for_B]
    y_B = (y[y_for_B] == pos_class_id).astype(np.float32)
    old_class_ids = list(set(range(10)) - set([neg_class_id, pos_class_id]))
    for old_class_id, new_class_id in zip(old_class_ids, range(8)):
        y_A[y_A == old_class_id] = new_class_id  # reorder class ids for A
    return ((X[~y_for_B], y_A), (X[y_for_B], y_B))

(X_train_A, y_train_A), (X_train_B, y_train_B) = split_dataset(X_train, y_train)
(X_valid_A, y_valid_A), (X_valid_B, y_valid_B) = split_dataset(X_valid, y_valid)
(X_test_A, y_test_A), (X_test_B, y_test_B) = split_dataset(X_test, y_test)
X_train_B = X_train_B[:200]
y_train_B = y_train_B[:200]
RESULTS["split_sizes"] = [len(X_train_A), len(X_train_B), len(X_valid_A), len(X_valid_B)]
RESULTS["y_train_A_head"] = y_train_A[:20]

tf.random.set_seed(42)

model_A = tf.keras.Sequential([
    tf.keras.layers.Flatten(input_shape=[28, 28]),
    tf.keras.layers.Dense(100, activation="relu",
                          kernel_initializer="he_normal"),
    tf.keras.layers.Dense(100, activation="relu",
                          kernel_initializer="he_normal"),
    tf.keras.layers.Dense(100, activation="relu",
                          kernel_initializer="he_normal"),
    tf.keras.layers.Dense(8, activation="softmax")
])

model_A.compile(loss="sparse_categorical_crossentropy",
                optimizer=tf.keras.optimizers.SGD(learning_rate=0.001),
                metrics=["accuracy"])
history = model_A.fit(X_train_A, y_train_A, epochs=2,
                      validation_data=(X_valid_A, y_valid_A))
RESULTS["model_A_history"] = history.history["loss"]
model_A.save("my_model_A.keras")
# extra code – train and evaluate model B, without reusing model A

tf.random.set_seed(42)
model_B = tf.keras.Sequential([
    tf.keras.layers.Flatten(input_shape=[28, 28]),
    tf.keras.layers.Dense(100, activation="relu",
                          kernel_initializer="he_normal"),
    tf.keras.layers.Dense(100, activation="relu",
                          kernel_initializer="he_normal"),
    tf.keras.layers.Dense(100, activation="relu",
                          kernel_initializer="he_normal"),
    tf.keras.layers.Dense(1, activation="sigmoid")
])

model_B.compile(loss="binary_crossentropy",
                optimizer=tf.keras.optimizers.SGD(learning_rate=0.001),
                metrics=["accuracy"])
history = model_B.fit(X_train_B, y_train_B, epochs=2,
                      validation_data=(X_valid_B, y_valid_B))
RESULTS["model_B_history"] = history.history["loss"]
RESULTS["model_B_test"] = model_B.evaluate(X_test_B, y_test_B)
model_A = tf.keras.models.load_model("my_model_A.keras")
model_B_on_A = tf.keras.Sequential(model_A.layers[:-1])
model_B_on_A.add(tf.keras.layers.Dense(1, activation="sigmoid"))
tf.random.set_seed(42)  # extra code – ensure reproducibility
model_A_clone = tf.keras.models.clone_model(model_A)
model_A_clone.set_weights(model_A.get_weights())
RESULTS["model_A_clone_pred"] = model_A_clone.predict(X_test[:3])
# extra code – creating model_B_on_A just like in the previous cell
model_B_on_A = tf.keras.Sequential(model_A_clone.layers[:-1])
model_B_on_A.add(tf.keras.layers.Dense(1, activation="sigmoid"))
for layer in model_B_on_A.layers[:-1]:
    layer.trainable = False

optimizer = tf.keras.optimizers.SGD(learning_rate=0.001)
model_B_on_A.compile(loss="binary_crossentropy", optimizer=optimizer,
                     metrics=["accuracy"])
RESULTS["B_on_A_trainable_weights"] = len(model_B_on_A.trainable_weights)
history = model_B_on_A.fit(X_train_B, y_train_B, epochs=1,
                           validation_data=(X_valid_B, y_valid_B))
RESULTS["B_on_A_history1"] = history.history["loss"]

for layer in model_B_on_A.layers[:-1]:
    layer.trainable = True

optimizer = tf.keras.optimizers.SGD(learning_rate=0.001)
model_B_on_A.compile(loss="binary_crossentropy", optimizer=optimizer,
                     metrics=["accuracy"])
history = model_B_on_A.fit(X_train_B, y_train_B, epochs=2,
                           validation_data=(X_valid_B, y_valid_B))
RESULTS["B_on_A_history2"] = history.history["loss"]
RESULTS["B_on_A_test"] = model_B_on_A.evaluate(X_test_B, y_test_B)
RESULTS["model_A_unchanged_pred"] = model_A.predict(X_test[:3])
1 - (100 - 93.85) / (100 - 91.85)

# [l1 and l2 regularization]
layer = tf.keras.layers.Dense(100, activation="relu",
                              kernel_initializer="he_normal",
                              kernel_regularizer=tf.keras.regularizers.l2(0.01))
tf.random.set_seed(42)  # extra code – for reproducibility
from functools import partial

RegularizedDense = partial(tf.keras.layers.Dense,
                           activation="relu",
                           kernel_initializer="he_normal",
                           kernel_regularizer=tf.keras.regularizers.l2(0.01))

model = tf.keras.Sequential([
    tf.keras.layers.Flatten(input_shape=[28, 28]),
    RegularizedDense(100),
    RegularizedDense(100),
    RegularizedDense(10, activation="softmax",
                     kernel_initializer="glorot_normal")  # not in the book
])
# extra code – compile and train the model
optimizer = tf.keras.optimizers.SGD(learning_rate=0.02)
model.compile(loss="sparse_categorical_crossentropy", optimizer=optimizer,
              metrics=["accuracy"])
history = model.fit(X_train, y_train, epochs=1,
                    validation_data=(X_valid, y_valid))
RESULTS["l2_history"] = [history.history["loss"], history.history["val_loss"]]
RESULTS["l2_losses"] = [float(l) for l in model.losses]

# [Dropout]
tf.random.set_seed(42)  # extra code – for reproducibility
model = tf.keras.Sequential([
    tf.keras.layers.Flatten(input_shape=[28, 28]),
    tf.keras.layers.Dropout(rate=0.2),
    tf.keras.layers.Dense(100, activation="relu",
                          kernel_initializer="he_normal"),
    tf.keras.layers.Dropout(rate=0.2),
    tf.keras.layers.Dense(100, activation="relu",
                          kernel_initializer="he_normal"),
    tf.keras.layers.Dropout(rate=0.2),
    tf.keras.layers.Dense(10, activation="softmax")
])
# extra code – compile and train the model
optimizer = tf.keras.optimizers.SGD(learning_rate=0.01, momentum=0.9)
model.compile(loss="sparse_categorical_crossentropy", optimizer=optimizer,
              metrics=["accuracy"])
history = model.fit(X_train, y_train, epochs=2,
                    validation_data=(X_valid, y_valid))
RESULTS["dropout_history"] = [history.history["loss"], history.history["val_loss"]]
RESULTS["dropout_eval_train"] = model.evaluate(X_train, y_train)
RESULTS["dropout_eval_test"] = model.evaluate(X_test, y_test)

# [MC Dropout]
tf.random.set_seed(42)  # extra code – for reproducibility
y_probas = np.stack([model(X_test, training=True)
                     for sample in range(20)])
y_proba = y_probas.mean(axis=0)
RESULTS["predict_first"] = model.predict(X_test[:1]).round(3)
RESULTS["mc_proba_first"] = y_proba[0].round(3)
y_std = y_probas.std(axis=0)
RESULTS["mc_std_first"] = y_std[0].round(3)
y_pred = y_proba.argmax(axis=1)
accuracy = (y_pred == y_test).sum() / len(y_test)
RESULTS["mc_accuracy"] = accuracy
class MCDropout(tf.keras.layers.Dropout):
    def call(self, inputs, training=None):
        return super().call(inputs, training=True)
# extra code – shows how to convert Dropout to MCDropout in a Sequential model
Dropout = tf.keras.layers.Dropout
mc_model = tf.keras.Sequential([
    MCDropout(layer.rate) if isinstance(layer, Dropout) else layer
    for layer in model.layers
])
mc_model.set_weights(model.get_weights())
mc_model.summary()
# extra code – shows that the model works without retraining
tf.random.set_seed(42)
RESULTS["mc_model_mean"] = np.mean([mc_model.predict(X_test[:1])
         for sample in range(20)], axis=0).round(2)

# [Max norm]
dense = tf.keras.layers.Dense(
    100, activation="relu", kernel_initializer="he_normal",
    kernel_constraint=tf.keras.constraints.max_norm(1.))
# extra code – shows how to apply max norm to every hidden layer in a model

MaxNormDense = partial(tf.keras.layers.Dense,
                       activation="relu", kernel_initializer="he_normal",
                       kernel_constraint=tf.keras.constraints.max_norm(1.))

tf.random.set_seed(42)
model = tf.keras.Sequential([
    tf.keras.layers.Flatten(input_shape=[28, 28]),
    MaxNormDense(100),
    MaxNormDense(100),
    tf.keras.layers.Dense(10, activation="softmax")
])
optimizer = tf.keras.optimizers.SGD(learning_rate=0.01, momentum=0.9)
model.compile(loss="sparse_categorical_crossentropy", optimizer=optimizer,
              metrics=["accuracy"])
history = model.fit(X_train, y_train, epochs=2,
                    validation_data=(X_valid, y_valid))
RESULTS["maxnorm_history"] = [history.history["loss"], history.history["val_loss"]]
RESULTS["maxnorm_col_norms_max"] = np.max(np.linalg.norm(model.layers[1].kernel.numpy(), axis=0))
