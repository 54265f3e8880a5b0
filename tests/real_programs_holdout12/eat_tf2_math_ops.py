"""Title: Mathematical operations of the tensor: scalar and vector operations, reductions, cumulative ops, top_k, matrix operations and decompositions, broadcasting (Eat TensorFlow2 in 30 days, 4-2)
Source: https://github.com/lyhue1991/eat_tensorflow2_in_30_days/blob/9c9096b9e5a33c4bc739b93659099dd45515c276/english/Chapter4-2.md
Licence: Apache-2.0 (lyhue1991/eat_tensorflow2_in_30_days)
Changed: the chapter's Python code blocks in order; each value the chapter prints with
tf.print or displays as a block's last expression -> also `RESULTS[name] = value` (a static
shape as a list). No data, no randomness.
"""
RESULTS = {}

import tensorflow as tf 
import numpy as np
a = tf.constant([[1.0,2],[-3,4.0]])
b = tf.constant([[5.0,6],[7.0,8.0]])
RESULTS["a_b"] = a+b  # Operator overloading
RESULTS["a_b_2"] = a-b
RESULTS["a_b_3"] = a*b
RESULTS["a_b_4"] = a/b
RESULTS["a_2"] = a**2
RESULTS["a_0_5"] = a**(0.5)
RESULTS["a_3"] = a%3 # Reloading of mod operator, identical to: m = tf.math.mod(a,3)
RESULTS["a_3_2"] = a//3  # Divid and round towards negative infinity
RESULTS["a_2_2"] = (a>=2)
RESULTS["a_2_a_3"] = (a>=2)&(a<=3)
RESULTS["a_2_a_3_2"] = (a>=2)|(a<=3)
RESULTS["a_5"] = a==5 #tf.equal(a,5)
RESULTS["tf_sqrt_a"] = tf.sqrt(a)
a = tf.constant([1.0,8.0])
b = tf.constant([5.0,6.0])
c = tf.constant([6.0,7.0])
RESULTS["tf_add_n_a_b_c"] = tf.add_n([a,b,c])
tf.print(tf.maximum(a,b))
RESULTS["tf_maximum_a_b"] = tf.maximum(a,b)
tf.print(tf.minimum(a,b))
RESULTS["tf_minimum_a_b"] = tf.minimum(a,b)
# clip value
x = tf.constant([0.9,-0.8,100.0,-20.0,0.7])
y = tf.clip_by_value(x,clip_value_min=-1,clip_value_max=1)
z = tf.clip_by_norm(x,clip_norm = 3)
tf.print(y)
RESULTS["y"] = y
tf.print(z)
RESULTS["z"] = z
# Vector "reduce"
a = tf.range(1,10)
tf.print(tf.reduce_sum(a))
RESULTS["tf_reduce_sum_a"] = tf.reduce_sum(a)
tf.print(tf.reduce_mean(a))
RESULTS["tf_reduce_mean_a"] = tf.reduce_mean(a)
tf.print(tf.reduce_max(a))
RESULTS["tf_reduce_max_a"] = tf.reduce_max(a)
tf.print(tf.reduce_min(a))
RESULTS["tf_reduce_min_a"] = tf.reduce_min(a)
tf.print(tf.reduce_prod(a))
RESULTS["tf_reduce_prod_a"] = tf.reduce_prod(a)
# "reduce" along the specific dimension
b = tf.reshape(a,(3,3))
tf.print(tf.reduce_sum(b, axis=1, keepdims=True))
RESULTS["tf_reduce_sum_b_axis_1_keepdims_true"] = tf.reduce_sum(b, axis=1, keepdims=True)
tf.print(tf.reduce_sum(b, axis=0, keepdims=True))
RESULTS["tf_reduce_sum_b_axis_0_keepdims_true"] = tf.reduce_sum(b, axis=0, keepdims=True)
# "reduce" for bool type
p = tf.constant([True,False,False])
q = tf.constant([False,False,True])
tf.print(tf.reduce_all(p))
RESULTS["tf_reduce_all_p"] = tf.reduce_all(p)
tf.print(tf.reduce_any(q))
RESULTS["tf_reduce_any_q"] = tf.reduce_any(q)
# Implement tf.reduce_sum using tf.foldr
s = tf.foldr(lambda a,b:a+b,tf.range(10)) 
tf.print(s)
RESULTS["s"] = s
# Cumulative sum
a = tf.range(1,10)
tf.print(tf.math.cumsum(a))
RESULTS["tf_math_cumsum_a"] = tf.math.cumsum(a)
tf.print(tf.math.cumprod(a))
RESULTS["tf_math_cumprod_a"] = tf.math.cumprod(a)
# Index of max and min values in the arguments
a = tf.range(1,10)
tf.print(tf.argmax(a))
RESULTS["tf_argmax_a"] = tf.argmax(a)
tf.print(tf.argmin(a))
RESULTS["tf_argmin_a"] = tf.argmin(a)
# Sort the elements in the tensor using tf.math.top_k
a = tf.constant([1,3,7,5,4,8])

