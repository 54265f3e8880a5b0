"""Title: Video classification with a 3D convolutional neural network (TensorFlow tutorial)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/tutorials/video/video_classification.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: the tutorial's code cells in order; the pip cell removed; keras.utils.set_random_seed(0)
at the top (the tutorial is unseeded: random.shuffle/randint, the initializers); the tqdm, cv2,
einops, remotezip, seaborn and matplotlib imports removed (not installed): the UCF101 subset
download (download_ufc_101_subset over a RemoteZip) -> empty "v_<Class>_g01_c0<i>.avi" files
for the first 10 UCF101 classes written to a temporary directory (2 train, 1 val, 1 test per
class; the tutorial downloads 30/10/10), and cv2.VideoCapture -> a small stand-in class with the
same get/set/read calls that yields 40 synthetic uint8 BGR 48x64 frames per file from a
NumPy generator seeded by the file name, so frames_from_video_file() and FrameGenerator run as
published; frames_from_video_file's output_size default (224, 224) -> (32, 32) and HEIGHT,
WIDTH 224 -> 32, to keep the run short; ResizeVideo.call's einops.parse_shape/rearrange ->
the equivalent tf.shape/tf.reshape calls; the plot_model, plot_history and confusion-matrix
heatmap cells removed (the confusion matrices kept as values); epochs 50 -> 1; the history,
evaluation, predictions, confusion matrices, precision and recall -> RESULTS. The first cell's
download helpers that are never called once the download is replaced (download_from_zip,
split_class_lists, download_ufc_101_subset) removed, and the functions' long docstrings
shortened.
"""
RESULTS = {}

import os
import tempfile
import zlib

import random
import pathlib
import itertools
import collections

import numpy as np

import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(0)


class _SyntheticVideoCapture:
  """Stand-in for cv2.VideoCapture: 40 frames of 48x64x3 uint8 BGR, seeded by the file name."""
  def __init__(self, path):
    rng = np.random.default_rng(zlib.crc32(pathlib.Path(path).name.encode()))
    self.frames = rng.integers(0, 256, (40, 48, 64, 3)).astype(np.uint8)
    self.pos = 0

  def get(self, prop):
    return float(len(self.frames))

  def set(self, prop, value):
    self.pos = int(value)

  def read(self):
    if self.pos >= len(self.frames):
      return False, None
    self.pos += 1
    return True, self.frames[self.pos - 1]

  def release(self):
    pass


class cv2:
  CAP_PROP_FRAME_COUNT = 7
  CAP_PROP_POS_FRAMES = 1
  VideoCapture = _SyntheticVideoCapture

#@title

def list_files_per_class(zip_url):
  """
    List the files in each class of the dataset given the zip URL.
  """
  files = []
  with rz.RemoteZip(URL) as zip:
    for zip_info in zip.infolist():
      files.append(zip_info.filename)
  return files

def get_class(fname):
  """
    Retrieve the name of the class given a filename.
  """
  return fname.split('_')[-3]

def get_files_per_class(files):
  """
    Retrieve the files that belong to each class. 
  """
  files_for_class = collections.defaultdict(list)
  for fname in files:
    class_name = get_class(fname)
    files_for_class[class_name].append(fname)
  return files_for_class

def format_frames(frame, output_size):
  """
    Pad and resize an image from a video.
  """
  frame = tf.image.convert_image_dtype(frame, tf.float32)
  frame = tf.image.resize_with_pad(frame, *output_size)
  return frame

def frames_from_video_file(video_path, n_frames, output_size = (32,32), frame_step = 15):
  """
    Creates frames from each video file present for each category.
  """
  # Read each video frame by frame
  result = []
  src = cv2.VideoCapture(str(video_path))  

  video_length = src.get(cv2.CAP_PROP_FRAME_COUNT)

  need_length = 1 + (n_frames - 1) * frame_step

  if need_length > video_length:
    start = 0
  else:
    max_start = video_length - need_length
    start = random.randint(0, max_start + 1)

  src.set(cv2.CAP_PROP_POS_FRAMES, start)
  # ret is a boolean indicating whether read was successful, frame is the image itself
  ret, frame = src.read()
  result.append(format_frames(frame, output_size))

  for _ in range(n_frames - 1):
    for _ in range(frame_step):
      ret, frame = src.read()
    if ret:
      frame = format_frames(frame, output_size)
      result.append(frame)
    else:
      result.append(np.zeros_like(result[0]))
  src.release()
  result = np.array(result)[..., [2, 1, 0]]

  return result

