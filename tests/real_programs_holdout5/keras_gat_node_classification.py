"""Title: Graph attention network (GAT) for node classification (Keras example)
Source: https://github.com/keras-team/keras-io/blob/05307c120ea6abae994323d4b82b9d6e953cf799/examples/graph/gat_node_classification.py
Licence: Apache-2.0 (keras-team/keras-io)
Changed: the Cora download (keras.utils.get_file of cora.tgz; 2708 papers with 1433 binary
terms and 7 subjects, 5429 citations) read with pandas -> 240 synthetic papers (scattered
integer ids, 64 binary terms, 7 subject names) and 720 citations from a seeded NumPy generator,
held as NumPy columns instead of DataFrames (pandas is not a dependency): the id/subject
re-indexing `.apply(lambda ...)` -> the same dict look-ups in list comprehensions, `.iloc[idx]`
-> indexing each column, `sort_values("paper_id").iloc[:, 1:-1]` -> the term rows ordered by
paper index, the DataFrame prints -> shape prints; the pandas display options removed;
HIDDEN_UNITS 100 -> 16, NUM_HEADS 8 -> 4; epochs 100 -> 6 (EarlyStopping kept); batch_size
256 -> 32; verbose=2 -> 0 (and predict verbose=0); the model's kernels fixed (fix_weights)
after a first call builds it; the probability prints -> RESULTS.
"""

import os


os.environ["KERAS_BACKEND"] = "tensorflow"

import keras
from keras import layers
from keras import ops
import numpy as np
import warnings
from _corpus import fix_weights

warnings.filterwarnings("ignore")

keras.utils.set_random_seed(2)
RESULTS = {}

_rng = np.random.default_rng(0)
_names = ["Case_Based", "Genetic_Algorithms", "Neural_Networks", "Probabilistic_Methods",
          "Reinforcement_Learning", "Rule_Learning", "Theory"]
_ids = _rng.choice(np.arange(30, 1200000), 240, replace=False)
papers_paper_id = _ids
papers_terms = (_rng.random((240, 64)) < 0.1).astype(np.int64)
papers_subject = np.array([_names[i] for i in _rng.integers(0, 7, 240)])
citations_target = _rng.choice(_ids, 720)
citations_source = _rng.choice(_ids, 720)

class_values = sorted(np.unique(papers_subject))
class_idx = {name: id for id, name in enumerate(class_values)}
paper_idx = {name: idx for idx, name in enumerate(sorted(np.unique(papers_paper_id)))}

papers_paper_id = np.array([paper_idx[name] for name in papers_paper_id])
citations_source = np.array([paper_idx[name] for name in citations_source])
citations_target = np.array([paper_idx[name] for name in citations_target])
papers_subject = np.array([class_idx[value] for value in papers_subject])

print("citations", citations_target.shape)

print("papers", papers_terms.shape)

# Obtain random indices
random_indices = np.random.permutation(range(papers_terms.shape[0]))

