"""Title: Introduction to tensor slicing (TF guide)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/guide/tensor_slicing.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: prints -> results recorded in RESULTS (the SparseTensor's indices, values and dense_shape).
"""
import tensorflow as tf
import numpy as np

RESULTS = {}

t1 = tf.constant([0, 1, 2, 3, 4, 5, 6, 7])
RESULTS["slice_t1"] = tf.slice(t1, begin=[1], size=[3])
RESULTS["t1_1_4"] = t1[1:4]
RESULTS["t1_last3"] = t1[-3:]

t2 = tf.constant([[0, 1, 2, 3, 4],
                  [5, 6, 7, 8, 9],
                  [10, 11, 12, 13, 14],
                  [15, 16, 17, 18, 19]])
RESULTS["t2_slice"] = t2[:-1, 1:3]

t3 = tf.constant([[[1, 3, 5, 7],
                   [9, 11, 13, 15]],
                  [[17, 19, 21, 23],
                   [25, 27, 29, 31]]
                  ])
RESULTS["slice_t3"] = tf.slice(t3, begin=[1, 1, 0], size=[1, 1, 2])

RESULTS["gather_t1"] = tf.gather(t1, indices=[0, 3, 6])
RESULTS["t1_step3"] = t1[::3]

alphabet = tf.constant(list('abcdefghijklmnopqrstuvwxyz'))
RESULTS["gather_alphabet"] = [s.decode() for s in tf.gather(alphabet, indices=[2, 0, 19, 18]).numpy()]

t4 = tf.constant([[0, 5],
                  [1, 6],
                  [2, 7],
                  [3, 8],
                  [4, 9]])
RESULTS["gather_nd_t4"] = tf.gather_nd(t4, indices=[[2], [3], [0]])

t5 = np.reshape(np.arange(18), [2, 3, 3])
RESULTS["gather_nd_t5"] = tf.gather_nd(t5, indices=[[0, 0, 0], [1, 2, 1]])
RESULTS["gather_nd_two_matrices"] = tf.gather_nd(t5, indices=[[[0, 0], [0, 2]], [[1, 0], [1, 2]]])
RESULTS["gather_nd_one_matrix"] = tf.gather_nd(t5, indices=[[0, 0], [0, 2], [1, 0], [1, 2]])

t6 = tf.constant([10])
indices = tf.constant([[1], [3], [5], [7], [9]])
data = tf.constant([2, 4, 6, 8, 10])
RESULTS["scatter_nd"] = tf.scatter_nd(indices=indices, updates=data, shape=t6)

new_indices = tf.constant([[0, 2], [2, 1], [3, 3]])
t7 = tf.gather_nd(t2, indices=new_indices)
t8 = tf.scatter_nd(indices=new_indices, updates=t7, shape=tf.constant([4, 5]))
RESULTS["t8"] = t8

t9 = tf.SparseTensor(indices=[[0, 2], [2, 1], [3, 3]],
                     values=[2, 11, 18],
                     dense_shape=[4, 5])
RESULTS["t9_indices"] = t9.indices
RESULTS["t9_values"] = t9.values
RESULTS["t9_dense_shape"] = t9.dense_shape

t10 = tf.sparse.to_dense(t9)
RESULTS["t10"] = t10

t11 = tf.constant([[2, 7, 0],
                   [9, 0, 1],
                   [0, 3, 8]])
t12 = tf.tensor_scatter_nd_add(t11, indices=[[0, 2], [1, 1], [2, 0]], updates=[6, 5, 4])
RESULTS["t12"] = t12

t13 = tf.tensor_scatter_nd_sub(t11,
                               indices=[[0, 0], [0, 1], [1, 0], [1, 1], [1, 2], [2, 1], [2, 2]],
                               updates=[1, 7, 9, -1, 1, 3, 7])
RESULTS["t13"] = t13

t14 = tf.constant([[-2, -7, 0],
                   [-9, 0, 1],
                   [0, -3, -8]])
t15 = tf.tensor_scatter_nd_min(t14, indices=[[0, 2], [1, 1], [2, 0]], updates=[-6, -5, -4])
RESULTS["t15"] = t15
t16 = tf.tensor_scatter_nd_max(t14, indices=[[0, 2], [1, 1], [2, 0]], updates=[6, 5, 4])
RESULTS["t16"] = t16
