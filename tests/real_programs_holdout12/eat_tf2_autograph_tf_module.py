"""Title: AutoGraph and tf.Module: input signatures, tf.Module with tf.function methods, saving and loading with tf.saved_model, graph tracing to a summary writer, Keras models as modules (Eat TensorFlow2 in 30 days, 4-5)
Source: https://github.com/lyhue1991/eat_tensorflow2_in_30_days/blob/9c9096b9e5a33c4bc739b93659099dd45515c276/english/Chapter4-5.md
Licence: Apache-2.0 (lyhue1991/eat_tensorflow2_in_30_days)
Changed: the chapter's Python code blocks in order; the "../data/..." save and log directories
-> directories in a tempfile directory; the `!saved_model_cli show` shell cell, the
`%reload_ext tensorboard` magic and the tensorboard notebook.list()/start() cells removed;
tf.summary.trace_on(graph=True, profiler=True) -> profiler=False and trace_export without its
profiler_outdir (the profiler is a separate tool that writes timing traces); the displayed
and printed values -> RESULTS (variables by their values, lists of variables and modules as
their count, names, shapes (as strings) or values); the Keras model's `model.submodules` cell
and `print(model.name_scope())` removed: Keras 3 models are not tf.Modules and have neither (the
chapter was written for tf.keras 2).
"""
import os
import tempfile

RESULTS = {}
_tmp = tempfile.mkdtemp()

import tensorflow as tf 
x = tf.Variable(1.0,dtype=tf.float32)

# Use input_signature to limit the signature type of the input tensors with shape and dtype inside the decorator tf.function
@tf.function(input_signature=[tf.TensorSpec(shape = [], dtype = tf.float32)])    
def add_print(a):
    x.assign_add(a)
    tf.print(x)
    return(x)

RESULTS["add_print"] = add_print(tf.constant(3.0))
#add_print(tf.constant(3)) # Error: argument inconsistent with the tensor signature.

class DemoModule(tf.Module):
    def __init__(self,init_value = tf.constant(0.0),name=None):
        super(DemoModule, self).__init__(name=name)
        with self.name_scope:  # Identical to: with tf.name_scope("demo_module")
            self.x = tf.Variable(init_value,dtype = tf.float32,trainable=True)

     
    @tf.function(input_signature=[tf.TensorSpec(shape = [], dtype = tf.float32)])  
    def addprint(self,a):
        with self.name_scope:
            self.x.assign_add(a)
            tf.print(self.x)
            return(self.x)


# Execute
demo = DemoModule(init_value = tf.constant(1.0))
result = demo.addprint(tf.constant(5.0))
RESULTS["demo_result"] = result

# Browse all variables and trainable variables in the module
print(demo.variables)
print(demo.trainable_variables)
RESULTS["demo_variables"] = [v.numpy() for v in demo.variables]
RESULTS["demo_variable_names"] = [v.name for v in demo.variables]
RESULTS["demo_trainable_variables"] = [v.numpy() for v in demo.trainable_variables]

# Browse all sub-modules
RESULTS["demo_submodules_count"] = len(demo.submodules)

# Save the model using tf.saved_model and specify the method of cross-platform deployment.
tf.saved_model.save(demo,os.path.join(_tmp, "data/demo/1"),signatures = {"serving_default":demo.addprint})

# Load the modle
demo2 = tf.saved_model.load(os.path.join(_tmp, "data/demo/1"))
RESULTS["demo2_addprint"] = demo2.addprint(tf.constant(5.0))
RESULTS["demo2_serving_default"] = demo2.signatures["serving_default"](tf.constant(1.0))["output_0"]
RESULTS["demo_x_after"] = demo.x.numpy()

import datetime

# Creating log
stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
logdir = os.path.join(_tmp, 'data/demomodule/%s' % stamp)
writer = tf.summary.create_file_writer(logdir)

# Start tracing of the Autograph
tf.summary.trace_on(graph=True, profiler=False) 

# Execute the Autograph
demo = DemoModule(init_value = tf.constant(0.0))
result = demo.addprint(tf.constant(5.0))
RESULTS["traced_result"] = result

# Write the info of the graph into the log
with writer.as_default():
    tf.summary.trace_export(
        name="demomodule",
        step=0)
RESULTS["log_files_written"] = len(os.listdir(logdir)) > 0

mymodule = tf.Module()
mymodule.x = tf.Variable(0.0)

@tf.function(input_signature=[tf.TensorSpec(shape = [], dtype = tf.float32)])  
def addprint(a):
    mymodule.x.assign_add(a)
    tf.print(mymodule.x)
    return (mymodule.x)

mymodule.addprint = addprint

RESULTS["mymodule_addprint"] = mymodule.addprint(tf.constant(1.0)).numpy()

print(mymodule.variables)
RESULTS["mymodule_variables"] = [v.numpy() for v in mymodule.variables]

# Save model using tf.saved_model
tf.saved_model.save(mymodule,os.path.join(_tmp, "data/mymodule"),
    signatures = {"serving_default":mymodule.addprint})

# Load the model
mymodule2 = tf.saved_model.load(os.path.join(_tmp, "data/mymodule"))
RESULTS["mymodule2_addprint"] = mymodule2.addprint(tf.constant(5.0))

import tensorflow as tf
from tensorflow.keras import models,layers,losses,metrics

print(issubclass(tf.keras.Model,tf.Module))
print(issubclass(tf.keras.layers.Layer,tf.Module))
print(issubclass(tf.keras.Model,tf.keras.layers.Layer))
RESULTS["issubclass"] = [issubclass(tf.keras.Model,tf.Module),
                         issubclass(tf.keras.layers.Layer,tf.Module),
                         issubclass(tf.keras.Model,tf.keras.layers.Layer)]

tf.keras.backend.clear_session() 

model = models.Sequential()

model.add(layers.Dense(4,input_shape = (10,)))
model.add(layers.Dense(2))
model.add(layers.Dense(1))
model.summary()
RESULTS["count_params"] = model.count_params()

RESULTS["variable_shapes"] = [str(list(v.shape)) for v in model.variables]

model.layers[0].trainable = False # Freeze the variables in layer 0, make it untrainable.
RESULTS["trainable_variable_shapes"] = [str(list(v.shape)) for v in model.trainable_variables]


RESULTS["layer_names"] = [layer.name for layer in model.layers]

print(model.name)
RESULTS["model_name"] = model.name
