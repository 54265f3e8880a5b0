"""Title: Chapter 15: Classifying Images with Deep Convolutional Neural Networks (Part 1/2) (Python Machine Learning, 3rd ed.)
Source: https://github.com/rasbt/python-machine-learning-book-3rd-edition/blob/bf62496f44a92a21d23250d5ed13d2d2e617e0e2/ch15/ch15_part1.py
Licence: MIT (rasbt/python-machine-learning-book-3rd-edition)
Changed: the chapter script's code in order (its markdown comment lines dropped);
keras.utils.set_random_seed(0) after the imports (the Keras 3 initializers and Dropout ignore
tf.random.set_seed); the tensorflow_datasets, pandas and matplotlib imports removed; imageio is
not installed, so `imageio.imread` is a small stand-in (`imageio` below) that reads the PNG files
with zlib and NumPy; the chapter's example-image.png / example-image-gray.png -> synthetic
uint8 252x221 RGB and grayscale images from a seeded NumPy generator, written as PNG files into
a temporary directory (the script runs there, so its models/ folder goes there too); the TFDS
MNIST builder -> a dict of two tf.data datasets of dicts with 'image' (uint8 28x28x1) and
'label' (int64), the same structure as TFDS's: 768 training and 120 test synthetic images;
take(10000)/skip(10000) for the validation split -> take(128)/skip(128); NUM_EPOCHS 20 -> 2;
the two plotting blocks (learning curves and the 12 predicted digits) removed, the history and
predictions recorded instead; the bare model.compute_output_shape(...) expressions (shown by the
notebook) are recorded; the printed values -> RESULTS. Keras 3's losses refuse a Python list as
y_true next to a tensor y_pred ("Expected an instance of list"), so the y_true lists of the
loss examples, [1], [[0, 0, 1]] and [2], are wrapped in np.array (the smallest change that runs).
"""
import os
import struct
import tempfile
import zlib

import numpy as np

RESULTS = {}
_cwd = os.getcwd()


def _png_write(path, array):
    # (writes an 8-bit grayscale or RGB PNG, filter type 0 on every row)
    height, width = array.shape[:2]
    color = 2 if array.ndim == 3 else 0
    raw = b"".join(b"\x00" + array[i].tobytes() for i in range(height))
    def chunk(kind, data):
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff))
    with open(path, "wb") as fh:
        fh.write(b"\x89PNG\r\n\x1a\n"
                 + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, color, 0, 0, 0))
                 + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


class imageio:
    # (stands in for imageio.imread on the PNG files written by _png_write)
    @staticmethod
    def imread(path):
        with open(path, "rb") as fh:
            data = fh.read()
        pos, idat = 8, b""
        while pos < len(data):
            length, kind = struct.unpack(">I4s", data[pos:pos + 8])
            body = data[pos + 8:pos + 8 + length]
            if kind == b"IHDR":
                width, height, _, color = struct.unpack(">IIBB", body[:10])
            elif kind == b"IDAT":
                idat += body
            pos += 12 + length
        channels = 3 if color == 2 else 1
        rows = np.frombuffer(zlib.decompress(idat), np.uint8).reshape(height, 1 + width * channels)
        img = rows[:, 1:].reshape((height, width, channels) if channels == 3 else (height, width))
        return img.copy()

import tensorflow as tf
import numpy as np
import scipy.signal
from tensorflow import keras
import os
from distutils.version import LooseVersion as Version
keras.utils.set_random_seed(0)

print('TensorFlow version:', tf.__version__)
print('NumPy version: ', np.__version__)

_tmp = tempfile.mkdtemp()
os.chdir(_tmp)
_rng = np.random.default_rng(0)
_png_write('example-image.png', _rng.integers(0, 256, (252, 221, 3)).astype(np.uint8))
_png_write('example-image-gray.png', _rng.integers(0, 256, (252, 221)).astype(np.uint8))

def conv1d(x, w, p=0, s=1):
    w_rot = np.array(w[::-1])
    x_padded = np.array(x)
    if p > 0:
        zero_pad = np.zeros(shape=p)
        x_padded = np.concatenate(
            [zero_pad, x_padded, zero_pad])
    res = []
    for i in range(0, int((len(x_padded) - len(w_rot)) / s) + 1, s):
        res.append(np.sum(
            x_padded[i:i+w_rot.shape[0]] * w_rot))
    return np.array(res)

## Testing:
x = [1, 3, 2, 4, 5, 6, 1, 3]
w = [1, 0, 3, 1, 2]

print('Conv1d Implementation:',
      conv1d(x, w, p=2, s=1))
RESULTS['conv1d'] = conv1d(x, w, p=2, s=1)

print('Numpy Results:',
      np.convolve(x, w, mode='same'))
RESULTS['np_convolve'] = np.convolve(x, w, mode='same')

