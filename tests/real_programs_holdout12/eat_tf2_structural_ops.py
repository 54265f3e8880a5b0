"""Title: Structural operations of the tensor: creation, indexing and slicing, gather/boolean_mask/where/scatter_nd, reshape, squeeze, transpose, concat/stack/split (Eat TensorFlow2 in 30 days, 4-1)
Source: https://github.com/lyhue1991/eat_tensorflow2_in_30_days/blob/9c9096b9e5a33c4bc739b93659099dd45515c276/english/Chapter4-1.md
Licence: Apache-2.0 (lyhue1991/eat_tensorflow2_in_30_days)
Changed: the chapter's Python code blocks in order; each value the chapter prints with
tf.print or displays as a block's last expression -> also `RESULTS[name] = value` (shapes as
lists, the Variable by its value); the transpose example's random int32 tensor of shape
[100, 600, 600, 4] (576 MB) -> [10, 60, 60, 4] (its shapes are what the chapter prints). The
chapter's own seeding (tf.random.set_seed(1.0) and (3)) is kept.
"""
RESULTS = {}

import tensorflow as tf
import numpy as np
a = tf.constant([1,2,3],dtype = tf.float32)
tf.print(a)
RESULTS["a"] = a
b = tf.range(1,10,delta = 2)
tf.print(b)
RESULTS["b"] = b
c = tf.linspace(0.0,2*3.14,100)
tf.print(c)
RESULTS["c"] = c
d = tf.zeros([3,3])
tf.print(d)
RESULTS["d"] = d
a = tf.ones([3,3])
b = tf.zeros_like(a,dtype= tf.float32)
tf.print(a)
RESULTS["a_2"] = a
tf.print(b)
RESULTS["b_2"] = b
b = tf.fill([3,2],5)
tf.print(b)
RESULTS["b_3"] = b
# Random numbers with uniform distribution
tf.random.set_seed(1.0)
a = tf.random.uniform([5],minval=0,maxval=10)
tf.print(a)
RESULTS["a_3"] = a
# Random numbers with normal distribution
b = tf.random.normal([3,3],mean=0.0,stddev=1.0)
tf.print(b)
RESULTS["b_4"] = b
# Random numbers with normal distribution and truncate within the range 2X standard deviation
c = tf.random.truncated_normal((5,5), mean=0.0, stddev=1.0, dtype=tf.float32)
tf.print(c)
RESULTS["c_2"] = c
# Special matrix
I = tf.eye(3,3) # Identity matrix
tf.print(I)
RESULTS["I"] = I
tf.print(" ")
t = tf.linalg.diag([1,2,3]) # Diagonal matrix
tf.print(t)
RESULTS["t"] = t
tf.random.set_seed(3)
t = tf.random.uniform([5,5],minval=0,maxval=10,dtype=tf.int32)
tf.print(t)
RESULTS["t_2"] = t
# Row 0
tf.print(t[0])
RESULTS["t_0"] = t[0]
# Last row
tf.print(t[-1])
RESULTS["t_1"] = t[-1]
# Row 1 Column 3
tf.print(t[1,3])
RESULTS["t_1_3"] = t[1,3]
tf.print(t[1][3])
RESULTS["t_1_3_2"] = t[1][3]
# From row 1 to row 3
tf.print(t[1:4,:])
RESULTS["t_1_4"] = t[1:4,:]
tf.print(tf.slice(t,[1,0],[3,5])) #tf.slice(input,begin_vector,size_vector)
RESULTS["tf_slice_t_1_0_3_5"] = tf.slice(t,[1,0],[3,5])
# From row 1 to the last row, and from column 0 to the last but one with an increment of 2
tf.print(t[1:4,:4:2])
RESULTS["t_1_4_4_2"] = t[1:4,:4:2]
# Variable supports modifying elements through indexing and slicing
x = tf.Variable([[1,2],[3,4]],dtype = tf.float32)
x[1,:].assign(tf.constant([0.0,0.0]))
tf.print(x)
RESULTS["x"] = x.numpy()
a = tf.random.uniform([3,3,3],minval=0,maxval=10,dtype=tf.int32)
tf.print(a)
RESULTS["a_4"] = a
# Ellipsis represents multiple colons
tf.print(a[...,1])
RESULTS["a_1"] = a[...,1]
# This is equal to
tf.print(a[:,:,1])
RESULTS["a_1_2"] = a[:,:,1]
scores = tf.random.uniform((4,10,7),minval=0,maxval=100,dtype=tf.int32)
tf.print(scores)
RESULTS["scores"] = scores
# Extract all the grades of the 0th, 5th and 9th students in each class.
p = tf.gather(scores,[0,5,9],axis=1)
tf.print(p)
RESULTS["p"] = p
# Extract the grades of the 1st, 3rd and 6th courses of the 0th, 5th and 9th students in each class.
q = tf.gather(tf.gather(scores,[0,5,9],axis=1),[1,3,6],axis=2)
tf.print(q)
RESULTS["q"] = q
# Extract all the grades of the 0th student in the 0th class, the 4th student in the 2nd class, and the 6th student in the 3rd class.
# Then length of the parameter indices equals to the number of samples, and the each element of indices is the coordinate of each sample.
s = tf.gather_nd(scores,indices = [(0,0),(2,4),(3,6)])
RESULTS["s"] = s
# Extract all the grades of the 0th, 5th and 9th students in each class.
p = tf.boolean_mask(scores,[True,False,False,False,False,
                            True,False,False,False,True],axis=1)