# 50/50 split
train_rows = random_indices[: len(random_indices) // 2]
test_rows = random_indices[len(random_indices) // 2 :]

# Obtain paper indices which will be used to gather node states
# from the graph later on when training the model
train_indices = papers_paper_id[train_rows]
test_indices = papers_paper_id[test_rows]

# Obtain ground truth labels corresponding to each paper_id
train_labels = papers_subject[train_rows]
test_labels = papers_subject[test_rows]

# Define graph, namely an edge tensor and a node feature tensor
edges = ops.convert_to_tensor(np.stack([citations_target, citations_source], axis=1), dtype="int32")
node_states = ops.convert_to_tensor(
    papers_terms[np.argsort(papers_paper_id, kind="stable")], dtype="float32"
)

print("Edges shape:\t\t", edges.shape)
print("Node features shape:", node_states.shape)
RESULTS["train_indices"] = train_indices


class GraphAttention(layers.Layer):
    def __init__(
        self,
        units,
        kernel_initializer="glorot_uniform",
        kernel_regularizer=None,
        **kwargs,
    ):
        super().__init__(**kwargs)
        self.units = units
        self.kernel_initializer = keras.initializers.get(kernel_initializer)
        self.kernel_regularizer = keras.regularizers.get(kernel_regularizer)

    def build(self, input_shape):
        self.kernel = self.add_weight(
            shape=(input_shape[0][-1], self.units),
            trainable=True,
            initializer=self.kernel_initializer,
            regularizer=self.kernel_regularizer,
            name="kernel",
        )
        self.kernel_attention = self.add_weight(
            shape=(self.units * 2, 1),
            trainable=True,
            initializer=self.kernel_initializer,
            regularizer=self.kernel_regularizer,
            name="kernel_attention",
        )
        self.built = True

    def call(self, inputs):
        node_states, edges = inputs

        z = ops.matmul(node_states, self.kernel)

        source_indices = edges[:, 1]
        target_indices = edges[:, 0]

        z_target = ops.take(z, target_indices, axis=0)
        z_source = ops.take(z, source_indices, axis=0)

        z_concat = ops.concatenate([z_target, z_source], axis=-1)
        attention_scores = ops.leaky_relu(ops.matmul(z_concat, self.kernel_attention))
        attention_scores = ops.squeeze(attention_scores, -1)

        attention_scores = ops.exp(ops.clip(attention_scores, -2, 2))

        num_nodes = ops.shape(node_states)[0]
        attention_sum = ops.segment_sum(
            attention_scores, target_indices, num_segments=num_nodes
        )

        # Broadcast sum back to edges to normalize
        attention_sum_per_edge = ops.take(attention_sum, target_indices, axis=0)
        attention_norm = attention_scores / (attention_sum_per_edge + 1e-8)

        node_states_neighbors = ops.take(z, source_indices, axis=0)
        weighted_neighbors = node_states_neighbors * ops.expand_dims(
            attention_norm, axis=-1
        )

        return ops.segment_sum(
            weighted_neighbors, target_indices, num_segments=num_nodes
        )


class MultiHeadGraphAttention(layers.Layer):
    def __init__(self, units, num_heads=8, merge_type="concat", **kwargs):
        super().__init__(**kwargs)
        self.num_heads = num_heads
        self.merge_type = merge_type
        self.attention_layers = [GraphAttention(units) for _ in range(num_heads)]

    def call(self, inputs):
        node_states, edges = inputs
        outputs = [layer([node_states, edges]) for layer in self.attention_layers]

        if self.merge_type == "concat":
            outputs = ops.concatenate(outputs, axis=-1)
        else:
            outputs = ops.mean(ops.stack(outputs, axis=0), axis=0)

        return ops.relu(outputs)


class GraphAttentionNetwork(keras.Model):
    def __init__(
        self,
        node_states,
        edges,
        hidden_units,
        num_heads,
        num_layers,
        output_dim,
        **kwargs,
    ):
        super().__init__(**kwargs)
        self.node_states = node_states
        self.edges = edges
        self.preprocess = layers.Dense(hidden_units * num_heads, activation="relu")
        self.attention_layers = [
            MultiHeadGraphAttention(hidden_units, num_heads) for _ in range(num_layers)
        ]
        self.output_layer = layers.Dense(output_dim)

    def call(self, inputs, training=False):
        # inputs here are the indices of nodes we want predictions for
        indices = inputs

        x = self.preprocess(self.node_states)
        for attention_layer in self.attention_layers:
            x = attention_layer([x, self.edges]) + x

        # Return only the requested node states
        outputs = self.output_layer(x)
        return ops.take(outputs, indices, axis=0)


HIDDEN_UNITS = 16
NUM_HEADS = 4
NUM_LAYERS = 3
OUTPUT_DIM = len(class_values)

# Build and compile model
gat_model = GraphAttentionNetwork(
    node_states, edges, HIDDEN_UNITS, NUM_HEADS, NUM_LAYERS, OUTPUT_DIM
)
gat_model(train_indices[:2])
fix_weights(gat_model)

gat_model.compile(
    loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
    optimizer=keras.optimizers.SGD(learning_rate=0.003, momentum=0.9),
    metrics=["accuracy"],
)

history = gat_model.fit(
    x=train_indices,
    y=train_labels,
    validation_split=0.1,
    batch_size=32,
    epochs=6,
    callbacks=[
        keras.callbacks.EarlyStopping(
            monitor="val_accuracy", patience=5, restore_best_weights=True
        )
    ],
    verbose=0,
)
_, test_accuracy = gat_model.evaluate(x=test_indices, y=test_labels, verbose=0)

print("--" * 38 + f"\nTest Accuracy {test_accuracy*100:.1f}%")
RESULTS["loss"] = history.history["loss"]
RESULTS["val_loss"] = history.history["val_loss"]
RESULTS["test_accuracy"] = test_accuracy

test_logits = gat_model.predict(x=test_indices, verbose=0)

test_probs = ops.softmax(test_logits)

test_probs_np = ops.convert_to_numpy(test_probs)

mapping = {v: k for (k, v) in class_idx.items()}

for i, (probs, label) in enumerate(zip(test_probs_np[:10], test_labels[:10])):
    print(f"Example {i+1}: {mapping[label]}")
    for j, c in zip(probs, class_idx.keys()):
        print(f"\tProbability of {c: <24} = {j*100:7.3f}%")
    print("---" * 20)
RESULTS["test_probs"] = test_probs_np[:10]