def conv2d(X, W, p=(0, 0), s=(1, 1)):
    W_rot = np.array(W)[::-1,::-1]
    X_orig = np.array(X)
    n1 = X_orig.shape[0] + 2*p[0]
    n2 = X_orig.shape[1] + 2*p[1]
    X_padded = np.zeros(shape=(n1, n2))
    X_padded[p[0]:p[0]+X_orig.shape[0],
    p[1]:p[1]+X_orig.shape[1]] = X_orig

    res = []
    for i in range(0, int((X_padded.shape[0] - 
                           W_rot.shape[0])/s[0])+1, s[0]):
        res.append([])
        for j in range(0, int((X_padded.shape[1] - 
                               W_rot.shape[1])/s[1])+1, s[1]):
            X_sub = X_padded[i:i+W_rot.shape[0],
                             j:j+W_rot.shape[1]]
            res[-1].append(np.sum(X_sub * W_rot))
    return(np.array(res))

X = [[1, 3, 2, 4], [5, 6, 1, 3], [1, 2, 0, 2], [3, 4, 3, 2]]
W = [[1, 0, 3], [1, 2, 1], [0, 1, 1]]

print('Conv2d Implementation:\n',
    conv2d(X, W, p=(1, 1), s=(1, 1)))
RESULTS['conv2d'] = conv2d(X, W, p=(1, 1), s=(1, 1))

print('SciPy Results:\n',
    scipy.signal.convolve2d(X, W, mode='same'))
RESULTS['scipy_convolve2d'] = scipy.signal.convolve2d(X, W, mode='same')

img_raw = tf.io.read_file('example-image.png')
img = tf.image.decode_image(img_raw)
print('Image shape:', img.shape)
print('Number of channels:', img.shape[2])
print('Image data type:', img.dtype)
print(img[100:102, 100:102, :])
RESULTS['tf_img_shape'] = list(img.shape)
RESULTS['tf_img_dtype'] = img.dtype.name
RESULTS['tf_img_patch'] = img[100:102, 100:102, :]

img = imageio.imread('example-image.png')
print('Image shape:', img.shape)
print('Number of channels:', img.shape[2])
print('Image data type:', img.dtype)
print(img[100:102, 100:102, :])
RESULTS['imageio_img_patch'] = img[100:102, 100:102, :]

img_raw = tf.io.read_file('example-image-gray.png')
img = tf.image.decode_image(img_raw)
tf.print('Rank:', tf.rank(img))
tf.print('Shape:', img.shape)
RESULTS['tf_gray_rank'] = tf.rank(img)
RESULTS['tf_gray_shape'] = list(img.shape)

img = imageio.imread('example-image-gray.png')
tf.print('Rank:', tf.rank(img))
tf.print('Shape:', img.shape)
RESULTS['imageio_gray_rank'] = tf.rank(img)
RESULTS['imageio_gray_shape'] = list(img.shape)

img_reshaped = tf.reshape(img, (img.shape[0], img.shape[1], 1))
tf.print('New Shape:', img_reshaped.shape)
RESULTS['reshaped_gray'] = img_reshaped

conv_layer = keras.layers.Conv2D(
    filters=16, kernel_size=(3, 3),
    kernel_regularizer=keras.regularizers.l2(0.001))

fc_layer = keras.layers.Dense(
    units=16, kernel_regularizer=keras.regularizers.l2(0.001))

####### Binary Crossentropy
bce_probas = tf.keras.losses.BinaryCrossentropy(from_logits=False)
bce_logits = tf.keras.losses.BinaryCrossentropy(from_logits=True)

logits = tf.constant([0.8])
probas = tf.keras.activations.sigmoid(logits)

tf.print(
    'BCE (w Probas): {:.4f}'.format(
    bce_probas(y_true=np.array([1]), y_pred=probas)),
    '(w Logits): {:.4f}'.format(
    bce_logits(y_true=np.array([1]), y_pred=logits)))
RESULTS['bce_probas'] = bce_probas(y_true=np.array([1]), y_pred=probas)
RESULTS['bce_logits'] = bce_logits(y_true=np.array([1]), y_pred=logits)

####### Categorical Crossentropy
cce_probas = tf.keras.losses.CategoricalCrossentropy(
    from_logits=False)
cce_logits = tf.keras.losses.CategoricalCrossentropy(
    from_logits=True)

logits = tf.constant([[1.5, 0.8, 2.1]])
probas = tf.keras.activations.softmax(logits)

if Version(tf.__version__) >= '2.3.0':
    tf.print(
        'CCE (w Probas): {:.4f}'.format(
        cce_probas(y_true=np.array([[0, 0, 1]]), y_pred=probas)),
        '(w Logits): {:.4f}'.format(
        cce_logits(y_true=np.array([[0, 0, 1]]), y_pred=logits)))
    RESULTS['cce_probas'] = cce_probas(y_true=np.array([[0, 0, 1]]), y_pred=probas)
    RESULTS['cce_logits'] = cce_logits(y_true=np.array([[0, 0, 1]]), y_pred=logits)
    
else:
    tf.print(
        'CCE (w Probas): {:.4f}'.format(
        cce_probas(y_true=[0, 0, 1], y_pred=probas)),
        '(w Logits): {:.4f}'.format(
        cce_logits(y_true=[0, 0, 1], y_pred=logits)))

