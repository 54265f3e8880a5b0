"""Title: Low-level API demonstration: linear regression with a hand-written data iterator, GradientTape and variables updated by assign, eager and under tf.function; a DNN binary classifier as a tf.Module with input-signature tf.functions (Eat TensorFlow2 in 30 days, 3-1)
Source: https://github.com/lyhue1991/eat_tensorflow2_in_30_days/blob/9c9096b9e5a33c4bc739b93659099dd45515c276/english/Chapter3-1.md
Licence: Apache-2.0 (lyhue1991/eat_tensorflow2_in_30_days)
Changed: the chapter's Python code blocks in order; tf.keras.utils.set_random_seed(0) at the top
(the chapter draws its data with tf.random and shuffles with np.random, unseeded); the unused
pandas and matplotlib imports, the `%matplotlib`/`%config` magics and the plotting blocks removed;
the data sizes kept (400 regression samples, 2000 + 2000 ring samples) but the epochs cut to keep
the run short: the eager linear regression 200 -> 4 (its `epoch%50` prints -> `epoch%2`), the
tf.function one 200 -> 20 (prints `epoch%50` -> `epoch%10`), the DNN 600 -> 20 (prints
`epoch%100` -> `epoch%10`); printbar() kept (it prints the wall-clock time,
which is not recorded). The printed batches, losses, weights and metrics, and the DNN's
predictions for the plot's boolean masks -> RESULTS.
"""
RESULTS = {}

import tensorflow as tf
tf.keras.utils.set_random_seed(0)