class FrameGenerator:
  def __init__(self, path, n_frames, training = False):
    """ Returns a set of frames with their associated label. 
    """
    self.path = path
    self.n_frames = n_frames
    self.training = training
    self.class_names = sorted(set(p.name for p in self.path.iterdir() if p.is_dir()))
    self.class_ids_for_name = dict((name, idx) for idx, name in enumerate(self.class_names))

  def get_files_and_class_names(self):
    video_paths = list(self.path.glob('*/*.avi'))
    classes = [p.parent.name for p in video_paths] 
    return video_paths, classes

  def __call__(self):
    video_paths, classes = self.get_files_and_class_names()

    pairs = list(zip(video_paths, classes))

    if self.training:
      random.shuffle(pairs)

    for path, name in pairs:
      video_frames = frames_from_video_file(path, self.n_frames) 
      label = self.class_ids_for_name[name] # Encode labels
      yield video_frames, label

# (instead of download_ufc_101_subset: empty files in the UCF101 layout)
download_dir = pathlib.Path(tempfile.mkdtemp()) / 'UCF101_subset'
_classes = ["ApplyEyeMakeup", "ApplyLipstick", "Archery", "BabyCrawling", "BalanceBeam",
            "BandMarching", "BaseballPitch", "Basketball", "BasketballDunk", "BenchPress"]
subset_paths = {}
for _split, _count, _first in (("train", 2, 1), ("val", 1, 3), ("test", 1, 4)):
  for _cls in _classes:
    os.makedirs(download_dir / _split / _cls)
    for _i in range(_first, _first + _count):
      (download_dir / _split / _cls / f"v_{_cls}_g01_c0{_i}.avi").write_bytes(b"")
  subset_paths[_split] = download_dir / _split
RESULTS["get_class"] = get_class("v_ApplyEyeMakeup_g01_c01.avi")
_sample = frames_from_video_file(sorted(subset_paths["train"].glob("*/*.avi"))[0], 10)
RESULTS["sample_frames_shape"] = _sample.shape
RESULTS["sample_frames_corner"] = _sample[:3, :2, :2, :]

n_frames = 10
batch_size = 8

output_signature = (tf.TensorSpec(shape = (None, None, None, 3), dtype = tf.float32),
                    tf.TensorSpec(shape = (), dtype = tf.int16))

train_ds = tf.data.Dataset.from_generator(FrameGenerator(subset_paths['train'], n_frames, training=True),
                                          output_signature = output_signature)


# Batch the data
train_ds = train_ds.batch(batch_size)

val_ds = tf.data.Dataset.from_generator(FrameGenerator(subset_paths['val'], n_frames),
                                        output_signature = output_signature)
val_ds = val_ds.batch(batch_size)

test_ds = tf.data.Dataset.from_generator(FrameGenerator(subset_paths['test'], n_frames),
                                         output_signature = output_signature)

test_ds = test_ds.batch(batch_size)

# Define the dimensions of one frame in the set of frames created
HEIGHT = 32
WIDTH = 32

class Conv2Plus1D(keras.layers.Layer):
  def __init__(self, filters, kernel_size, padding):
    """
      A sequence of convolutional layers that first apply the convolution operation over the
      spatial dimensions, and then the temporal dimension. 
    """
    super().__init__()
    self.seq = keras.Sequential([  
        # Spatial decomposition
        layers.Conv3D(filters=filters,
                      kernel_size=(1, kernel_size[1], kernel_size[2]),
                      padding=padding),
        # Temporal decomposition
        layers.Conv3D(filters=filters, 
                      kernel_size=(kernel_size[0], 1, 1),
                      padding=padding)
        ])
  
  def call(self, x):
    return self.seq(x)

class ResidualMain(keras.layers.Layer):
  """
    Residual block of the model with convolution, layer normalization, and the
    activation function, ReLU.
  """
  def __init__(self, filters, kernel_size):
    super().__init__()
    self.seq = keras.Sequential([
        Conv2Plus1D(filters=filters,
                    kernel_size=kernel_size,
                    padding='same'),
        layers.LayerNormalization(),
        layers.ReLU(),
        Conv2Plus1D(filters=filters, 
                    kernel_size=kernel_size,
                    padding='same'),
        layers.LayerNormalization()
    ])
    
  def call(self, x):
    return self.seq(x)

class Project(keras.layers.Layer):
  """
    Project certain dimensions of the tensor as the data is passed through different 
    sized filters and downsampled. 
  """
  def __init__(self, units):
    super().__init__()
    self.seq = keras.Sequential([
        layers.Dense(units),
        layers.LayerNormalization()
    ])

  def call(self, x):
    return self.seq(x)

def add_residual_block(input, filters, kernel_size):
  """
    Add residual blocks to the model. If the last dimensions of the input data
    and filter size does not match, project it such that last dimension matches.
  """
  out = ResidualMain(filters, 
                     kernel_size)(input)
  
  res = input
  # Using the Keras functional APIs, project the last dimension of the tensor to
  # match the new filter size
  if out.shape[-1] != input.shape[-1]:
    res = Project(out.shape[-1])(res)

  return layers.add([res, out])