####### Sparse Categorical Crossentropy
sp_cce_probas = tf.keras.losses.SparseCategoricalCrossentropy(
    from_logits=False)
sp_cce_logits = tf.keras.losses.SparseCategoricalCrossentropy(
    from_logits=True)

tf.print(
    'Sparse CCE (w Probas): {:.4f}'.format(
    sp_cce_probas(y_true=np.array([2]), y_pred=probas)),
    '(w Logits): {:.4f}'.format(
    sp_cce_logits(y_true=np.array([2]), y_pred=logits)))
RESULTS['sp_cce_probas'] = sp_cce_probas(y_true=np.array([2]), y_pred=probas)
RESULTS['sp_cce_logits'] = sp_cce_logits(y_true=np.array([2]), y_pred=logits)

## MNIST dataset

datasets = {
    'test': tf.data.Dataset.from_tensor_slices({
        'image': _rng.integers(0, 256, (120, 28, 28, 1)).astype(np.uint8),
        'label': _rng.integers(0, 10, (120,)).astype(np.int64)}),
    'train': tf.data.Dataset.from_tensor_slices({
        'image': _rng.integers(0, 256, (768, 28, 28, 1)).astype(np.uint8),
        'label': _rng.integers(0, 10, (768,)).astype(np.int64)})}
print(datasets.keys())
mnist_train_orig, mnist_test_orig = datasets['train'], datasets['test']

BUFFER_SIZE = 10000
BATCH_SIZE = 64
NUM_EPOCHS = 2

mnist_train = mnist_train_orig.map(
    lambda item: (tf.cast(item['image'], tf.float32)/255.0, 
                  tf.cast(item['label'], tf.int32)))

mnist_test = mnist_test_orig.map(
    lambda item: (tf.cast(item['image'], tf.float32)/255.0, 
                  tf.cast(item['label'], tf.int32)))

tf.random.set_seed(1)

mnist_train = mnist_train.shuffle(buffer_size=BUFFER_SIZE,
                                  reshuffle_each_iteration=False)

mnist_valid = mnist_train.take(128).batch(BATCH_SIZE)
mnist_train = mnist_train.skip(128).batch(BATCH_SIZE)

model = tf.keras.Sequential()

model.add(tf.keras.layers.Conv2D(
    filters=32, kernel_size=(5, 5),
    strides=(1, 1), padding='same',
    data_format='channels_last',
    name='conv_1', activation='relu'))

model.add(tf.keras.layers.MaxPool2D(
    pool_size=(2, 2), name='pool_1'))
    
model.add(tf.keras.layers.Conv2D(
    filters=64, kernel_size=(5, 5),
    strides=(1, 1), padding='same',
    name='conv_2', activation='relu'))

model.add(tf.keras.layers.MaxPool2D(pool_size=(2, 2), name='pool_2'))

RESULTS['compute_output_shape_1'] = list(model.compute_output_shape(input_shape=(16, 28, 28, 1)))

model.add(tf.keras.layers.Flatten())

RESULTS['compute_output_shape_2'] = list(model.compute_output_shape(input_shape=(16, 28, 28, 1)))

model.add(tf.keras.layers.Dense(
    units=1024, name='fc_1', 
    activation='relu'))

model.add(tf.keras.layers.Dropout(
    rate=0.5))
    
model.add(tf.keras.layers.Dense(
    units=10, name='fc_2',
    activation='softmax'))

tf.random.set_seed(1)
model.build(input_shape=(None, 28, 28, 1))

RESULTS['compute_output_shape_3'] = list(model.compute_output_shape(input_shape=(16, 28, 28, 1)))

model.summary()

model.compile(optimizer=tf.keras.optimizers.Adam(),
              loss=tf.keras.losses.SparseCategoricalCrossentropy(),
              metrics=['accuracy']) # same as `tf.keras.metrics.SparseCategoricalAccuracy(name='accuracy')`

history = model.fit(mnist_train, epochs=NUM_EPOCHS, 
                    validation_data=mnist_valid, 
                    shuffle=True)

hist = history.history
x_arr = np.arange(len(hist['loss'])) + 1
for _k in ('loss', 'val_loss', 'accuracy', 'val_accuracy'):
    RESULTS['history_' + _k] = hist[_k]

test_results = model.evaluate(mnist_test.batch(20))
print('\nTest Acc. {:.2f}%'.format(test_results[1]*100))
RESULTS['test_results'] = test_results

batch_test = next(iter(mnist_test.batch(12)))

preds = model(batch_test[0])

tf.print(preds.shape)
RESULTS['preds_probs'] = preds
preds = tf.argmax(preds, axis=1)
print(preds)
RESULTS['preds'] = preds

if not os.path.exists('models'):
    os.mkdir('models')

model.save('models/mnist-cnn.h5')
RESULTS['saved_h5_exists'] = os.path.exists('models/mnist-cnn.h5')
os.chdir(_cwd)
