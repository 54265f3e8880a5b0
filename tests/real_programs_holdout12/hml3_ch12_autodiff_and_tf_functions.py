"""Title: Computing gradients with autodiff, custom training loops and TF Functions (Hands-On ML 3rd ed., chapter 12)
Source: https://github.com/ageron/handson-ml3/blob/e3f3f9e66d58cfa1d068a498433063a1d3fba9ef/12_custom_models_and_training_with_tensorflow.ipynb
Licence: Apache-2.0 (ageron/handson-ml3)
Changed: the notebook's code cells from "Computing Gradients Using Autodiff" to "Using TF
Functions with tf.keras (or Not)" (cells 194-302) in order, after the setup imports and the two
earlier cells they use (the data cell 101, whose California housing dataset, 20640 x 8 split
and scaled with scikit-learn, -> 500 synthetic float64 rows of 8 features and a float64
target from a seeded NumPy generator, split by slicing into 300/100/100 rows and standardized
with NumPy, scikit-learn not being installed; and cell 123's `my_softplus`); the tqdm
progress-bar cell (228, a repeat of the custom loop with tqdm.notebook) and the IPython
Markdown display of the autograph code (285-286) removed; displayed values -> RESULTS:
tensors as they are, a graph's operations as their types and names, a FunctionDef's arguments
as their names and dtypes, a list holding None gradients as its parts, the printed errors as the exception type's name; added records: the
custom loop's per-epoch loss and MAE (before the reset) and its trained weights, the tracing
counts of `tf_cube` and `shrink`, the shrunk images, `add_10`'s results, the fit history.
"""
import numpy as np

RESULTS = {}

import sys

assert sys.version_info >= (3, 7)
from packaging import version
import tensorflow as tf

assert version.parse(tf.__version__) >= version.parse("2.8.0")
_rng = np.random.default_rng(42)
_X = _rng.normal(size=(500, 8)) * [1.9, 12.6, 2.5, 0.5, 1132., 10.4, 2.1, 2.0] + [3.9, 28.6, 5.4, 1.1, 1425., 3.1, 35.6, -119.6]
_y = np.clip(_X[:, :1] * 0.4 + 0.5 + _rng.normal(scale=0.5, size=(500, 1)), 0.15, 5.0)
X_train, X_valid, X_test = _X[:300], _X[300:400], _X[400:]
y_train, y_valid, y_test = _y[:300], _y[300:400], _y[400:]

_mean, _std = X_train.mean(axis=0), X_train.std(axis=0)
X_train_scaled = (X_train - _mean) / _std
X_valid_scaled = (X_valid - _mean) / _std
X_test_scaled = (X_test - _mean) / _std

input_shape = X_train.shape[1:]

def my_softplus(z):
    return tf.math.log(1.0 + tf.exp(z))

# [cell 194]
def f(w1, w2):
    return 3 * w1 ** 2 + 2 * w1 * w2
# [cell 195]
w1, w2 = 5, 3
eps = 1e-6
RESULTS["finite_diff_dw1"] = (f(w1 + eps, w2) - f(w1, w2)) / eps
# [cell 196]
RESULTS["finite_diff_dw2"] = (f(w1, w2 + eps) - f(w1, w2)) / eps
# [cell 197]
w1, w2 = tf.Variable(5.), tf.Variable(3.)
with tf.GradientTape() as tape:
    z = f(w1, w2)

gradients = tape.gradient(z, [w1, w2])
# [cell 198]
RESULTS["gradients"] = gradients
# [cell 199]
with tf.GradientTape() as tape:
    z = f(w1, w2)

dz_dw1 = tape.gradient(z, w1)  # returns tensor 36.0
try:
    dz_dw2 = tape.gradient(z, w2)  # raises a RuntimeError!
except RuntimeError as ex:
    print(ex)
    RESULTS["second_gradient_call_error"] = type(ex).__name__
# [cell 200]
with tf.GradientTape(persistent=True) as tape:
    z = f(w1, w2)

