"""Title: 00. Getting started with TensorFlow: A guide to the fundamentals (Zero to Mastery TensorFlow for Deep Learning)
Source: https://github.com/mrdbourke/tensorflow-deep-learning/blob/bd065b806249f7b1155e5b1fabd130c5cfc9d184/00_tensorflow_fundamentals.ipynb
Licence: MIT (mrdbourke/tensorflow-deep-learning)
Changed: the notebook's code cells in order; keras.utils.set_random_seed(0) right after
`import tensorflow as tf` (np.random.randint/np.random.random and the first unseeded
tf.random.shuffle are unseeded; the notebook later sets tf.random.set_seed(42) itself);
each cell's displayed last expression is recorded by a `_display` helper (a tuple's items one by
one, a TensorShape as a list, a dtype as its name, a Python type as its name, a tensor or variable as
its value at that point, a string tensor as str) instead of being
shown; the four cells the notebook runs to show an error (item assignment to a tf.Variable,
.assign on a tf.constant slice, a (3, 2) @ (3, 2) matmul, tf.sqrt of an int64 tensor) are
wrapped in a `_expect_error` block that records whether an exception was raised (the exception
types differ between TF versions, so only that it was raised is recorded); `!nvidia-smi` removed;
printed values that are not cell outputs (the version, the timestamp) are not recorded, the
rest of the printed values are.
"""
import contextlib

RESULTS = {}


def _display(key, *values):
  import tensorflow as tf
  if len(values) > 1:
    for j, v in enumerate(values):
      _display(f"{key}_{j}", v)
    return
  value = values[0]
  if isinstance(value, tf.TensorShape):
    value = value.as_list()
  elif isinstance(value, tf.DType):
    value = value.name
  elif isinstance(value, type):
    value = value.__name__
  elif hasattr(value, "numpy"):  # (a snapshot: a tf.Variable shown here is changed later)
    value = value.numpy()
    if value.dtype == object:
      value = value.astype(bytes).astype(str)
  RESULTS[key] = value


@contextlib.contextmanager
def _expect_error(key):
  try:
    yield
  except Exception:
    RESULTS[key + "_raised"] = 1
  else:
    RESULTS[key + "_raised"] = 0


# Create timestamp
import datetime

print(f"Notebook last run (end-to-end): {datetime.datetime.now()}")

# Import TensorFlow
import tensorflow as tf
import keras
keras.utils.set_random_seed(0)
print(tf.__version__) # find the version number (should be 2.x+)

# Create a scalar (rank 0 tensor)
scalar = tf.constant(7)
_display("c6", scalar)

# Check the number of dimensions of a tensor (ndim stands for number of dimensions)
_display("c8", scalar.ndim)

# Create a vector (more than 0 dimensions)
vector = tf.constant([10, 10])
_display("c9", vector)

# Check the number of dimensions of our vector tensor
_display("c10", vector.ndim)

# Create a matrix (more than 1 dimension)
matrix = tf.constant([[10, 7],
                      [7, 10]])
_display("c11", matrix)

_display("c12", matrix.ndim)

# Create another matrix and define the datatype
another_matrix = tf.constant([[10., 7.],
                              [3., 2.],
                              [8., 9.]], dtype=tf.float16) # specify the datatype with 'dtype'
_display("c14", another_matrix)

# Even though another_matrix contains more numbers, its dimensions stay the same
_display("c15", another_matrix.ndim)

# How about a tensor? (more than 2 dimensions, although, all of the above items are also technically tensors)
tensor = tf.constant([[[1, 2, 3],
                       [4, 5, 6]],
                      [[7, 8, 9],
                       [10, 11, 12]],
                      [[13, 14, 15],
                       [16, 17, 18]]])
_display("c16", tensor)

_display("c17", tensor.ndim)

