"""Title: Chapter 14: Going Deeper -- the Mechanics of TensorFlow (Part 1/3) (Python Machine Learning, 3rd ed.)
Source: https://github.com/rasbt/python-machine-learning-book-3rd-edition/blob/bf62496f44a92a21d23250d5ed13d2d2e617e0e2/ch14/ch14_part1.py
Licence: MIT (rasbt/python-machine-learning-book-3rd-edition)
Changed: the chapter script's code in order (its markdown comment lines dropped); the pandas,
matplotlib and mlxtend imports removed (used only for plots) and every plotting block (the
scatter of the XOR data and the loss/accuracy/plot_decision_regions figure after each of the
five fits) removed: after each fit its history and its predictions on x_valid (what
plot_decision_regions would have drawn from) are recorded instead; keras.utils.set_random_seed(0)
after the imports (the Keras 3 initializers ignore tf.random.set_seed); epochs 200 -> 4 for each
of the five fits (batch_size 2 kept); the values printed with print/tf.print, the gradients,
variables, the custom layer's outputs and config -> RESULTS.
"""
RESULTS = {}
import tensorflow as tf
import numpy as np
import keras
keras.utils.set_random_seed(0)

## TF-v1.x style

g = tf.Graph()
with g.as_default():
    a = tf.constant(1, name='a')
    b = tf.constant(2, name='b')
    c = tf.constant(3, name='c')
    z = 2*(a - b) + c
    
with tf.compat.v1.Session(graph=g) as sess:
    print('Result: z =', sess.run(z))
    print('Result: z =', z.eval())
    RESULTS['v1_graph_z'] = sess.run(z)
    RESULTS['v1_graph_z_eval'] = z.eval()

## TF v2 style
a = tf.constant(1, name='a')
b = tf.constant(2, name='b')
c = tf.constant(3, name='c')

z = 2*(a - b) + c
tf.print('Result: z =', z)
RESULTS['v2_z'] = z

## TF-v1.x style
g = tf.Graph()
with g.as_default():
    a = tf.compat.v1.placeholder(shape=None, dtype=tf.int32, name='tf_a')
    b = tf.compat.v1.placeholder(shape=None, dtype=tf.int32, name='tf_b')
    c = tf.compat.v1.placeholder(shape=None, dtype=tf.int32, name='tf_c')
    z = 2*(a - b) + c
    
with tf.compat.v1.Session(graph=g) as sess:
    feed_dict = {a:1, b:2, c:3}
    print('Result: z =', sess.run(z, feed_dict=feed_dict))
    RESULTS['v1_placeholder_z'] = sess.run(z, feed_dict=feed_dict)

## TF-v2 style
def compute_z(a, b, c):
    r1 = tf.subtract(a, b)
    r2 = tf.multiply(2, r1)
    z = tf.add(r2, c)
    return z

tf.print('Scalar Inputs:', compute_z(1, 2, 3))
RESULTS['compute_z_1'] = compute_z(1, 2, 3)
tf.print('Rank 1 Inputs:', compute_z([1], [2], [3]))
RESULTS['compute_z_2'] = compute_z([1], [2], [3])
tf.print('Rank 2 Inputs:', compute_z([[1]], [[2]], [[3]]))
RESULTS['compute_z_3'] = compute_z([[1]], [[2]], [[3]])

@tf.function
def compute_z(a, b, c):
    r1 = tf.subtract(a, b)
    r2 = tf.multiply(2, r1)
    z = tf.add(r2, c)
    return z

tf.print('Scalar Inputs:', compute_z(1, 2, 3))
RESULTS['compute_z_4'] = compute_z(1, 2, 3)
tf.print('Rank 1 Inputs:', compute_z([1], [2], [3]))
RESULTS['compute_z_5'] = compute_z([1], [2], [3])
tf.print('Rank 2 Inputs:', compute_z([[1]], [[2]], [[3]]))
RESULTS['compute_z_6'] = compute_z([[1]], [[2]], [[3]])

@tf.function(input_signature=(tf.TensorSpec(shape=[None], dtype=tf.int32),
                              tf.TensorSpec(shape=[None], dtype=tf.int32),
                              tf.TensorSpec(shape=[None], dtype=tf.int32),))
def compute_z(a, b, c):
    r1 = tf.subtract(a, b)
    r2 = tf.multiply(2, r1)
    z = tf.add(r2, c)
    return z