tf.print(p)
RESULTS["p_2"] = p
# Extract all the grades of the 0th student in the 0th class, the 4th student in the 2nd class, and the 6th student in the 3rd class.
s = tf.boolean_mask(scores,
    [[True,False,False,False,False,False,False,False,False,False],
     [False,False,False,False,False,False,False,False,False,False],
     [False,False,False,False,True,False,False,False,False,False],
     [False,False,False,False,False,False,True,False,False,False]])
tf.print(s)
RESULTS["s_2"] = s
# Boolean indexing using tf.boolean_mask

# Find all elements that are less than 0 in the matrix
c = tf.constant([[-1,1,-1],[2,2,-2],[3,-3,3]],dtype=tf.float32)
tf.print(c,"\n")
RESULTS["c_3"] = c

tf.print(tf.boolean_mask(c,c<0),"\n") 
RESULTS["tf_boolean_mask_c_c_0"] = tf.boolean_mask(c,c<0)
tf.print(c[c<0]) # This is the syntactic sugar of boolean_mask for boolean indexing.
RESULTS["c_c_0"] = c[c<0]
# Find elements that are less than 0, create a new tensor by replacing these elements with np.nan.
# tf.where is similar to np.where, which is the "if" for the tensors

c = tf.constant([[-1,1,-1],[2,2,-2],[3,-3,3]],dtype=tf.float32)
d = tf.where(c<0,tf.fill(c.shape,np.nan),c) 
RESULTS["d_2"] = d
# The method where returns all the coordinates that satisfy the condition if there is only one argument
indices = tf.where(c<0)
RESULTS["indices"] = indices
# Create a new tensor by replacing the value of two tensor elements located at [0,0] [2,1] as 0.
d = c - tf.scatter_nd([[0,0],[2,1]],[c[0,0],c[2,1]],c.shape)
RESULTS["d_3"] = d
# The method scatter_nd functions inversly to gather_nd
# This method can be used to insert values on the given positions in an all-zero tensor with a known shape.
indices = tf.where(c<0)
RESULTS["tf_scatter_nd_indices_tf_gather_nd_c_ind"] = tf.scatter_nd(indices,tf.gather_nd(c,indices),c.shape)
a = tf.random.uniform(shape=[1,3,3,2],
                      minval=0,maxval=255,dtype=tf.int32)
tf.print(a.shape)
RESULTS["a_shape"] = list(a.shape)
tf.print(a)
RESULTS["a_5"] = a
# Reshape into (3,6)
b = tf.reshape(a,[3,6])
tf.print(b.shape)
RESULTS["b_shape"] = list(b.shape)
tf.print(b)
RESULTS["b_5"] = b
# Reshape back to (1,3,3,2)
c = tf.reshape(b,[1,3,3,2])
tf.print(c)
RESULTS["c_4"] = c
s = tf.squeeze(a)
tf.print(s.shape)
RESULTS["s_shape"] = list(s.shape)
tf.print(s)
RESULTS["s_3"] = s
d = tf.expand_dims(s,axis=0) # Insert an extra dimension to the 0th dim with length = 1
RESULTS["d_4"] = d
# Batch,Height,Width,Channel
a = tf.random.uniform(shape=[10,60,60,4],minval=0,maxval=255,dtype=tf.int32)
tf.print(a.shape)
RESULTS["a_shape_2"] = list(a.shape)

# Transform to the order as Channel,Height,Width,Batch
s= tf.transpose(a,perm=[3,1,2,0])
tf.print(s.shape)
RESULTS["s_shape_2"] = list(s.shape)
a = tf.constant([[1.0,2.0],[3.0,4.0]])
b = tf.constant([[5.0,6.0],[7.0,8.0]])
c = tf.constant([[9.0,10.0],[11.0,12.0]])

RESULTS["tf_concat_a_b_c_axis_0"] = tf.concat([a,b,c],axis = 0)
RESULTS["tf_concat_a_b_c_axis_1"] = tf.concat([a,b,c],axis = 1)
RESULTS["tf_stack_a_b_c"] = tf.stack([a,b,c])
RESULTS["tf_stack_a_b_c_axis_1"] = tf.stack([a,b,c],axis=1)
a = tf.constant([[1.0,2.0],[3.0,4.0]])
b = tf.constant([[5.0,6.0],[7.0,8.0]])
c = tf.constant([[9.0,10.0],[11.0,12.0]])

c = tf.concat([a,b,c],axis = 0)
#tf.split(value,num_or_size_splits,axis)
RESULTS["tf_split_c_3_axis_0"] = tf.split(c,3,axis = 0)  # Even splitting with given number of portions
RESULTS["tf_split_c_2_2_2_axis_0"] = tf.split(c,[2,2,2],axis = 0) # Splitting with given size of each portion.

