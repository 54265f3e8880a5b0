"""Layers whose ``call(self, x, context)`` takes two tensor inputs, MultiHeadAttention's masks,
and TextVectorization's ``ragged=True`` (shared by tools/record_keras_two_input.py, which
records Keras 3's numbers, and tests/test_keras_two_input.py).

Keras 3 builds a layer without a ``build`` of its own whose sublayers are unbuilt by tracing
``call`` on the call's own arguments first; MultiHeadAttention takes the Keras masks off its
inputs, so the first call of such a layer on masked tensors attends to every position, and a
later call on freshly masked tensors uses the masks."""
import numpy as np


def _attention_layer(keras):
    class CrossAttention(keras.layers.Layer):
        def __init__(self, units):
            super().__init__()
            self.mha = keras.layers.MultiHeadAttention(key_dim=units, num_heads=2)
            self.layernorm = keras.layers.LayerNormalization()
            self.add = keras.layers.Add()

        def call(self, x, context):
            out, scores = self.mha(query=x, value=context, return_attention_scores=True)
            self.scores = scores
            return self.layernorm(self.add([x, out]))
    return CrossAttention


def run(keras):
    keras.utils.set_random_seed(1)
    out = {}
    emb = keras.layers.Embedding(10, 4, mask_zero=True)
    q_ids, v_ids = np.array([[1, 2, 0], [3, 0, 0]]), np.array([[1, 2, 3, 0], [3, 4, 0, 0]])
    layer = _attention_layer(keras)(4)
    for call in ("first", "second"):  # (the first call builds by tracing: the masks go)
        x, ctx = emb(q_ids), emb(v_ids)
        y = layer(x, ctx) if call == "first" else layer(x=x, context=ctx)
        out[f"cross_{call}"] = np.asarray(y).tolist()
        out[f"cross_{call}_scores"] = np.asarray(layer.scores).tolist()
        out[f"cross_{call}_masks_left"] = [getattr(t, "_keras_mask", None) is not None for t in (x, ctx)]
    mha = keras.layers.MultiHeadAttention(num_heads=2, key_dim=3)
    x, y = emb(q_ids), emb(v_ids)
    _, scores = mha(x, y, return_attention_scores=True)  # (a query row masked whole: zero weights)
    out["mha_scores"] = np.asarray(scores).tolist()
    out["mha_masks_left"] = [getattr(t, "_keras_mask", None) is not None for t in (x, y)]
    _, scores = mha(x, y, return_attention_scores=True, use_causal_mask=True)  # (no masks left)
    out["mha_causal_scores"] = np.asarray(scores).tolist()
    x = emb(q_ids)  # (without dropout or scores Keras uses dot_product_attention: uniform weights)
    out["mha_dot_product_out"] = np.asarray(mha(x, x)).tolist()
    class Attend(keras.Model):  # (a subclassed model is built by tracing too)
        def __init__(self):
            super().__init__()
            self.mha = keras.layers.MultiHeadAttention(num_heads=1, key_dim=2)

        def call(self, inputs):
            return self.mha(inputs[0], inputs[1], return_attention_scores=True)[1]
    attend = Attend()
    out["model_scores"] = [np.asarray(attend([emb(q_ids), emb(v_ids)])).tolist() for _ in range(2)]
    x, y = emb(q_ids), emb(np.array([[0, 2, 0], [3, 0, 4]]))
    both = keras.layers.Add()([x, y])  # (the inputs' masks or-ed; None when an input has none)
    one = keras.layers.Add()([x, mha(x, x)])
    out["add_masks"] = [np.asarray(getattr(t, "_keras_mask", None)).tolist() for t in (both, one)]
    x = emb(q_ids)
    del x._keras_mask
    out["mask_deleted"] = getattr(x, "_keras_mask", None) is None

    holder = _attention_layer(keras)(4)

    class Holder(keras.Model):
        def __init__(self):
            super().__init__()
            self.inner = holder
            self.dense = keras.layers.Dense(2)

        def call(self, inputs):
            return self.dense(self.inner(inputs[0], inputs[1]))
    h = Holder()
    h((emb(q_ids), emb(v_ids)))
    lines = []
    h.summary(print_fn=lambda line, **_: lines.append(line))
    rows = [row.split("│") for row in "\n".join(lines).splitlines() if row.startswith("│")]
    out["summary_shapes"] = [row[2].strip() for row in rows if row[2].strip()]  # ("?": no compute_output_shape)

    vec = keras.layers.TextVectorization(ragged=True)
    vec.adapt(["The cat sat.", "The dog!", "a b c d e"])
    out["vec_ragged"] = vec(["the bird sat down now", "dog"]).to_list()
    cut = keras.layers.TextVectorization(ragged=True, output_sequence_length=2, vocabulary=["the", "cat"])
    out["vec_ragged_cut"] = cut(np.array(["the cat the", "x"])).to_list()
    out["vec_ragged_cut_2d"] = cut(np.array([["the cat the"], ["x"]])).to_list()
    whole = keras.layers.TextVectorization(ragged=True, split=None, vocabulary=["the", "cat"])
    out["vec_unsplit"] = np.asarray(whole(np.array(["the", "x"]))).tolist()
    try:
        keras.layers.TextVectorization(ragged=True, output_mode="count")
        out["vec_ragged_count"] = "no error"
    except ValueError as e:
        out["vec_ragged_count"] = type(e).__name__
    out["vec_config_ragged"] = vec.get_config()["ragged"]
    return out