tf.print('Rank 1 Inputs:', compute_z([1], [2], [3]))
RESULTS['compute_z_7'] = compute_z([1], [2], [3])
tf.print('Rank 1 Inputs:', compute_z([1, 2], [2, 4], [3, 6]))
RESULTS['compute_z_8'] = compute_z([1, 2], [2, 4], [3, 6])

tf.TensorSpec(shape=[None], dtype=tf.int32)

a = tf.Variable(initial_value=3.14, name='var_a')
b = tf.Variable(initial_value=[1, 2, 3], name='var_b')
c = tf.Variable(initial_value=[True, False], dtype=tf.bool)
d = tf.Variable(initial_value=['abc'], dtype=tf.string)
print(a)
print(b)
print(c)
print(d)
RESULTS['var_a'] = a
RESULTS['var_b'] = b
RESULTS['var_c'] = c
RESULTS['var_d'] = d.numpy().astype(str)
RESULTS['var_a_name'] = a.name

RESULTS['a_trainable'] = a.trainable

w = tf.Variable([1, 2, 3], trainable=False)

print(w.trainable)
RESULTS['w_trainable'] = w.trainable

print(w.assign([3, 1, 4], read_value=True))
RESULTS['w_assigned'] = w.numpy()
w.assign_add([2, -1, 2], read_value=False)

print(w.value())
RESULTS['w_value'] = w.value()

tf.random.set_seed(1)
init = tf.keras.initializers.GlorotNormal()

_i = init(shape=(3,))
tf.print(_i)
RESULTS['glorot_3'] = _i

v = tf.Variable(init(shape=(2, 3)))
tf.print(v)
RESULTS['glorot_v'] = v

class MyModule(tf.Module):
    def __init__(self):
        init = tf.keras.initializers.GlorotNormal()
        self.w1 = tf.Variable(init(shape=(2, 3)), trainable=True)
        self.w2 = tf.Variable(init(shape=(1, 2)), trainable=False)
                
m = MyModule()
print('All module variables: ', [v.shape for v in m.variables])
print('Trainable variable:   ', [v.shape for v in
                                 m.trainable_variables])
RESULTS['module_variable_shapes'] = [list(v.shape) for v in m.variables]
RESULTS['module_trainable_shapes'] = [list(v.shape) for v in m.trainable_variables]

tf.random.set_seed(1)
w = tf.Variable(tf.random.uniform((3, 3)))

@tf.function
def compute_z(x):    
    return tf.matmul(w, x)

x = tf.constant([[1], [2], [3]], dtype=tf.float32)
tf.print(compute_z(x))
RESULTS['compute_z_matmul'] = compute_z(x)

w = tf.Variable(1.0)
b = tf.Variable(0.5)
print(w.trainable, b.trainable)
RESULTS['wb_trainable'] = [w.trainable, b.trainable]

x = tf.convert_to_tensor([1.4])
y = tf.convert_to_tensor([2.1])

with tf.GradientTape() as tape:
    z = tf.add(tf.multiply(w, x), b)
    loss = tf.reduce_sum(tf.square(y - z))

dloss_dw = tape.gradient(loss, w)

tf.print('dL/dw : ', dloss_dw)
RESULTS['dloss_dw'] = dloss_dw

#tf.print(-2*x * (-b - w*x + y))

tf.print(2*x * ((w*x + b) - y))
RESULTS['dloss_dw_check'] = 2*x * ((w*x + b) - y)

with tf.GradientTape() as tape:
    tape.watch(x)
    z = tf.add(tf.multiply(w, x), b)
    loss = tf.square(y - z)

dloss_dx = tape.gradient(loss, x)

tf.print('dL/dx:', dloss_dx)
RESULTS['dloss_dx'] = dloss_dx

tf.print(2*w * ((w*x + b) - y))
RESULTS['dloss_dx_check'] = 2*w * ((w*x + b) - y)

with tf.GradientTape(persistent=True) as tape:
    z = tf.add(tf.multiply(w, x), b)
    loss = tf.reduce_sum(tf.square(y - z))

dloss_dw = tape.gradient(loss, w)
dloss_db = tape.gradient(loss, b)

tf.print('dL/dw:', dloss_dw)
tf.print('dL/db:', dloss_db)
RESULTS['persistent_dloss_dw'] = dloss_dw
RESULTS['persistent_dloss_db'] = dloss_db

optimizer = tf.keras.optimizers.SGD()

optimizer.apply_gradients(zip([dloss_dw, dloss_db], [w, b]))

tf.print('Updated w:', w)
tf.print('Updated bias:', b)
RESULTS['updated_w'] = w
RESULTS['updated_b'] = b

