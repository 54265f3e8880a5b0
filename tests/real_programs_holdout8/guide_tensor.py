"""Title: Introduction to Tensors (TensorFlow guide)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/guide/tensor.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: the notebook's code cells in order; the values that cells print or display -> RESULTS
(ragged results as to_list() / row lengths, string tensors as decoded str lists, caught errors
as their type names); nothing else.
"""
import tensorflow as tf
import numpy as np

RESULTS = {}
# This will be an int32 tensor by default; see "dtypes" below.
rank_0_tensor = tf.constant(4)
print(rank_0_tensor)
RESULTS["rank_0"] = rank_0_tensor
# Let's make this a float tensor.
rank_1_tensor = tf.constant([2.0, 3.0, 4.0])
print(rank_1_tensor)
RESULTS["rank_1"] = rank_1_tensor
# If you want to be specific, you can set the dtype (see below) at creation time
rank_2_tensor = tf.constant([[1, 2],
                             [3, 4],
                             [5, 6]], dtype=tf.float16)
print(rank_2_tensor)
RESULTS["rank_2"] = rank_2_tensor
# There can be an arbitrary number of
# axes (sometimes called "dimensions")
rank_3_tensor = tf.constant([
  [[0, 1, 2, 3, 4],
   [5, 6, 7, 8, 9]],
  [[10, 11, 12, 13, 14],
   [15, 16, 17, 18, 19]],
  [[20, 21, 22, 23, 24],
   [25, 26, 27, 28, 29]],])

print(rank_3_tensor)
RESULTS["rank_3"] = rank_3_tensor
RESULTS["np_array_rank_2"] = np.array(rank_2_tensor)
RESULTS["numpy_rank_2"] = rank_2_tensor.numpy()
a = tf.constant([[1, 2],
                 [3, 4]])
b = tf.constant([[1, 1],
                 [1, 1]]) # Could have also said `tf.ones([2,2], dtype=tf.int32)`

print(tf.add(a, b), "\n")
print(tf.multiply(a, b), "\n")
print(tf.matmul(a, b), "\n")
RESULTS["add"] = tf.add(a, b)
RESULTS["multiply"] = tf.multiply(a, b)
RESULTS["matmul"] = tf.matmul(a, b)
print(a + b, "\n") # element-wise addition
print(a * b, "\n") # element-wise multiplication
print(a @ b, "\n") # matrix multiplication
RESULTS["a_plus_b"] = a + b
RESULTS["a_times_b"] = a * b
RESULTS["a_at_b"] = a @ b
c = tf.constant([[4.0, 5.0], [10.0, 1.0]])