# Create the same tensor with tf.Variable() and tf.constant()
changeable_tensor = tf.Variable([10, 7])
unchangeable_tensor = tf.constant([10, 7])
_display("c20", changeable_tensor, unchangeable_tensor)

with _expect_error("c22"):
  # Will error (requires the .assign() method)
  changeable_tensor[0] = 7
  _display("c22", changeable_tensor)

# Won't error
changeable_tensor[0].assign(7)
_display("c24", changeable_tensor)

with _expect_error("c26"):
  # Will error (can't change tf.constant())
  unchangeable_tensor[0].assign(7)
  _display("c26", unchangleable_tensor)

# Create two random (but the same) tensors
random_1 = tf.random.Generator.from_seed(42) # set the seed for reproducibility
random_1 = random_1.normal(shape=(3, 2)) # create tensor from a normal distribution 
random_2 = tf.random.Generator.from_seed(42)
random_2 = random_2.normal(shape=(3, 2))

# Are they equal?
_display("c29", random_1, random_2, random_1 == random_2)

# Create two random (and different) tensors
random_3 = tf.random.Generator.from_seed(42)
random_3 = random_3.normal(shape=(3, 2))
random_4 = tf.random.Generator.from_seed(11)
random_4 = random_4.normal(shape=(3, 2))

# Check the tensors and see if they are equal
_display("c31", random_3, random_4, random_1 == random_3, random_3 == random_4)

# Shuffle a tensor (valuable for when you want to shuffle your data)
not_shuffled = tf.constant([[10, 7],
                            [3, 4],
                            [2, 5]])
# Gets different results each time
_display("c33", tf.random.shuffle(not_shuffled))

# Shuffle in the same order every time using the seed parameter (won't acutally be the same)
_display("c34", tf.random.shuffle(not_shuffled, seed=42))

# Shuffle in the same order every time

# Set the global random seed
tf.random.set_seed(42)

# Set the operation random seed
_display("c36", tf.random.shuffle(not_shuffled, seed=42))

# Set the global random seed
tf.random.set_seed(42) # if you comment this out you'll get different results

# Set the operation random seed
_display("c37", tf.random.shuffle(not_shuffled))

# Make a tensor of all ones
_display("c39", tf.ones(shape=(3, 2)))

# Make a tensor of all zeros
_display("c40", tf.zeros(shape=(3, 2)))

import numpy as np
numpy_A = np.arange(1, 25, dtype=np.int32) # create a NumPy array between 1 and 25
A = tf.constant(numpy_A,  
                shape=[2, 4, 3]) # note: the shape total (2*4*3) has to match the number of elements in the array
_display("c42", numpy_A, A)

# Create a rank 4 tensor (4 dimensions)
rank_4_tensor = tf.zeros([2, 3, 4, 5])
_display("c44", rank_4_tensor)

_display("c45", rank_4_tensor.shape, rank_4_tensor.ndim, tf.size(rank_4_tensor))

# Get various attributes of tensor
print("Datatype of every element:", rank_4_tensor.dtype)
print("Number of dimensions (rank):", rank_4_tensor.ndim)
print("Shape of tensor:", rank_4_tensor.shape)
print("Elements along axis 0 of tensor:", rank_4_tensor.shape[0])
print("Elements along last axis of tensor:", rank_4_tensor.shape[-1])
print("Total number of elements (2*3*4*5):", tf.size(rank_4_tensor).numpy()) # .numpy() converts to NumPy array
RESULTS["rank_4_dtype"] = rank_4_tensor.dtype.name
RESULTS["rank_4_last_axis"] = rank_4_tensor.shape[-1]

# Get the first 2 items of each dimension
_display("c48", rank_4_tensor[:2, :2, :2, :2])

# Get the dimension from each index except for the final one
_display("c49", rank_4_tensor[:1, :1, :1, :])

# Create a rank 2 tensor (2 dimensions)
rank_2_tensor = tf.constant([[10, 7],
                             [3, 4]])