model = tf.keras.Sequential()
model.add(tf.keras.layers.Dense(units=16, activation='relu'))
model.add(tf.keras.layers.Dense(units=32, activation='relu'))

## late variable creation
model.build(input_shape=(None, 4))
model.summary()

## printing variables of the model
for v in model.variables:
    print('{:20s}'.format(v.name), v.trainable, v.shape)
RESULTS['model_variable_names'] = [v.name for v in model.variables]
RESULTS['model_variable_shapes'] = [int(np.prod(v.shape)) for v in model.variables]

model = tf.keras.Sequential()

model.add(
    tf.keras.layers.Dense(
        units=16, 
        activation=tf.keras.activations.relu,
        kernel_initializer=tf.keras.initializers.GlorotNormal(),
        bias_initializer=tf.keras.initializers.Constant(2.0)
    ))

model.add(
    tf.keras.layers.Dense(
        units=32, 
        activation=tf.keras.activations.sigmoid,
        kernel_regularizer=tf.keras.regularizers.l1
    ))

model.build(input_shape=(None, 4))
model.summary()

model.compile(
    optimizer=tf.keras.optimizers.SGD(learning_rate=0.001),
    loss=tf.keras.losses.BinaryCrossentropy(),
    metrics=[tf.keras.metrics.Accuracy(), 
             tf.keras.metrics.Precision(),
             tf.keras.metrics.Recall(),])
RESULTS['regularized_model_params'] = model.count_params()
RESULTS['regularized_model_losses'] = model.losses[0] if model.losses else 0.0
RESULTS['regularized_bias_0'] = model.layers[0].bias

tf.random.set_seed(1)
np.random.seed(1)

x = np.random.uniform(low=-1, high=1, size=(200, 2))
y = np.ones(len(x))
y[x[:, 0] * x[:, 1]<0] = 0

x_train = x[:100, :]
y_train = y[:100]
x_valid = x[100:, :]
y_valid = y[100:]
RESULTS['x'] = x
RESULTS['y'] = y

model = tf.keras.Sequential()
model.add(tf.keras.layers.Dense(units=1, 
                                input_shape=(2,), 
                                activation='sigmoid'))

model.summary()

model.compile(optimizer=tf.keras.optimizers.SGD(),
              loss=tf.keras.losses.BinaryCrossentropy(),
              metrics=[tf.keras.metrics.BinaryAccuracy()])

hist = model.fit(x_train, y_train, 
                 validation_data=(x_valid, y_valid), 
                 epochs=4, batch_size=2, verbose=0)

history = hist.history

for _k, _v in history.items():
    RESULTS["model1_history_" + _k] = _v
RESULTS["model1_valid_predictions"] = model.predict(x_valid, verbose=0)

tf.random.set_seed(1)

model = tf.keras.Sequential()
model.add(tf.keras.layers.Dense(units=4, input_shape=(2,), activation='relu'))
model.add(tf.keras.layers.Dense(units=4, activation='relu'))
model.add(tf.keras.layers.Dense(units=4, activation='relu'))
model.add(tf.keras.layers.Dense(units=1, activation='sigmoid'))

model.summary()

## compile:
model.compile(optimizer=tf.keras.optimizers.SGD(),
              loss=tf.keras.losses.BinaryCrossentropy(),
              metrics=[tf.keras.metrics.BinaryAccuracy()])

## train:
hist = model.fit(x_train, y_train, 
                 validation_data=(x_valid, y_valid), 
                 epochs=4, batch_size=2, verbose=0)

history = hist.history

for _k, _v in history.items():
    RESULTS["model2_history_" + _k] = _v
RESULTS["model2_valid_predictions"] = model.predict(x_valid, verbose=0)

tf.random.set_seed(1)

## input layer:
inputs = tf.keras.Input(shape=(2,))

## hidden layers
h1 = tf.keras.layers.Dense(units=4, activation='relu')(inputs)
h2 = tf.keras.layers.Dense(units=4, activation='relu')(h1)
h3 = tf.keras.layers.Dense(units=4, activation='relu')(h2)

## output:
outputs = tf.keras.layers.Dense(units=1, activation='sigmoid')(h3)

## construct a model:
model = tf.keras.Model(inputs=inputs, outputs=outputs)

model.summary()

## compile:
model.compile(optimizer=tf.keras.optimizers.SGD(),
              loss=tf.keras.losses.BinaryCrossentropy(),
              metrics=[tf.keras.metrics.BinaryAccuracy()])

