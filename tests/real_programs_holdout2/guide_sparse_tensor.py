"""Title: Working with sparse tensors (TF guide)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/guide/sparse_tensor.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: keras.utils.set_random_seed(0) and the Dense kernel fixed (fix_weights) before the model
runs; print(...) -> RESULTS (the pretty-printed strings and the tensors printed).
"""
import tensorflow as tf
from _corpus import fix_weights

tf.keras.utils.set_random_seed(0)
RESULTS = {}

st1 = tf.sparse.SparseTensor(indices=[[0, 3], [2, 4]],
                      values=[10, 20],
                      dense_shape=[3, 10])
RESULTS["st1_dense"] = tf.sparse.to_dense(st1)


def pprint_sparse_tensor(st):
  s = "<SparseTensor shape=%s \n values={" % (st.dense_shape.numpy().tolist(),)
  for (index, value) in zip(st.indices, st.values):
    s += f"\n  %s: %s" % (index.numpy().tolist(), value.numpy().tolist())
  return s + "}>"


RESULTS["pprint_st1"] = pprint_sparse_tensor(st1)

st2 = tf.sparse.from_dense([[1, 0, 0, 8], [0, 0, 0, 0], [0, 0, 3, 0]])
RESULTS["pprint_st2"] = pprint_sparse_tensor(st2)

st3 = tf.sparse.to_dense(st2)
RESULTS["st3"] = st3

st_a = tf.sparse.SparseTensor(indices=[[0, 2], [3, 4]],
                       values=[31, 2],
                       dense_shape=[4, 10])

st_b = tf.sparse.SparseTensor(indices=[[0, 2], [3, 0]],
                       values=[56, 38],
                       dense_shape=[4, 10])

st_sum = tf.sparse.add(st_a, st_b)

RESULTS["pprint_st_sum"] = pprint_sparse_tensor(st_sum)

st_c = tf.sparse.SparseTensor(indices=([0, 1], [1, 0], [1, 1]),
                       values=[13, 15, 17],
                       dense_shape=(2,2))

mb = tf.constant([[4], [6]])
product = tf.sparse.sparse_dense_matmul(st_c, mb)

RESULTS["product"] = product

sparse_pattern_A = tf.sparse.SparseTensor(indices = [[2,4], [3,3], [3,4], [4,3], [4,4], [5,4]],
                         values = [1,1,1,1,1,1],
                         dense_shape = [8,5])
sparse_pattern_B = tf.sparse.SparseTensor(indices = [[0,2], [1,1], [1,3], [2,0], [2,4], [2,5], [3,5],
                                              [4,5], [5,0], [5,4], [5,5], [6,1], [6,3], [7,2]],
                         values = [1,1,1,1,1,1,1,1,1,1,1,1,1,1],
                         dense_shape = [8,6])
sparse_pattern_C = tf.sparse.SparseTensor(indices = [[3,0], [4,0]],
                         values = [1,1],
                         dense_shape = [8,6])

sparse_patterns_list = [sparse_pattern_A, sparse_pattern_B, sparse_pattern_C]
sparse_pattern = tf.sparse.concat(axis=1, sp_inputs=sparse_patterns_list)
RESULTS["sparse_pattern"] = tf.sparse.to_dense(sparse_pattern)

sparse_slice_A = tf.sparse.slice(sparse_pattern_A, start = [0,0], size = [8,5])
sparse_slice_B = tf.sparse.slice(sparse_pattern_B, start = [0,5], size = [8,6])
sparse_slice_C = tf.sparse.slice(sparse_pattern_C, start = [0,10], size = [8,6])
RESULTS["slice_A"] = tf.sparse.to_dense(sparse_slice_A)
RESULTS["slice_B"] = tf.sparse.to_dense(sparse_slice_B)
RESULTS["slice_C_shape"] = tf.sparse.to_dense(sparse_slice_C).shape

st2_plus_5 = tf.sparse.map_values(tf.add, st2, 5)
RESULTS["st2_plus_5_map"] = tf.sparse.to_dense(st2_plus_5)

st2_plus_5 = tf.sparse.SparseTensor(
    st2.indices,
    st2.values + 5,
    st2.dense_shape)
RESULTS["st2_plus_5"] = tf.sparse.to_dense(st2_plus_5)

x = tf.keras.Input(shape=(4,), sparse=True)
y = tf.keras.layers.Dense(4)(x)
model = tf.keras.Model(x, y)
fix_weights(model)

sparse_data = tf.sparse.SparseTensor(
    indices = [(0,0),(0,1),(0,2),
               (4,3),(5,0),(5,1)],
    values = [1,1,1,1,1,1],
    dense_shape = (6,4)
)

RESULTS["model_call"] = model(sparse_data)

RESULTS["model_predict"] = model.predict(sparse_data, verbose=0)

dataset = tf.data.Dataset.from_tensor_slices(sparse_data)
RESULTS["dataset"] = [pprint_sparse_tensor(element) for element in dataset]

batched_dataset = dataset.batch(2)
RESULTS["batched"] = [pprint_sparse_tensor(element) for element in batched_dataset]

unbatched_dataset = batched_dataset.unbatch()
RESULTS["unbatched"] = [pprint_sparse_tensor(element) for element in unbatched_dataset]

transform_dataset = dataset.map(lambda x: x*2)
RESULTS["transformed"] = [pprint_sparse_tensor(i) for i in transform_dataset]


@tf.function
def f(x,y):
  return tf.sparse.sparse_dense_matmul(x,y)

a = tf.sparse.SparseTensor(indices=[[0, 3], [2, 4]],
                    values=[15, 25],
                    dense_shape=[3, 10])

b = tf.sparse.to_dense(tf.sparse.transpose(a))

c = f(a,b)

RESULTS["c"] = c

RESULTS["sparse_reduce_max"] = tf.sparse.reduce_max(tf.sparse.from_dense([-5, 0, -3]))

RESULTS["reduce_max"] = tf.math.reduce_max([-5, 0, -3])
