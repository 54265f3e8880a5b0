"""Title: Chapter 13: Parallelizing Neural Network Training with TensorFlow (Part 2/3) (Python Machine Learning, 3rd ed.)
Source: https://github.com/rasbt/python-machine-learning-book-3rd-edition/blob/bf62496f44a92a21d23250d5ed13d2d2e617e0e2/ch13/ch13_part2.py
Licence: MIT (rasbt/python-machine-learning-book-3rd-edition)
Changed: the chapter script's code in order (its markdown comment lines dropped) up to the
final "Attention" section, which is left out (it needs TFDS and uses tfds.Split.TRAIN.subsplit,
an API TFDS no longer has); the matplotlib and tensorflow_datasets imports and every plotting
block removed (what they drew is recorded: the weight/bias traces, predictions, histories and
activation curves); keras.utils.set_random_seed(0) after the imports (the Keras 3 initializers
ignore tf.random.set_seed); num_epochs 200 -> 10 for the hand-written GradientTape loop and the
fit of the same model, and 100 -> 10 for the Iris model; the TFDS Iris dataset -> a dict with a
tf.data dataset 'train' of dicts with 'features' (float32, 4) and 'label' (int64), 150
synthetic examples from a seeded NumPy generator (features shifted by the label so they are
learnable); iris_model.save(...) writes into a temporary directory and loses its
save_format='h5' argument, which Keras 3 refuses (the .h5 suffix already selects the HDF5
format), and load_model reads it from there; the bare expressions the script's notebook shows
(loss_fn(yt, yp), to_json(), np.sum, the activation values) and the printed values -> RESULTS
(to_json as the list of its layers' class names; the "wrong way" split as whether its train and
test sets overlap). Keras 3's fit needs an int steps_per_epoch, so the Iris cell's
steps_per_epoch = np.ceil(training_size / batch_size) becomes int(np.ceil(...)) (the smallest
change that runs).
"""
import json
import os
import tempfile

RESULTS = {}
import tensorflow as tf
import numpy as np
from scipy.special import expit
import keras
keras.utils.set_random_seed(0)

_tmp = tempfile.mkdtemp()

X_train = np.arange(10).reshape((10, 1))
y_train = np.array([1.0, 1.3, 3.1,
                    2.0, 5.0, 6.3,
                    6.6, 7.4, 8.0,
                    9.0])

X_train_norm = (X_train - np.mean(X_train))/np.std(X_train)

ds_train_orig = tf.data.Dataset.from_tensor_slices(
    (tf.cast(X_train_norm, tf.float32),
     tf.cast(y_train, tf.float32)))

class MyModel(tf.keras.Model):
    def __init__(self):
        super(MyModel, self).__init__()
        self.w = tf.Variable(0.0, name='weight')
        self.b = tf.Variable(0.0, name='bias')

    def call(self, x):
        return self.w*x + self.b

model = MyModel()

model.build(input_shape=(None, 1))
model.summary()
RESULTS['mymodel_weights'] = [v.numpy() for v in model.weights]

def loss_fn(y_true, y_pred):
    return tf.reduce_mean(tf.square(y_true - y_pred))

## testing the function:
yt = tf.convert_to_tensor([1.0])
yp = tf.convert_to_tensor([1.5])

RESULTS['loss_fn_test'] = loss_fn(yt, yp)

def train(model, inputs, outputs, learning_rate):
    with tf.GradientTape() as tape:
        current_loss = loss_fn(model(inputs), outputs)
    dW, db = tape.gradient(current_loss, [model.w, model.b])
    model.w.assign_sub(learning_rate * dW)
    model.b.assign_sub(learning_rate * db)

tf.random.set_seed(1)

num_epochs = 10
log_steps = 100
learning_rate = 0.001
batch_size = 1
steps_per_epoch = int(np.ceil(len(y_train) / batch_size))

ds_train = ds_train_orig.shuffle(buffer_size=len(y_train))
ds_train = ds_train.repeat(count=None)
ds_train = ds_train.batch(1)

Ws, bs = [], []

for i, batch in enumerate(ds_train):
    if i >= steps_per_epoch * num_epochs:
        break
    Ws.append(model.w.numpy())
    bs.append(model.b.numpy())

    bx, by = batch
    loss_val = loss_fn(model(bx), by)

    train(model, bx, by, learning_rate=learning_rate)
    if i%log_steps==0:
        print('Epoch {:4d} Step {:2d} Loss {:6.4f}'.format(
              int(i/steps_per_epoch), i, loss_val))