## train:
hist = model.fit(x_train, y_train, 
                 validation_data=(x_valid, y_valid), 
                 epochs=4, batch_size=2, verbose=0)

## Plotting
history = hist.history

for _k, _v in history.items():
    RESULTS["model3_history_" + _k] = _v
RESULTS["model3_valid_predictions"] = model.predict(x_valid, verbose=0)

class MyModel(tf.keras.Model):
    def __init__(self):
        super(MyModel, self).__init__()
        self.hidden_1 = tf.keras.layers.Dense(units=4, activation='relu')
        self.hidden_2 = tf.keras.layers.Dense(units=4, activation='relu')
        self.hidden_3 = tf.keras.layers.Dense(units=4, activation='relu')
        self.output_layer = tf.keras.layers.Dense(units=1, activation='sigmoid')
        
    def call(self, inputs):
        h = self.hidden_1(inputs)
        h = self.hidden_2(h)
        h = self.hidden_3(h)
        return self.output_layer(h)
    
tf.random.set_seed(1)

## testing:
model = MyModel()
model.build(input_shape=(None, 2))

model.summary()

## compile:
model.compile(optimizer=tf.keras.optimizers.SGD(),
              loss=tf.keras.losses.BinaryCrossentropy(),
              metrics=[tf.keras.metrics.BinaryAccuracy()])

## train:
hist = model.fit(x_train, y_train, 
                 validation_data=(x_valid, y_valid), 
                 epochs=4, batch_size=2, verbose=0)

## Plotting
history = hist.history

for _k, _v in history.items():
    RESULTS["model4_history_" + _k] = _v
RESULTS["model4_valid_predictions"] = model.predict(x_valid, verbose=0)

class NoisyLinear(tf.keras.layers.Layer):
    def __init__(self, output_dim, noise_stddev=0.1, **kwargs):
        self.output_dim = output_dim
        self.noise_stddev = noise_stddev
        super(NoisyLinear, self).__init__(**kwargs)

    def build(self, input_shape):
        self.w = self.add_weight(name='weights',
                                 shape=(input_shape[1], self.output_dim),
                                 initializer='random_normal',
                                 trainable=True)
        
        self.b = self.add_weight(shape=(self.output_dim,),
                                 initializer='zeros',
                                 trainable=True)

    def call(self, inputs, training=False):
        if training:
            batch = tf.shape(inputs)[0]
            dim = tf.shape(inputs)[1]
            noise = tf.random.normal(shape=(batch, dim),
                                     mean=0.0,
                                     stddev=self.noise_stddev)

            noisy_inputs = tf.add(inputs, noise)
        else:
            noisy_inputs = inputs
        z = tf.matmul(noisy_inputs, self.w) + self.b
        return tf.keras.activations.relu(z)
    
    def get_config(self):
        config = super(NoisyLinear, self).get_config()
        config.update({'output_dim': self.output_dim,
                       'noise_stddev': self.noise_stddev})
        return config

## testing:

tf.random.set_seed(1)

noisy_layer = NoisyLinear(4)
noisy_layer.build(input_shape=(None, 4))

x = tf.zeros(shape=(1, 4))
_o = noisy_layer(x, training=True)
tf.print(_o)
RESULTS['noisy_layer_out'] = _o

## re-building from config:
config = noisy_layer.get_config()
new_layer = NoisyLinear.from_config(config)
_o = new_layer(x, training=True)
tf.print(_o)
RESULTS['new_layer_out'] = _o
RESULTS['noisy_config_output_dim'] = config['output_dim']
RESULTS['noisy_config_noise_stddev'] = config['noise_stddev']

tf.random.set_seed(1)

model = tf.keras.Sequential([
    NoisyLinear(4, noise_stddev=0.1),
    tf.keras.layers.Dense(units=4, activation='relu'),
    tf.keras.layers.Dense(units=4, activation='relu'),
    tf.keras.layers.Dense(units=1, activation='sigmoid')])

model.build(input_shape=(None, 2))
model.summary()

## compile:
model.compile(optimizer=tf.keras.optimizers.SGD(),
              loss=tf.keras.losses.BinaryCrossentropy(),
              metrics=[tf.keras.metrics.BinaryAccuracy()])

## train:
hist = model.fit(x_train, y_train, 
                 validation_data=(x_valid, y_valid), 
                 epochs=4, batch_size=2, 
                 verbose=0)

## Plotting
history = hist.history

for _k, _v in history.items():
    RESULTS["model5_history_" + _k] = _v
RESULTS["model5_valid_predictions"] = model.predict(x_valid, verbose=0)