# Get the last item of each row
_display("c50", rank_2_tensor[:, -1])

# Add an extra dimension (to the end)
rank_3_tensor = rank_2_tensor[..., tf.newaxis] # in Python "..." means "all dimensions prior to"
_display("c52", rank_2_tensor, rank_3_tensor) # shape (2, 2), shape (2, 2, 1)

_display("c54", tf.expand_dims(rank_2_tensor, axis=-1)) # "-1" means last axis

# You can add values to a tensor using the addition operator
tensor = tf.constant([[10, 7], [3, 4]])
_display("c57", tensor + 10)

# Original tensor unchanged
_display("c59", tensor)

# Multiplication (known as element-wise multiplication)
_display("c61", tensor * 10)

# Subtraction
_display("c62", tensor - 10)

# Use the tensorflow function equivalent of the '*' (multiply) operator
_display("c64", tf.multiply(tensor, 10))

# The original tensor is still unchanged
_display("c65", tensor)

# Matrix multiplication in TensorFlow
print(tensor)
_display("c67", tf.matmul(tensor, tensor))

# Matrix multiplication with Python operator '@'
_display("c68", tensor @ tensor)

# Create (3, 2) tensor
X = tf.constant([[1, 2],
                 [3, 4],
                 [5, 6]])

# Create another (3, 2) tensor
Y = tf.constant([[7, 8],
                 [9, 10],
                 [11, 12]])
_display("c70", X, Y)

with _expect_error("c71"):
  # Try to matrix multiply them (will error)
  _display("c71", X @ Y)

# Example of reshape (3, 2) -> (2, 3)
_display("c73", tf.reshape(Y, shape=(2, 3)))

# Try matrix multiplication with reshaped Y
_display("c74", X @ tf.reshape(Y, shape=(2, 3)))

# Example of transpose (3, 2) -> (2, 3)
_display("c76", tf.transpose(X))

# Try matrix multiplication 
_display("c77", tf.matmul(tf.transpose(X), Y))

# You can achieve the same result with parameters
_display("c78", tf.matmul(a=X, b=Y, transpose_a=True, transpose_b=False))

# Perform the dot product on X and Y (requires X to be transposed)
_display("c80", tf.tensordot(tf.transpose(X), Y, axes=1))

# Perform matrix multiplication between X and Y (transposed)
_display("c82", tf.matmul(X, tf.transpose(Y)))

# Perform matrix multiplication between X and Y (reshaped)
_display("c83", tf.matmul(X, tf.reshape(Y, (2, 3))))

# Check shapes of Y, reshaped Y and tranposed Y
_display("c85", Y.shape, tf.reshape(Y, (2, 3)).shape, tf.transpose(Y).shape)

# Check values of Y, reshape Y and tranposed Y
print("Normal Y:")
print(Y, "\n") # "\n" for newline

print("Y reshaped to (2, 3):")
print(tf.reshape(Y, (2, 3)), "\n")

print("Y transposed:")
print(tf.transpose(Y))

# Create a new tensor with default datatype (float32)
B = tf.constant([1.7, 7.4])

# Create a new tensor with default datatype (int32)
C = tf.constant([1, 7])
_display("c91", B, C)

# Change from float32 to float16 (reduced precision)
B = tf.cast(B, dtype=tf.float16)
_display("c92", B)

# Change from int32 to float32
C = tf.cast(C, dtype=tf.float32)
_display("c93", C)

# Create tensor with negative values
D = tf.constant([-7, -10])
_display("c95", D)

# Get the absolute values
_display("c96", tf.abs(D))

# Create a tensor with 50 random values between 0 and 100
E = tf.constant(np.random.randint(low=0, high=100, size=50))
_display("c98", E)

# Find the minimum
_display("c99", tf.reduce_min(E))

# Find the maximum
_display("c100", tf.reduce_max(E))

# Find the mean
_display("c101", tf.reduce_mean(E))