print('Final Parameters:', model.w.numpy(), model.b.numpy())
RESULTS['manual_Ws'] = Ws
RESULTS['manual_bs'] = bs
RESULTS['manual_final'] = [model.w.numpy(), model.b.numpy()]

X_test = np.linspace(0, 9, num=100).reshape(-1, 1)
X_test_norm = (X_test - np.mean(X_train)) / np.std(X_train)

y_pred = model(tf.cast(X_test_norm, dtype=tf.float32))
RESULTS['y_pred_%d' % len([k for k in RESULTS if k.startswith('y_pred_')])] = y_pred

tf.random.set_seed(1)
model = MyModel()
#model.build((None, 1))

model.compile(optimizer='sgd', 
              loss=loss_fn,
              metrics=['mae', 'mse'])

_h = model.fit(X_train_norm, y_train, 
          epochs=num_epochs, batch_size=batch_size,
          verbose=1)
RESULTS['fit_history_loss'] = _h.history['loss']
RESULTS['fit_history_mae'] = _h.history['mae']

print(model.w.numpy(), model.b.numpy())
RESULTS['fit_final'] = [model.w.numpy(), model.b.numpy()]

X_test = np.linspace(0, 9, num=100).reshape(-1, 1)
X_test_norm = (X_test - np.mean(X_train)) / np.std(X_train)

y_pred = model(tf.cast(X_test_norm, dtype=tf.float32))
RESULTS['y_pred_%d' % len([k for k in RESULTS if k.startswith('y_pred_')])] = y_pred

_rng = np.random.default_rng(0)
_iris_label = _rng.integers(0, 3, (150,)).astype(np.int64)
_iris_features = (_rng.normal(size=(150, 4)) + _iris_label[:, None]).astype(np.float32)
iris = {'train': tf.data.Dataset.from_tensor_slices(
    {'features': _iris_features, 'label': _iris_label})}

tf.random.set_seed(1)

ds_orig = iris['train']
ds_orig = ds_orig.shuffle(150, reshuffle_each_iteration=False)

print(next(iter(ds_orig)))
RESULTS['first_shuffled_features'] = next(iter(ds_orig))['features']

ds_train_orig = ds_orig.take(100)
ds_test = ds_orig.skip(100)

## checking the number of examples:

n = 0
for example in ds_train_orig:
    n += 1
print(n)
RESULTS['n_train'] = n

n = 0
for example in ds_test:
    n += 1
print(n)
RESULTS['n_test'] = n

ds_train_orig = ds_train_orig.map(
    lambda x: (x['features'], x['label']))

ds_test = ds_test.map(
    lambda x: (x['features'], x['label']))

RESULTS['first_train_pair_label'] = next(iter(ds_train_orig))[1]

iris_model = tf.keras.Sequential([
    tf.keras.layers.Dense(16, activation='sigmoid', 
                          name='fc1', input_shape=(4,)),
    tf.keras.layers.Dense(3, name='fc2', activation='softmax')])

iris_model.summary()

iris_model.compile(optimizer='adam',
                   loss='sparse_categorical_crossentropy',
                   metrics=['accuracy'])

num_epochs = 10
training_size = 100
batch_size = 2
steps_per_epoch = int(np.ceil(training_size / batch_size))

ds_train = ds_train_orig.shuffle(buffer_size=training_size)
ds_train = ds_train.repeat()
ds_train = ds_train.batch(batch_size=batch_size)
ds_train = ds_train.prefetch(buffer_size=1000)

history = iris_model.fit(ds_train, epochs=num_epochs,
                         steps_per_epoch=steps_per_epoch, 
                         verbose=0)

hist = history.history
RESULTS['iris_history_loss'] = hist['loss']
RESULTS['iris_history_accuracy'] = hist['accuracy']

results = iris_model.evaluate(ds_test.batch(50), verbose=0)
print('Test loss: {:.4f}   Test Acc.: {:.4f}'.format(*results))
RESULTS['iris_test_results'] = results

iris_model.save(os.path.join(_tmp, 'iris-classifier.h5'), 
                overwrite=True,
                include_optimizer=True)

iris_model_new = tf.keras.models.load_model(os.path.join(_tmp, 'iris-classifier.h5'))