dz_dw1 = tape.gradient(z, w1)  # returns tensor 36.0
dz_dw2 = tape.gradient(z, w2)  # returns tensor 10.0, works fine now!
del tape
# [cell 201]
RESULTS["persistent_dz_dw1_dz_dw2"] = dz_dw1, dz_dw2
# [cell 202]
c1, c2 = tf.constant(5.), tf.constant(3.)
with tf.GradientTape() as tape:
    z = f(c1, c2)

gradients = tape.gradient(z, [c1, c2])
# [cell 203]
RESULTS["gradients_wrt_constants_is_none"] = [g is None for g in gradients]
# [cell 204]
with tf.GradientTape() as tape:
    tape.watch(c1)
    tape.watch(c2)
    z = f(c1, c2)

gradients = tape.gradient(z, [c1, c2])
# [cell 205]
RESULTS["gradients_watched_constants"] = gradients
# [cell 206]
# extra code – if given a vector, tape.gradient() will compute the gradient of
#              the vector's sum.
with tf.GradientTape() as tape:
    z1 = f(w1, w2 + 2.)
    z2 = f(w1, w2 + 5.)
    z3 = f(w1, w2 + 7.)

RESULTS["gradient_of_list"] = tape.gradient([z1, z2, z3], [w1, w2])
# [cell 207]
# extra code – shows that we get the same result as the previous cell
with tf.GradientTape() as tape:
    z1 = f(w1, w2 + 2.)
    z2 = f(w1, w2 + 5.)
    z3 = f(w1, w2 + 7.)
    z = z1 + z2 + z3

RESULTS["gradient_of_sum"] = tape.gradient(z, [w1, w2])
# [cell 208]
# extra code – shows how to compute the jacobians and the hessians
with tf.GradientTape(persistent=True) as hessian_tape:
    with tf.GradientTape() as jacobian_tape:
        z = f(w1, w2)
    jacobians = jacobian_tape.gradient(z, [w1, w2])
hessians = [hessian_tape.gradient(jacobian, [w1, w2])
            for jacobian in jacobians]
del hessian_tape
# [cell 209]
RESULTS["jacobians"] = jacobians
# [cell 210]
RESULTS["hessians_w1"] = hessians[0]
RESULTS["hessian_w2_w1"] = hessians[1][0]
RESULTS["hessian_w2_w2_is_none"] = hessians[1][1] is None
# [cell 211]
def f(w1, w2):
    return 3 * w1 ** 2 + tf.stop_gradient(2 * w1 * w2)

with tf.GradientTape() as tape:
    z = f(w1, w2)  # same result as without stop_gradient()

gradients = tape.gradient(z, [w1, w2])
# [cell 212]
RESULTS["gradients_stop_gradient_w1"] = gradients[0]
RESULTS["gradients_stop_gradient_w2_is_none"] = gradients[1] is None
# [cell 213]
x = tf.Variable(1e-50)
with tf.GradientTape() as tape:
    z = tf.sqrt(x)

RESULTS["sqrt_grad_at_1e_50"] = tape.gradient(z, [x])
# [cell 214]
RESULTS["log_exp_30_plus_1"] = tf.math.log(tf.exp(tf.constant(30., dtype=tf.float32)) + 1.)
# [cell 215]
x = tf.Variable([1.0e30])
with tf.GradientTape() as tape:
    z = my_softplus(x)

RESULTS["naive_softplus_grad_at_1e30"] = tape.gradient(z, [x])
# [cell 216]
def my_softplus(z):
    return tf.math.log(1 + tf.exp(-tf.abs(z))) + tf.maximum(0., z)
# [cell 218]
@tf.custom_gradient
def my_softplus(z):
    def my_softplus_gradients(grads):  # grads = backprop'ed from upper layers
        return grads * (1 - 1 / (1 + tf.exp(z)))  # stable grads of softplus

    result = tf.math.log(1 + tf.exp(-tf.abs(z))) + tf.maximum(0., z)
    return result, my_softplus_gradients
# [cell 219]
# extra code – shows that the function is now stable, as well as its gradients
x = tf.Variable([1000.])
with tf.GradientTape() as tape:
    z = my_softplus(x)