# Find the largest value
print(tf.reduce_max(c))
# Find the index of the largest value
print(tf.math.argmax(c))
# Compute the softmax
print(tf.nn.softmax(c))
RESULTS["reduce_max_c"] = tf.reduce_max(c)
RESULTS["argmax_c"] = tf.math.argmax(c)
RESULTS["softmax_c"] = tf.nn.softmax(c)
RESULTS["convert_to_tensor"] = tf.convert_to_tensor([1,2,3])
RESULTS["reduce_max_list"] = tf.reduce_max([1,2,3])
RESULTS["reduce_max_np"] = tf.reduce_max(np.array([1,2,3]))
rank_4_tensor = tf.zeros([3, 2, 4, 5])
print("Type of every element:", rank_4_tensor.dtype)
print("Number of axes:", rank_4_tensor.ndim)
print("Shape of tensor:", rank_4_tensor.shape)
print("Elements along axis 0 of tensor:", rank_4_tensor.shape[0])
print("Elements along the last axis of tensor:", rank_4_tensor.shape[-1])
print("Total number of elements (3*2*4*5): ", tf.size(rank_4_tensor).numpy())
RESULTS["rank_4_dtype"] = np.array(rank_4_tensor.dtype.name)
RESULTS["rank_4_ndim"] = rank_4_tensor.ndim
RESULTS["rank_4_shape"] = list(rank_4_tensor.shape)
RESULTS["rank_4_size"] = tf.size(rank_4_tensor).numpy()
RESULTS["tf_rank"] = tf.rank(rank_4_tensor)
RESULTS["tf_shape"] = tf.shape(rank_4_tensor)
rank_1_tensor = tf.constant([0, 1, 1, 2, 3, 5, 8, 13, 21, 34])
print(rank_1_tensor.numpy())
print("First:", rank_1_tensor[0].numpy())
print("Second:", rank_1_tensor[1].numpy())
print("Last:", rank_1_tensor[-1].numpy())
print("Everything:", rank_1_tensor[:].numpy())
print("Before 4:", rank_1_tensor[:4].numpy())
print("From 4 to the end:", rank_1_tensor[4:].numpy())
print("From 2, before 7:", rank_1_tensor[2:7].numpy())
print("Every other item:", rank_1_tensor[::2].numpy())
print("Reversed:", rank_1_tensor[::-1].numpy())
RESULTS["idx_first"] = rank_1_tensor[0].numpy()
RESULTS["idx_last"] = rank_1_tensor[-1].numpy()
RESULTS["idx_before_4"] = rank_1_tensor[:4].numpy()
RESULTS["idx_from_4"] = rank_1_tensor[4:].numpy()
RESULTS["idx_2_7"] = rank_1_tensor[2:7].numpy()
RESULTS["idx_every_other"] = rank_1_tensor[::2].numpy()
RESULTS["idx_reversed"] = rank_1_tensor[::-1].numpy()
print(rank_2_tensor.numpy())
# Pull out a single value from a 2-rank tensor
print(rank_2_tensor[1, 1].numpy())
RESULTS["r2_1_1"] = rank_2_tensor[1, 1].numpy()
# Get row and column tensors
print("Second row:", rank_2_tensor[1, :].numpy())
print("Second column:", rank_2_tensor[:, 1].numpy())
print("Last row:", rank_2_tensor[-1, :].numpy())
print("First item in last column:", rank_2_tensor[0, -1].numpy())
print("Skip the first row:")
print(rank_2_tensor[1:, :].numpy(), "\n")
RESULTS["r2_second_row"] = rank_2_tensor[1, :].numpy()
RESULTS["r2_second_col"] = rank_2_tensor[:, 1].numpy()
RESULTS["r2_last_row"] = rank_2_tensor[-1, :].numpy()
RESULTS["r2_first_last_col"] = rank_2_tensor[0, -1].numpy()
RESULTS["r2_skip_first"] = rank_2_tensor[1:, :].numpy()
print(rank_3_tensor[:, :, 4])
RESULTS["r3_last_feature"] = rank_3_tensor[:, :, 4]
# Shape returns a `TensorShape` object that shows the size along each axis
x = tf.constant([[1], [2], [3]])
print(x.shape)
# You can convert this object into a Python list, too
print(x.shape.as_list())
RESULTS["x_shape_list"] = x.shape.as_list()
# You can reshape a tensor to a new shape.
# Note that you're passing in a list
reshaped = tf.reshape(x, [1, 3])
print(x.shape)
print(reshaped.shape)
RESULTS["reshaped_shape"] = reshaped.shape.as_list()
print(rank_3_tensor)
# A `-1` passed in the `shape` argument says "Whatever fits".
print(tf.reshape(rank_3_tensor, [-1]))
RESULTS["reshape_flat"] = tf.reshape(rank_3_tensor, [-1])
print(tf.reshape(rank_3_tensor, [3*2, 5]), "\n")
print(tf.reshape(rank_3_tensor, [3, -1]))
RESULTS["reshape_6_5"] = tf.reshape(rank_3_tensor, [3*2, 5])
RESULTS["reshape_3_m1"] = tf.reshape(rank_3_tensor, [3, -1])
# Bad examples: don't do this

# You can't reorder axes with reshape.
print(tf.reshape(rank_3_tensor, [2, 3, 5]), "\n") 
RESULTS["reshape_2_3_5"] = tf.reshape(rank_3_tensor, [2, 3, 5])

# This is a mess
print(tf.reshape(rank_3_tensor, [5, 6]), "\n")
RESULTS["reshape_5_6"] = tf.reshape(rank_3_tensor, [5, 6])

# This doesn't work at all
try:
  tf.reshape(rank_3_tensor, [7, -1])
except Exception as e:
  print(f"{type(e).__name__}: {e}")
  RESULTS["reshape_7_error"] = np.array(type(e).__name__)
the_f64_tensor = tf.constant([2.2, 3.3, 4.4], dtype=tf.float64)
the_f16_tensor = tf.cast(the_f64_tensor, dtype=tf.float16)
# Now, cast to an uint8 and lose the decimal precision
the_u8_tensor = tf.cast(the_f16_tensor, dtype=tf.uint8)
print(the_u8_tensor)
RESULTS["f16"] = the_f16_tensor
RESULTS["u8"] = the_u8_tensor
x = tf.constant([1, 2, 3])