# Find the sum
_display("c102", tf.reduce_sum(E))

# Create a tensor with 50 values between 0 and 1
F = tf.constant(np.random.random(50))
_display("c104", F)

# Find the maximum element position of F
_display("c105", tf.argmax(F))

# Find the minimum element position of F
_display("c106", tf.argmin(F))

# Find the maximum element position of F
print(f"The maximum value of F is at position: {tf.argmax(F).numpy()}") 
print(f"The maximum value of F is: {tf.reduce_max(F).numpy()}") 
print(f"Using tf.argmax() to index F, the maximum value of F is: {F[tf.argmax(F)].numpy()}")
print(f"Are the two max values the same (they should be)? {F[tf.argmax(F)].numpy() == tf.reduce_max(F).numpy()}")
RESULTS["F_max_indexed"] = F[tf.argmax(F)]
RESULTS["F_max_same"] = F[tf.argmax(F)].numpy() == tf.reduce_max(F).numpy()

# Create a rank 5 (5 dimensions) tensor of 50 numbers between 0 and 100
G = tf.constant(np.random.randint(0, 100, 50), shape=(1, 1, 1, 1, 50))
_display("c109", G.shape, G.ndim)

# Squeeze tensor G (remove all 1 dimensions)
G_squeezed = tf.squeeze(G)
_display("c110", G_squeezed.shape, G_squeezed.ndim)

# Create a list of indices
some_list = [0, 1, 2, 3]

# One hot encode them
_display("c112", tf.one_hot(some_list, depth=4))

# Specify custom values for on and off encoding
_display("c114", tf.one_hot(some_list, depth=4, on_value="We're live!", off_value="Offline"))

# Create a new tensor
H = tf.constant(np.arange(1, 10))
_display("c116", H)

# Square it
_display("c117", tf.square(H))

with _expect_error("c118"):
  # Find the squareroot (will error), needs to be non-integer
  _display("c118", tf.sqrt(H))

# Change H to float32
H = tf.cast(H, dtype=tf.float32)
_display("c119", H)

# Find the square root
_display("c120", tf.sqrt(H))

# Find the log (input also needs to be float)
_display("c121", tf.math.log(H))

# Create a variable tensor
I = tf.Variable(np.arange(0, 5))
_display("c123", I)

# Assign the final value a new value of 50
_display("c124", I.assign([0, 1, 2, 3, 50]))

# The change happens in place (the last value is now 50, not 4)
_display("c125", I)

# Add 10 to every element in I
_display("c126", I.assign_add([10, 10, 10, 10, 10]))

# Again, the change happens in place
_display("c127", I)

# Create a tensor from a NumPy array
J = tf.constant(np.array([3., 7., 10.]))
_display("c129", J)

# Convert tensor J to NumPy with np.array()
_display("c130", np.array(J), type(np.array(J)))

# Convert tensor J to NumPy with .numpy()
_display("c131", J.numpy(), type(J.numpy()))

# Create a tensor from NumPy and from an array
numpy_J = tf.constant(np.array([3., 7., 10.])) # will be float64 (due to NumPy)
tensor_J = tf.constant([3., 7., 10.]) # will be float32 (due to being TensorFlow default)
_display("c133", numpy_J.dtype, tensor_J.dtype)

# Create a simple function
def function(x, y):
  return x ** 2 + y

x = tf.constant(np.arange(0, 10))
y = tf.constant(np.arange(10, 20))
_display("c135", function(x, y))

# Create the same function and decorate it with tf.function
@tf.function
def tf_function(x, y):
  return x ** 2 + y

_display("c136", tf_function(x, y))

print(tf.config.list_physical_devices('GPU'))
RESULTS["n_gpus"] = len(tf.config.list_physical_devices('GPU'))

import tensorflow as tf
print(tf.config.list_physical_devices('GPU'))
RESULTS["n_gpus"] = len(tf.config.list_physical_devices('GPU'))