RESULTS["custom_gradient_softplus_z"], RESULTS["custom_gradient_softplus_grad"] = z, tape.gradient(z, [x])
# [cell 221]
tf.keras.utils.set_random_seed(42)  # extra code – to ensure reproducibility
l2_reg = tf.keras.regularizers.l2(0.05)
model = tf.keras.models.Sequential([
    tf.keras.layers.Dense(30, activation="relu", kernel_initializer="he_normal",
                          kernel_regularizer=l2_reg),
    tf.keras.layers.Dense(1, kernel_regularizer=l2_reg)
])
# [cell 222]
def random_batch(X, y, batch_size=32):
    idx = np.random.randint(len(X), size=batch_size)
    return X[idx], y[idx]
# [cell 223]
def print_status_bar(step, total, loss, metrics=None):
    metrics = " - ".join([f"{m.name}: {m.result():.4f}"
                          for m in [loss] + (metrics or [])])
    end = "" if step < total else "\n"
    print(f"\r{step}/{total} - " + metrics, end=end)
# [cell 224]
tf.keras.utils.set_random_seed(42)
# [cell 226]
n_epochs = 5
batch_size = 32
n_steps = len(X_train) // batch_size
optimizer = tf.keras.optimizers.SGD(learning_rate=0.01)
loss_fn = tf.keras.losses.MeanSquaredError()
mean_loss = tf.keras.metrics.Mean()
metrics = [tf.keras.metrics.MeanAbsoluteError()]
# [cell 227]
_epoch_results = []
for epoch in range(1, n_epochs + 1):
    print(f"Epoch {epoch}/{n_epochs}")
    for step in range(1, n_steps + 1):
        X_batch, y_batch = random_batch(X_train_scaled, y_train)
        with tf.GradientTape() as tape:
            y_pred = model(X_batch, training=True)
            main_loss = tf.reduce_mean(loss_fn(y_batch, y_pred))
            loss = tf.add_n([main_loss] + model.losses)

        gradients = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(gradients, model.trainable_variables))

        # extra code – if your model has variable constraints
        for variable in model.variables:
            if variable.constraint is not None:
                variable.assign(variable.constraint(variable))

        mean_loss(loss)
        for metric in metrics:
            metric(y_batch, y_pred)

        print_status_bar(step, n_steps, mean_loss, metrics)

    _epoch_results.append([m.result() for m in [mean_loss] + metrics])
    for metric in [mean_loss] + metrics:
        metric.reset_state()
RESULTS["custom_loop_epoch_loss_mae"] = _epoch_results
for _i, _v in enumerate(model.weights):
    RESULTS[f"custom_loop_weight_{_i}"] = _v.numpy()
# [cell 230]
def cube(x):
    return x ** 3
# [cell 231]
RESULTS["cube_2"] = cube(2)
# [cell 232]
RESULTS["cube_tf_constant_2_0"] = cube(tf.constant(2.0))
# [cell 233]
tf_cube = tf.function(cube)
# [cell 234]
RESULTS["tf_cube_2"] = tf_cube(2)
# [cell 235]
RESULTS["tf_cube_tf_constant_2_0"] = tf_cube(tf.constant(2.0))
# [cell 236]
@tf.function
def tf_cube(x):
    return x ** 3
