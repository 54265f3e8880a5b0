"""Title: Three ways of training: fit, train_on_batch and a customized training loop with tf.function (Eat TensorFlow2 in 30 days, 6-2)
Source: https://github.com/lyhue1991/eat_tensorflow2_in_30_days/blob/9c9096b9e5a33c4bc739b93659099dd45515c276/english/Chapter6-2.md
Licence: Apache-2.0 (lyhue1991/eat_tensorflow2_in_30_days)
Changed: the chapter's Python code blocks in order; keras.utils.set_random_seed(0) at the top
(the datasets' shuffles and the initializers are unseeded); the unused `import pandas` removed
(pandas is not installed); the Reuters newswire dataset (datasets.reuters.load_data: 8982 +
2246 sequences of word indices, 46 topics, downloaded) -> 128 + 32 synthetic sequences of
20-399 word indices below 1000 and topics below 46 from a seeded NumPy generator (padded to
MAX_LEN = 300 by the chapter's own code); each way's 10 epochs -> 6 (the train_on_batch
loop still halves its learning rate at epoch 5); changes for Keras 3 (the chapter was written for
tf.keras 2): Embedding's `input_length=MAX_LEN` argument removed (Keras 3's Embedding has
none), `model.optimizer.lr` -> `model.optimizer.learning_rate` and the metrics'
`reset_states()` -> `reset_state()` (Keras 3's names), MAX_WORDS and CAT_NUM (NumPy integers)
-> int(...) (Keras 3's Embedding and Dense refuse a NumPy integer for input_dim and units);
test_on_batch's `reset_metrics=False` argument removed (Keras 3's test_on_batch has none and
does not reset the metrics); the padded data's first rows, the fit
history, the train_on_batch/test_on_batch results of each epoch, the custom loop's per-epoch
losses and accuracies (before the reset), the final learning rate and a few predictions ->
RESULTS.
"""
RESULTS = {}

import keras
keras.utils.set_random_seed(0)

import numpy as np 
import tensorflow as tf
from tensorflow.keras import * 

# Time stamps
@tf.function
def printbar():
    ts = tf.timestamp()
    today_ts = ts%(24*60*60)

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
    tf.print("=========="*8,end = "")
    tf.print(timestring)
    

MAX_LEN = 300
BATCH_SIZE = 32
_rng = np.random.default_rng(0)
_lengths_train = _rng.integers(20, 400, 128)
_lengths_test = _rng.integers(20, 400, 32)
x_train = np.array([list(_rng.integers(1, 1000, n)) for n in _lengths_train], dtype=object)
x_test = np.array([list(_rng.integers(1, 1000, n)) for n in _lengths_test], dtype=object)
y_train = _rng.integers(0, 46, 128)
y_test = _rng.integers(0, 46, 32)
x_train = preprocessing.sequence.pad_sequences(x_train,maxlen=MAX_LEN)
x_test = preprocessing.sequence.pad_sequences(x_test,maxlen=MAX_LEN)

MAX_WORDS = int(x_train.max()+1)
CAT_NUM = int(y_train.max()+1)
RESULTS["x_train_padded_head"] = x_train[:2]
RESULTS["MAX_WORDS"], RESULTS["CAT_NUM"] = MAX_WORDS, CAT_NUM

ds_train = tf.data.Dataset.from_tensor_slices((x_train,y_train)) \
          .shuffle(buffer_size = 1000).batch(BATCH_SIZE) \
          .prefetch(tf.data.experimental.AUTOTUNE).cache()
   
ds_test = tf.data.Dataset.from_tensor_slices((x_test,y_test)) \
          .shuffle(buffer_size = 1000).batch(BATCH_SIZE) \
          .prefetch(tf.data.experimental.AUTOTUNE).cache()

tf.keras.backend.clear_session()
def create_model():
    
    model = models.Sequential()
    model.add(layers.Embedding(MAX_WORDS,7))
    model.add(layers.Conv1D(filters = 64,kernel_size = 5,activation = "relu"))
    model.add(layers.MaxPool1D(2))
    model.add(layers.Conv1D(filters = 32,kernel_size = 3,activation = "relu"))
    model.add(layers.MaxPool1D(2))
    model.add(layers.Flatten())
    model.add(layers.Dense(CAT_NUM,activation = "softmax"))
    return(model)

def compile_model(model):
    model.compile(optimizer=optimizers.Nadam(),
                loss=losses.SparseCategoricalCrossentropy(),
                metrics=[metrics.SparseCategoricalAccuracy(),metrics.SparseTopKCategoricalAccuracy(5)]) 
    return(model)
 
model = create_model()
model.summary()
model = compile_model(model)