iris_model_new.summary()

results = iris_model_new.evaluate(ds_test.batch(50), verbose=0)
print('Test loss: {:.4f}   Test Acc.: {:.4f}'.format(*results))
RESULTS['iris_reloaded_test_results'] = results

labels_train = []
for i,item in enumerate(ds_train_orig):
    labels_train.append(item[1].numpy())
    
labels_test = []
for i,item in enumerate(ds_test):
    labels_test.append(item[1].numpy())
print('Training Set: ',len(labels_train), 'Test Set: ', len(labels_test))
RESULTS['labels_train'] = labels_train
RESULTS['labels_test'] = labels_test

RESULTS['to_json_layer_classes'] = [l['class_name'] for l in json.loads(iris_model_new.to_json())['config']['layers']]

X = np.array([1, 1.4, 2.5]) ## first value must be 1
w = np.array([0.4, 0.3, 0.5])

def net_input(X, w):
    return np.dot(X, w)

def logistic(z):
    return 1.0 / (1.0 + np.exp(-z))

def logistic_activation(X, w):
    z = net_input(X, w)
    return logistic(z)

print('P(y=1|x) = %.3f' % logistic_activation(X, w)) 
RESULTS['p_y1'] = logistic_activation(X, w)

W = np.array([[1.1, 1.2, 0.8, 0.4],
              [0.2, 0.4, 1.0, 0.2],
              [0.6, 1.5, 1.2, 0.7]])

A = np.array([[1, 0.1, 0.4, 0.6]])
Z = np.dot(W, A[0])
y_probas = logistic(Z)
print('Net Input: \n', Z)

print('Output Units:\n', y_probas) 
RESULTS['Z'] = Z
RESULTS['logistic_probas'] = y_probas

y_class = np.argmax(Z, axis=0)
print('Predicted class label: %d' % y_class) 
RESULTS['y_class'] = y_class

def softmax(z):
    return np.exp(z) / np.sum(np.exp(z))

y_probas = softmax(Z)
print('Probabilities:\n', y_probas)

RESULTS['softmax_probas'] = y_probas
RESULTS['softmax_sum'] = np.sum(y_probas)

Z_tensor = tf.expand_dims(Z, axis=0)
RESULTS['keras_softmax'] = tf.keras.activations.softmax(Z_tensor)

def tanh(z):
    e_p = np.exp(z)
    e_m = np.exp(-z)
    return (e_p - e_m) / (e_p + e_m)

z = np.arange(-5, 5, 0.005)
log_act = logistic(z)
tanh_act = tanh(z)

RESULTS['np_tanh'] = np.tanh(z)
RESULTS['own_tanh'] = tanh_act
RESULTS['own_logistic'] = log_act

RESULTS['keras_tanh'] = tf.keras.activations.tanh(z)

RESULTS['expit'] = expit(z)

RESULTS['keras_sigmoid'] = tf.keras.activations.sigmoid(z)

RESULTS['keras_relu'] = tf.keras.activations.relu(z)

## the correct way:
ds = tf.data.Dataset.range(15)
ds = ds.shuffle(15, reshuffle_each_iteration=False)

ds_train = ds.take(10)
ds_test = ds.skip(10)

ds_train = ds_train.shuffle(10).repeat(10)
ds_test = ds_test.shuffle(5)
ds_test = ds_test.repeat(10)

set_train = set()
for i,item in enumerate(ds_train):
    set_train.add(item.numpy())

set_test = set()
for i,item in enumerate(ds_test):
    set_test.add(item.numpy())

print(set_train, set_test)
RESULTS['correct_split_train'] = sorted(set_train)
RESULTS['correct_split_test'] = sorted(set_test)

## The wrong way:
ds = tf.data.Dataset.range(15)
ds = ds.shuffle(15, reshuffle_each_iteration=True)

ds_train = ds.take(10)
ds_test = ds.skip(10)

ds_train = ds_train.shuffle(10).repeat(10)
ds_test = ds_test.shuffle(5)
ds_test = ds_test.repeat(10)

set_train = set()
for i,item in enumerate(ds_train):
    set_train.add(item.numpy())

set_test = set()
for i,item in enumerate(ds_test):
    set_test.add(item.numpy())

print(set_train, set_test)
RESULTS['wrong_split_overlap'] = len(set_train & set_test) > 0