# [cell 239]
concrete_function = tf_cube.get_concrete_function(tf.constant(2.0))
# [cell 240]
RESULTS["concrete_function_tf_constant_2_0"] = concrete_function(tf.constant(2.0))
# [cell 241]
RESULTS["concrete_function_is_cached"] = concrete_function is tf_cube.get_concrete_function(tf.constant(2.0))
# [cell 243]
# [cell 244]
ops = concrete_function.graph.get_operations()
RESULTS["ops_types"] = [op.type for op in ops]
RESULTS["ops_names"] = [op.name for op in ops]
# [cell 245]
pow_op = ops[2]
RESULTS["pow_op_input_names"] = [t.name for t in pow_op.inputs]
# [cell 246]
RESULTS["pow_op_output_names"] = [t.name for t in pow_op.outputs]
# [cell 247]
RESULTS["operation_x_type"] = concrete_function.graph.get_operation_by_name('x').type
# [cell 248]
RESULTS["identity_0_shape_dtype"] = [str(concrete_function.graph.get_tensor_by_name('Identity:0').shape), concrete_function.graph.get_tensor_by_name('Identity:0').dtype.name]
# [cell 249]
RESULTS["signature_input_args"] = [a.name for a in concrete_function.function_def.signature.input_arg]
RESULTS["signature_output_args"] = [a.name for a in concrete_function.function_def.signature.output_arg]
# [cell 251]
@tf.function
def tf_cube(x):
    print(f"x = {x}")
    return x ** 3
# [cell 252]
result = tf_cube(tf.constant(2.0))
# [cell 253]
RESULTS["traced_result"] = result
# [cell 254]
result = tf_cube(2)
# [cell 255]
result = tf_cube(3)
# [cell 256]
result = tf_cube(tf.constant([[1., 2.]]))  # New shape: trace!
# [cell 257]
result = tf_cube(tf.constant([[3., 4.], [5., 6.]]))  # New shape: trace!
# [cell 258]
result = tf_cube(tf.constant([[7., 8.], [9., 10.]]))  # Same shape: no trace
RESULTS["last_result"] = result
RESULTS["tf_cube_tracing_count"] = tf_cube.experimental_get_tracing_count()
# [cell 260]
@tf.function(input_signature=[tf.TensorSpec([None, 28, 28], tf.float32)])
def shrink(images):
    print("Tracing", images)  # extra code to show when tracing happens
    return images[:, ::2, ::2] # drop half the rows and columns
# [cell 261]
tf.keras.utils.set_random_seed(42)
# [cell 262]
img_batch_1 = tf.random.uniform(shape=[100, 28, 28])
img_batch_2 = tf.random.uniform(shape=[50, 28, 28])
preprocessed_images = shrink(img_batch_1)  # Works fine, traces the function
preprocessed_images = shrink(img_batch_2)  # Works fine, same concrete function
RESULTS["preprocessed_images"] = preprocessed_images
RESULTS["shrink_tracing_count"] = shrink.experimental_get_tracing_count()
# [cell 263]
img_batch_3 = tf.random.uniform(shape=[2, 2, 2])
try:
    preprocessed_images = shrink(img_batch_3)  # TypeError! Incompatible inputs
except TypeError as ex:
    print(ex)
    RESULTS["incompatible_input_error"] = type(ex).__name__
# [cell 266]
@tf.function
def add_10(x):
    for i in range(10):
        x += 1
    return x
# [cell 267]
RESULTS["add_10_python_loop"] = add_10(tf.constant(5))
# [cell 268]
RESULTS["add_10_python_loop_op_types"] = [op.type for op in add_10.get_concrete_function(tf.constant(5)).graph.get_operations()]
# [cell 270]
# extra code – shows how to use tf.while_loop (usually @tf.function is simpler)
@tf.function
def add_10(x):
    condition = lambda i, x: tf.less(i, 10)
    body = lambda i, x: (tf.add(i, 1), tf.add(x, 1))
    final_i, final_x = tf.while_loop(condition, body, [tf.constant(0), x])
    return final_x
# [cell 271]
RESULTS["add_10_while_loop"] = add_10(tf.constant(5))
# [cell 272]
RESULTS["add_10_while_loop_has_while"] = any(op.type in ("While", "StatelessWhile") for op in add_10.get_concrete_function(tf.constant(5)).graph.get_operations())
# [cell 274]
@tf.function
def add_10(x):
    for i in tf.range(10):
        x = x + 1
    return x
# [cell 275]
RESULTS["add_10_tf_range_has_while"] = any(op.type in ("While", "StatelessWhile") for op in add_10.get_concrete_function(tf.constant(0)).graph.get_operations())
RESULTS["add_10_tf_range"] = add_10(tf.constant(0))
# [cell 277]
counter = tf.Variable(0)