# Time Stamp
@tf.function
def printbar():
    today_ts = tf.timestamp()%(24*60*60)

    hour = tf.cast(today_ts//3600+8,tf.int32)%tf.constant(24)
    minite = tf.cast((today_ts%3600)//60,tf.int32)
    second = tf.cast(tf.floor(today_ts%60),tf.int32)
    
    def timeformat(m):
        if tf.strings.length(tf.strings.format("{}",m))==1:
            return(tf.strings.format("0{}",m))
        else:
            return(tf.strings.format("{}",m))
    
    timestring = tf.strings.join([timeformat(hour),timeformat(minite),
                timeformat(second)],separator = ":")
    tf.print("=========="*8+timestring)

import numpy as np 
import tensorflow as tf


# Number of samples
n = 400

# Generating the datasets
X = tf.random.uniform([n,2],minval=-10,maxval=10) 
w0 = tf.constant([[2.0],[-3.0]])
b0 = tf.constant([[3.0]])
Y = X@w0 + b0 + tf.random.normal([n,1],mean = 0.0,stddev= 2.0)  # @ is matrix multiplication; adding Gaussian noise
RESULTS["reg_X"] = X
RESULTS["reg_Y"] = Y

# Creating generator of data pipeline
def data_iter(features, labels, batch_size=8):
    num_examples = len(features)
    indices = list(range(num_examples))
    np.random.shuffle(indices)  # Randomized reading order of the samples
    for i in range(0, num_examples, batch_size):
        indexs = indices[i: min(i + batch_size, num_examples)]
        yield tf.gather(features,indexs), tf.gather(labels,indexs)
        
# Testing the data pipeline
batch_size = 8
(features,labels) = next(data_iter(X,Y,batch_size))
print(features)
print(labels)
RESULTS["reg_first_batch_features"] = features
RESULTS["reg_first_batch_labels"] = labels

w = tf.Variable(tf.random.normal(w0.shape))
b = tf.Variable(tf.zeros_like(b0,dtype = tf.float32))
RESULTS["reg_w_init"] = w.numpy()

# Defining Model
class LinearRegression:     
    # Forward propagation
    def __call__(self,x): 
        return x@w + b

    # Loss function
    def loss_func(self,y_true,y_pred):  
        return tf.reduce_mean((y_true - y_pred)**2/2)

model = LinearRegression()

# Debug in dynamic graph
def train_step(model, features, labels):
    with tf.GradientTape() as tape:
        predictions = model(features)
        loss = model.loss_func(labels, predictions)
    # Back propagation to calculate the gradients
    dloss_dw,dloss_db = tape.gradient(loss,[w,b])
    # Updating parameters using gradient descending method
    w.assign(w - 0.001*dloss_dw)
    b.assign(b - 0.001*dloss_db)
    
    return loss
 
# Test the results of train_step
batch_size = 10
(features,labels) = next(data_iter(X,Y,batch_size))
RESULTS["reg_test_train_step_loss"] = train_step(model,features,labels)

_eager_log = []
def train_model(model,epochs):
    for epoch in tf.range(1,epochs+1):
        for features, labels in data_iter(X,Y,10):
            loss = train_step(model,features,labels)

        if epoch%2==0:
            printbar()
            tf.print("epoch =",epoch,"loss = ",loss)
            tf.print("w =",w)
            tf.print("b =",b)
            _eager_log.append([loss.numpy(), *w.numpy().ravel(), *b.numpy().ravel()])

train_model(model,epochs = 4)
RESULTS["reg_eager_log_loss_w_b"] = np.array(_eager_log)

## Accelerate using Autograph to transform the dynamic graph into static

@tf.function
def train_step(model, features, labels):
    with tf.GradientTape() as tape:
        predictions = model(features)
        loss = model.loss_func(labels, predictions)
    # Back propagation to calculate the gradients
    dloss_dw,dloss_db = tape.gradient(loss,[w,b])
    # Updating parameters using gradient descending method
    w.assign(w - 0.001*dloss_dw)
    b.assign(b - 0.001*dloss_db)
    
    return loss

_graph_log = []
def train_model(model,epochs):
    for epoch in tf.range(1,epochs+1):
        for features, labels in data_iter(X,Y,10):
            loss = train_step(model,features,labels)
        if epoch%10==0:
            printbar()
            tf.print("epoch =",epoch,"loss = ",loss)
            tf.print("w =",w)
            tf.print("b =",b)
        _graph_log.append(loss.numpy())

train_model(model,epochs = 20)
RESULTS["reg_graph_last_batch_loss_per_epoch"] = np.array(_graph_log)
RESULTS["reg_w_final"] = w.numpy()
RESULTS["reg_b_final"] = b.numpy()

import numpy as np 
import tensorflow as tf

# Number of the positive/negative samples
n_positive,n_negative = 2000,2000

# Generating the positive samples with a distribution on a smaller ring
r_p = 5.0 + tf.random.truncated_normal([n_positive,1],0.0,1.0)
theta_p = tf.random.uniform([n_positive,1],0.0,2*np.pi) 
Xp = tf.concat([r_p*tf.cos(theta_p),r_p*tf.sin(theta_p)],axis = 1)
Yp = tf.ones_like(r_p)

# Generating the negative samples with a distribution on a larger ring
r_n = 8.0 + tf.random.truncated_normal([n_negative,1],0.0,1.0)
theta_n = tf.random.uniform([n_negative,1],0.0,2*np.pi) 
Xn = tf.concat([r_n*tf.cos(theta_n),r_n*tf.sin(theta_n)],axis = 1)
Yn = tf.zeros_like(r_n)

# Assembling all samples
X = tf.concat([Xp,Xn],axis = 0)
Y = tf.concat([Yp,Yn],axis = 0)
RESULTS["dnn_X"] = X
RESULTS["dnn_Y"] = Y

# Create the generator of the data pipeline
def data_iter(features, labels, batch_size=8):
    num_examples = len(features)
    indices = list(range(num_examples))
    np.random.shuffle(indices)  # Randomizing the reading order of the samples
    for i in range(0, num_examples, batch_size):
        indexs = indices[i: min(i + batch_size, num_examples)]
        yield tf.gather(features,indexs), tf.gather(labels,indexs)
        
# Testing data pipeline
batch_size = 10
(features,labels) = next(data_iter(X,Y,batch_size))
print(features)
print(labels)
RESULTS["dnn_first_batch_features"] = features
RESULTS["dnn_first_batch_labels"] = labels

class DNNModel(tf.Module):
    def __init__(self,name = None):
        super(DNNModel, self).__init__(name=name)
        self.w1 = tf.Variable(tf.random.truncated_normal([2,4]),dtype = tf.float32)
        self.b1 = tf.Variable(tf.zeros([1,4]),dtype = tf.float32)
        self.w2 = tf.Variable(tf.random.truncated_normal([4,8]),dtype = tf.float32)
        self.b2 = tf.Variable(tf.zeros([1,8]),dtype = tf.float32)
        self.w3 = tf.Variable(tf.random.truncated_normal([8,1]),dtype = tf.float32)
        self.b3 = tf.Variable(tf.zeros([1,1]),dtype = tf.float32)

     
    # Forward propagation
    @tf.function(input_signature=[tf.TensorSpec(shape = [None,2], dtype = tf.float32)])  
    def __call__(self,x):
        x = tf.nn.relu(x@self.w1 + self.b1)
        x = tf.nn.relu(x@self.w2 + self.b2)
        y = tf.nn.sigmoid(x@self.w3 + self.b3)
        return y
    
    # Loss function (binary cross entropy)
    @tf.function(input_signature=[tf.TensorSpec(shape = [None,1], dtype = tf.float32),
                              tf.TensorSpec(shape = [None,1], dtype = tf.float32)])  
    def loss_func(self,y_true,y_pred):  
        # Limiting the prediction between 1e-7 and 1 - 1e-7 to avoid the error at log(0)
        eps = 1e-7
        y_pred = tf.clip_by_value(y_pred,eps,1.0-eps)
        bce = - y_true*tf.math.log(y_pred) - (1-y_true)*tf.math.log(1-y_pred)
        return  tf.reduce_mean(bce)
    
    # Metric (Accuracy)
    @tf.function(input_signature=[tf.TensorSpec(shape = [None,1], dtype = tf.float32),
                              tf.TensorSpec(shape = [None,1], dtype = tf.float32)]) 
    def metric_func(self,y_true,y_pred):
        y_pred = tf.where(y_pred>0.5,tf.ones_like(y_pred,dtype = tf.float32),
                          tf.zeros_like(y_pred,dtype = tf.float32))
        acc = tf.reduce_mean(1-tf.abs(y_true-y_pred))
        return acc
    
model = DNNModel()

# Testing the structure of model
batch_size = 10
(features,labels) = next(data_iter(X,Y,batch_size))

predictions = model(features)

loss = model.loss_func(labels,predictions)
metric = model.metric_func(labels,predictions)

tf.print("init loss:",loss)
tf.print("init metric",metric)
RESULTS["dnn_init_predictions"] = predictions
RESULTS["dnn_init_loss"] = loss
RESULTS["dnn_init_metric"] = metric

print(len(model.trainable_variables))
RESULTS["dnn_n_trainable_variables"] = len(model.trainable_variables)

## Transform to static graph for acceleration using Autograph

@tf.function
def train_step(model, features, labels):
    
    # Forward propagation to calculate the loss
    with tf.GradientTape() as tape:
        predictions = model(features)
        loss = model.loss_func(labels, predictions) 
        
    # Backward propagation to calculate the gradients
    grads = tape.gradient(loss, model.trainable_variables)
    
    # Applying gradient descending
    for p, dloss_dp in zip(model.trainable_variables,grads):
        p.assign(p - 0.001*dloss_dp)
        
    # Calculate metric
    metric = model.metric_func(labels,predictions)
    
    return loss, metric


_dnn_log = []
def train_model(model,epochs):
    for epoch in tf.range(1,epochs+1):
        for features, labels in data_iter(X,Y,100):
            loss,metric = train_step(model,features,labels)
        if epoch%10==0:
            printbar()
            tf.print("epoch =",epoch,"loss = ",loss, "accuracy = ", metric)
        _dnn_log.append([loss.numpy(), metric.numpy()])
        

train_model(model,epochs = 20)
RESULTS["dnn_last_batch_loss_metric_per_epoch"] = np.array(_dnn_log)
RESULTS["dnn_trainable_variables_concat"] = np.concatenate([v.numpy().ravel() for v in model.trainable_variables])
RESULTS["dnn_w3"] = model.w3.numpy()
RESULTS["dnn_b3"] = model.b3.numpy()

Xp_pred = tf.boolean_mask(X,tf.squeeze(model(X)>=0.5),axis = 0)
Xn_pred = tf.boolean_mask(X,tf.squeeze(model(X)<0.5),axis = 0)
RESULTS["dnn_n_pred_positive"] = int(Xp_pred.shape[0])
RESULTS["dnn_n_pred_negative"] = int(Xn_pred.shape[0])
RESULTS["dnn_Xp_pred_first10"] = Xp_pred[:10]
RESULTS["dnn_predictions_first20"] = model(X[:20])