values,indices = tf.math.top_k(a,3,sorted=True)
tf.print(values)
RESULTS["values"] = values
tf.print(indices)
RESULTS["indices"] = indices

# tf.math.top_k is able to implement KNN algorithm in TensorFlow
# Matrix multiplication
a = tf.constant([[1,2],[3,4]])
b = tf.constant([[2,0],[0,2]])
RESULTS["a_b_5"] = a@b  # Identical to tf.matmul(a,b)
# Matrix transpose
a = tf.constant([[1.0,2],[3,4]])
RESULTS["tf_transpose_a"] = tf.transpose(a)
# Matrix inverse, must be in type of tf.float32 or tf.double
a = tf.constant([[1.0,2],[3.0,4]],dtype = tf.float32)
RESULTS["tf_linalg_inv_a"] = tf.linalg.inv(a)
# Matrix trace
a = tf.constant([[1.0,2],[3,4]])
RESULTS["tf_linalg_trace_a"] = tf.linalg.trace(a)
# Matrix norm
a = tf.constant([[1.0,2],[3,4]])
RESULTS["tf_linalg_norm_a"] = tf.linalg.norm(a)
# Determinant
a = tf.constant([[1.0,2],[3,4]])
RESULTS["tf_linalg_det_a"] = tf.linalg.det(a)
# Eigenvalues
a = tf.constant([[1.0,2],[5,4]])
RESULTS["tf_linalg_eigvals_a"] = tf.linalg.eigvals(a)
# QR decomposition
a  = tf.constant([[1.0,2.0],[3.0,4.0]],dtype = tf.float32)
q,r = tf.linalg.qr(a)
tf.print(q)
RESULTS["q"] = q
tf.print(r)
RESULTS["r"] = r
tf.print(q@r)
RESULTS["q_r"] = q@r
# SVD decomposition
a  = tf.constant([[1.0,2.0],[3.0,4.0],[5.0,6.0]], dtype = tf.float32)
s,u,v = tf.linalg.svd(a)
tf.print(u,"\n")
RESULTS["u"] = u
tf.print(s,"\n")
RESULTS["s_2"] = s
tf.print(v,"\n")
RESULTS["v"] = v
tf.print(u@tf.linalg.diag(s)@tf.transpose(v))
RESULTS["u_tf_linalg_diag_s_tf_transpose_v"] = u@tf.linalg.diag(s)@tf.transpose(v)

# SVD decomposition is used for dimension reduction in PCA
a = tf.constant([1,2,3])
b = tf.constant([[0,0,0],[1,1,1],[2,2,2]])
RESULTS["b_a"] = b + a  # Identical to b + tf.broadcast_to(a,b.shape)
RESULTS["tf_broadcast_to_a_b_shape"] = tf.broadcast_to(a,b.shape)
# Shape after broadcasting using static shape, requires arguments in TensorShape type
RESULTS["tf_broadcast_static_shape"] = list(tf.broadcast_static_shape(a.shape,b.shape))
# Shape after broadcasting using dynamic shape, requires arguments in Tensor type
c = tf.constant([1,2,3])
d = tf.constant([[1],[2],[3]])
RESULTS["tf_broadcast_dynamic_shape"] = tf.broadcast_dynamic_shape(tf.shape(c),tf.shape(d))
# Results of broadcasting
RESULTS["c_d"] = c+d # Identical to tf.broadcast_to(c,[3,3]) + tf.broadcast_to(d,[3,3])