history = model.fit(ds_train,validation_data = ds_test,epochs = 6)
for _k, _v in history.history.items():
    RESULTS["fit_" + _k] = _v

tf.keras.backend.clear_session()

def create_model():
    model = models.Sequential()

    model.add(layers.Embedding(MAX_WORDS,7))
    model.add(layers.Conv1D(filters = 64,kernel_size = 5,activation = "relu"))
    model.add(layers.MaxPool1D(2))
    model.add(layers.Conv1D(filters = 32,kernel_size = 3,activation = "relu"))
    model.add(layers.MaxPool1D(2))
    model.add(layers.Flatten())
    model.add(layers.Dense(CAT_NUM,activation = "softmax"))
    return(model)

def compile_model(model):
    model.compile(optimizer=optimizers.Nadam(),
                loss=losses.SparseCategoricalCrossentropy(),
                metrics=[metrics.SparseCategoricalAccuracy(),metrics.SparseTopKCategoricalAccuracy(5)]) 
    return(model)
 
model = create_model()
model.summary()
model = compile_model(model)

def train_model(model,ds_train,ds_valid,epoches):

    for epoch in tf.range(1,epoches+1):
        model.reset_metrics()
        
        # Reduce learning rate at the late stage of training.
        if epoch == 5:
            model.optimizer.learning_rate.assign(model.optimizer.learning_rate/2.0)
            tf.print("Lowering optimizer Learning Rate...\n\n")
        
        for x, y in ds_train:
            train_result = model.train_on_batch(x, y)

        for x, y in ds_valid:
            valid_result = model.test_on_batch(x, y)
            
        if epoch%1 ==0:
            printbar()
            tf.print("epoch = ",epoch)
            print("train:",dict(zip(model.metrics_names,train_result)))
            print("valid:",dict(zip(model.metrics_names,valid_result)))
            _batch_log.append([train_result, valid_result])
            print("")

_batch_log = []
train_model(model,ds_train,ds_test,6)
RESULTS["train_on_batch_log"] = _batch_log
RESULTS["metrics_names"] = model.metrics_names
RESULTS["train_on_batch_final_lr"] = model.optimizer.learning_rate

tf.keras.backend.clear_session()

def create_model():
    
    model = models.Sequential()

    model.add(layers.Embedding(MAX_WORDS,7))
    model.add(layers.Conv1D(filters = 64,kernel_size = 5,activation = "relu"))
    model.add(layers.MaxPool1D(2))
    model.add(layers.Conv1D(filters = 32,kernel_size = 3,activation = "relu"))
    model.add(layers.MaxPool1D(2))
    model.add(layers.Flatten())
    model.add(layers.Dense(CAT_NUM,activation = "softmax"))
    return(model)

model = create_model()
model.summary()

optimizer = optimizers.Nadam()
loss_func = losses.SparseCategoricalCrossentropy()

train_loss = metrics.Mean(name='train_loss')
train_metric = metrics.SparseCategoricalAccuracy(name='train_accuracy')

valid_loss = metrics.Mean(name='valid_loss')
valid_metric = metrics.SparseCategoricalAccuracy(name='valid_accuracy')

@tf.function
def train_step(model, features, labels):
    with tf.GradientTape() as tape:
        predictions = model(features,training = True)
        loss = loss_func(labels, predictions)
    gradients = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(gradients, model.trainable_variables))

    train_loss.update_state(loss)
    train_metric.update_state(labels, predictions)
    

@tf.function
def valid_step(model, features, labels):
    predictions = model(features)
    batch_loss = loss_func(labels, predictions)
    valid_loss.update_state(batch_loss)
    valid_metric.update_state(labels, predictions)
    

def train_model(model,ds_train,ds_valid,epochs):
    for epoch in tf.range(1,epochs+1):
        
        for features, labels in ds_train:
            train_step(model,features,labels)

        for features, labels in ds_valid:
            valid_step(model,features,labels)

        logs = 'Epoch={},Loss:{},Accuracy:{},Valid Loss:{},Valid Accuracy:{}'
        
        if epoch%1 ==0:
            printbar()
            tf.print(tf.strings.format(logs,
            (epoch,train_loss.result(),train_metric.result(),valid_loss.result(),valid_metric.result())))
            tf.print("")
            
        _custom_log.append([train_loss.result(),train_metric.result(),valid_loss.result(),valid_metric.result()])
        train_loss.reset_state()
        valid_loss.reset_state()
        train_metric.reset_state()
        valid_metric.reset_state()

_custom_log = []
train_model(model,ds_train,ds_test,6)
RESULTS["custom_loop_log"] = _custom_log
RESULTS["custom_loop_predictions"] = model(x_test[:4])