y = tf.constant(2)
z = tf.constant([2, 2, 2])
# All of these are the same computation
print(tf.multiply(x, 2))
print(x * y)
print(x * z)
RESULTS["bcast_scalar"] = tf.multiply(x, 2)
RESULTS["bcast_y"] = x * y
RESULTS["bcast_z"] = x * z
# These are the same computations
x = tf.reshape(x,[3,1])
y = tf.range(1, 5)
print(x, "\n")
print(y, "\n")
print(tf.multiply(x, y))
RESULTS["outer"] = tf.multiply(x, y)
x_stretch = tf.constant([[1, 1, 1, 1],
                         [2, 2, 2, 2],
                         [3, 3, 3, 3]])

y_stretch = tf.constant([[1, 2, 3, 4],
                         [1, 2, 3, 4],
                         [1, 2, 3, 4]])

print(x_stretch * y_stretch)  # Again, operator overloading
RESULTS["stretch"] = x_stretch * y_stretch
print(tf.broadcast_to(tf.constant([1, 2, 3]), [3, 3]))
RESULTS["broadcast_to"] = tf.broadcast_to(tf.constant([1, 2, 3]), [3, 3])
ragged_list = [
    [0, 1, 2, 3],
    [4, 5],
    [6, 7, 8],
    [9]]
try:
  tensor = tf.constant(ragged_list)
except Exception as e:
  print(f"{type(e).__name__}: {e}")
  RESULTS["ragged_constant_error"] = np.array(type(e).__name__)
ragged_tensor = tf.ragged.constant(ragged_list)
print(ragged_tensor)
print(ragged_tensor.shape)
RESULTS["ragged_values"] = ragged_tensor.flat_values
RESULTS["ragged_row_lengths"] = ragged_tensor.row_lengths()
RESULTS["ragged_shape"] = [-1 if d is None else d for d in ragged_tensor.shape.as_list()]
# Tensors can be strings, too here is a scalar string.
scalar_string_tensor = tf.constant("Gray wolf")
print(scalar_string_tensor)
RESULTS["scalar_string"] = np.array(scalar_string_tensor.numpy().decode())
# If you have three string tensors of different lengths, this is OK.
tensor_of_strings = tf.constant(["Gray wolf",
                                 "Quick brown fox",
                                 "Lazy dog"])
# Note that the shape is (3,). The string length is not included.
print(tensor_of_strings)
RESULTS["strings_shape"] = tensor_of_strings.shape.as_list()
emoji = tf.constant("🥳👍")
RESULTS["emoji_bytes"] = np.frombuffer(emoji.numpy(), np.uint8)
# You can use split to split a string into a set of tensors
print(tf.strings.split(scalar_string_tensor, sep=" "))
RESULTS["split_scalar"] = np.array([s.decode() for s in tf.strings.split(scalar_string_tensor, sep=" ").numpy()])
# ...but it turns into a `RaggedTensor` if you split up a tensor of strings,
# as each string might be split into a different number of parts.
print(tf.strings.split(tensor_of_strings))
_split = tf.strings.split(tensor_of_strings)
RESULTS["split_strings_values"] = np.array([s.decode() for s in _split.flat_values.numpy()])
RESULTS["split_strings_row_lengths"] = _split.row_lengths()
text = tf.constant("1 10 100")
print(tf.strings.to_number(tf.strings.split(text, " ")))
RESULTS["to_number"] = tf.strings.to_number(tf.strings.split(text, " "))
byte_strings = tf.strings.bytes_split(tf.constant("Duck"))
byte_ints = tf.io.decode_raw(tf.constant("Duck"), tf.uint8)
print("Byte strings:", byte_strings)
print("Bytes:", byte_ints)
RESULTS["byte_strings"] = np.array([s.decode() for s in byte_strings.numpy()])
RESULTS["byte_ints"] = byte_ints
# Or split it up as unicode and then decode it
unicode_bytes = tf.constant("アヒル 🦆")
unicode_char_bytes = tf.strings.unicode_split(unicode_bytes, "UTF-8")
unicode_values = tf.strings.unicode_decode(unicode_bytes, "UTF-8")

print("\nUnicode bytes:", unicode_bytes)
print("\nUnicode chars:", unicode_char_bytes)
print("\nUnicode values:", unicode_values)
RESULTS["unicode_chars"] = np.array([s.decode() for s in unicode_char_bytes.numpy()])
RESULTS["unicode_values"] = unicode_values
# Sparse tensors store values by index in a memory-efficient manner
sparse_tensor = tf.sparse.SparseTensor(indices=[[0, 0], [1, 2]],
                                       values=[1, 2],
                                       dense_shape=[3, 4])
print(sparse_tensor, "\n")

# You can convert sparse tensors to dense
print(tf.sparse.to_dense(sparse_tensor))
RESULTS["sparse_dense"] = tf.sparse.to_dense(sparse_tensor)
RESULTS["sparse_indices"] = sparse_tensor.indices