@tf.function
def increment(counter, c=1):
    return counter.assign_add(c)

increment(counter)  # counter is now equal to 1
RESULTS["increment_counter_arg"] = increment(counter)  # counter is now equal to 2
# [cell 278]
function_def = increment.get_concrete_function(counter).function_def
RESULTS["input_arg_0_type"] = tf.dtypes.as_dtype(function_def.signature.input_arg[0].type).name
# [cell 279]
counter = tf.Variable(0)

@tf.function
def increment(c=1):
    return counter.assign_add(c)
# [cell 280]
increment()
RESULTS["increment_global"] = increment()
# [cell 281]
function_def = increment.get_concrete_function().function_def
RESULTS["input_arg_0_type_2"] = tf.dtypes.as_dtype(function_def.signature.input_arg[0].type).name
# [cell 282]
class Counter:
    def __init__(self):
        self.counter = tf.Variable(0)

    @tf.function
    def increment(self, c=1):
        return self.counter.assign_add(c)
# [cell 283]
c = Counter()
c.increment()
RESULTS["c_increment"] = c.increment()
# [cell 284]
@tf.function
def add_10(x):
    for i in tf.range(10):
        x += 1
    return x

print(tf.autograph.to_code(add_10.python_function))
RESULTS["add_10_inplace"] = add_10(tf.constant(5))
# [cell 289]
# Custom loss function
def my_mse(y_true, y_pred):
    print("Tracing loss my_mse()")
    return tf.reduce_mean(tf.square(y_pred - y_true))
# [cell 290]
# Custom metric function
def my_mae(y_true, y_pred):
    print("Tracing metric my_mae()")
    return tf.reduce_mean(tf.abs(y_pred - y_true))
# [cell 291]
# Custom layer
class MyDense(tf.keras.layers.Layer):
    def __init__(self, units, activation=None, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.activation = tf.keras.activations.get(activation)

    def build(self, input_shape):
        self.kernel = self.add_weight(name='kernel', 
                                      shape=(input_shape[1], self.units),
                                      initializer='uniform',
                                      trainable=True)
        self.biases = self.add_weight(name='bias', 
                                      shape=(self.units,),
                                      initializer='zeros',
                                      trainable=True)

    def call(self, X):
        print("Tracing MyDense.call()")
        return self.activation(X @ self.kernel + self.biases)
# [cell 292]
tf.keras.utils.set_random_seed(42)
# [cell 293]
# Custom model
class MyModel(tf.keras.Model):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.hidden1 = MyDense(30, activation="relu")
        self.hidden2 = MyDense(30, activation="relu")
        self.output_ = MyDense(1)

    def call(self, input):
        print("Tracing MyModel.call()")
        hidden1 = self.hidden1(input)
        hidden2 = self.hidden2(hidden1)
        concat = tf.keras.layers.concatenate([input, hidden2])
        output = self.output_(concat)
        return output

model = MyModel()
# [cell 294]
model.compile(loss=my_mse, optimizer="nadam", metrics=[my_mae])
# [cell 295]
_history = model.fit(X_train_scaled, y_train, epochs=2,
          validation_data=(X_valid_scaled, y_valid))
RESULTS["my_model_history"] = [_history.history[k] for k in sorted(_history.history)]
RESULTS["my_model_history_keys"] = sorted(_history.history)
RESULTS["my_model_evaluate"] = model.evaluate(X_test_scaled, y_test)
# [cell 297]
tf.keras.utils.set_random_seed(42)
# [cell 299]
tf.keras.utils.set_random_seed(42)
# [cell 300]
model = MyModel()
# [cell 301]
model.compile(loss=my_mse, optimizer="nadam", metrics=[my_mae], run_eagerly=True)
# [cell 302]
model.fit(X_train_scaled[:64], y_train[:64], epochs=1,
          validation_data=(X_valid_scaled[:64], y_valid[:64]), verbose=0)
RESULTS["my_model_eager_evaluate"] = model.evaluate(X_test_scaled[:64], y_test[:64], verbose=0)