class ResizeVideo(keras.layers.Layer):
  def __init__(self, height, width):
    super().__init__()
    self.height = height
    self.width = width
    self.resizing_layer = layers.Resizing(self.height, self.width)

  def call(self, video):
    """
      Use the einops library to resize the tensor.  (here: tf.shape/tf.reshape)
    """
    # b stands for batch size, t stands for time, h stands for height, 
    # w stands for width, and c stands for the number of channels.
    old_shape = tf.shape(video)  # einops.parse_shape(video, 'b t h w c')
    images = tf.reshape(video, tf.concat([[-1], old_shape[2:]], 0))  # 'b t h w c -> (b t) h w c'
    images = self.resizing_layer(images)
    videos = tf.reshape(images, tf.concat([[-1, old_shape[1]], tf.shape(images)[1:]], 0))
    return videos

input_shape = (None, 10, HEIGHT, WIDTH, 3)
input = layers.Input(shape=(input_shape[1:]))
x = input

x = Conv2Plus1D(filters=16, kernel_size=(3, 7, 7), padding='same')(x)
x = layers.BatchNormalization()(x)
x = layers.ReLU()(x)
x = ResizeVideo(HEIGHT // 2, WIDTH // 2)(x)

# Block 1
x = add_residual_block(x, 16, (3, 3, 3))
x = ResizeVideo(HEIGHT // 4, WIDTH // 4)(x)

# Block 2
x = add_residual_block(x, 32, (3, 3, 3))
x = ResizeVideo(HEIGHT // 8, WIDTH // 8)(x)

# Block 3
x = add_residual_block(x, 64, (3, 3, 3))
x = ResizeVideo(HEIGHT // 16, WIDTH // 16)(x)

# Block 4
x = add_residual_block(x, 128, (3, 3, 3))

x = layers.GlobalAveragePooling3D()(x)
x = layers.Flatten()(x)
x = layers.Dense(10)(x)

model = keras.Model(input, x)
RESULTS["n_params"] = model.count_params()
RESULTS["output_shapes"] = [list(l.output.shape[1:]) for l in model.layers[1:6]]

frames, label = next(iter(train_ds))
model.build(frames)
RESULTS["first_batch_labels"] = label

model.compile(loss = keras.losses.SparseCategoricalCrossentropy(from_logits=True), 
              optimizer = keras.optimizers.Adam(learning_rate = 0.0001), 
              metrics = ['accuracy'])

history = model.fit(x = train_ds,
                    epochs = 1, 
                    validation_data = val_ds)
RESULTS["history"] = [history.history["loss"], history.history["accuracy"],
                      history.history["val_loss"], history.history["val_accuracy"]]

_eval = model.evaluate(test_ds, return_dict=True)
print(_eval)
RESULTS["test_eval"] = [_eval["loss"], _eval["accuracy"]]

def get_actual_predicted_labels(dataset): 
  """
    Create a list of actual ground truth values and the predictions from the model.
  """
  actual = [labels for _, labels in dataset.unbatch()]
  predicted = model.predict(dataset)

  actual = tf.stack(actual, axis=0)
  predicted = tf.concat(predicted, axis=0)
  predicted = tf.argmax(predicted, axis=1)

  return actual, predicted

fg = FrameGenerator(subset_paths['train'], n_frames, training=True)
labels = list(fg.class_ids_for_name.keys())
RESULTS["labels"] = labels

actual, predicted = get_actual_predicted_labels(train_ds)
RESULTS["train_confusion"] = tf.math.confusion_matrix(actual, predicted)

actual, predicted = get_actual_predicted_labels(test_ds)
RESULTS["test_actual"] = actual
RESULTS["test_predicted"] = predicted
RESULTS["test_confusion"] = tf.math.confusion_matrix(actual, predicted)

def calculate_classification_metrics(y_actual, y_pred, labels):
  """
    Calculate the precision and recall of a classification model using the ground truth and
    predicted values. 
  """
  cm = tf.math.confusion_matrix(y_actual, y_pred)
  tp = np.diag(cm) # Diagonal represents true positives
  precision = dict()
  recall = dict()
  for i in range(len(labels)):
    col = cm[:, i]
    fp = np.sum(col) - tp[i] # Sum of column minus true positive is false negative
    
    row = cm[i, :]
    fn = np.sum(row) - tp[i] # Sum of row minus true positive, is false negative
    
    precision[labels[i]] = tp[i] / (tp[i] + fp) # Precision 
    
    recall[labels[i]] = tp[i] / (tp[i] + fn) # Recall
  
  return precision, recall

precision, recall = calculate_classification_metrics(actual, predicted, labels) # Test dataset
print(precision)
print(recall)
RESULTS["precision"] = [precision[l] for l in labels]
RESULTS["recall"] = [recall[l] for l in labels]
