"""Record Keras 3's outputs and gradients for the layers of ``tapegrad.keras.layers``.

Run with a Python that has TensorFlow 2.21 and Keras 3 (never needed by tapegrad or by CI; the
tests only read what this script writes):

    $TAPEGRAD_TF_PYTHON tools/record_keras_layers.py

Every case builds a chain of layers from their constructor arguments, sets seeded weights with
``set_weights``, calls the chain on a fixed input (``training`` and ``mask`` as the case says)
and records, under ``tests/fixtures/keras_layers/``:

- ``layers.npz``: per case ``<case>/x`` (the input), ``<case>/w<i>_<j>`` (weight ``j`` of layer
  ``i``), ``<case>/seed<k>`` and ``<case>/out<k>`` (output ``k`` and the fixed random weights of
  the loss ``sum_k reduce_sum(out_k * seed_k)``), ``<case>/dx`` and ``<case>/dw<i>_<j>`` (the
  loss's gradients; a weight the loss does not reach has none), ``<case>/after<i>_<j>`` (every
  weight after the call: BatchNormalization's moving statistics), ``<case>/mask`` (an explicit
  mask), ``<case>/outmask`` (the mask the last layer computes, when it has one), and for
  Normalization cases ``<case>/adapt`` (the data given to ``adapt``);
- ``cases.json``: per case the layers (class, arguments, the weights' names and shapes, Keras's
  ``get_config()``), the call arguments and the regularization loss.
"""
import json
import os
import sys

import numpy as np

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(REPO, "tests", "fixtures", "keras_layers")


def L(cls, **kw):
    return {"class": cls, "args": kw}


# name: (layers, input shape, options); options: training, mask (bool array spec), ints (vocab
# size for integer input), initial_state (shapes), reg (regularizers), adapt (data shape).
CASES = {
    # ---------------------------------------------------------------- convolutions
    "conv1d_valid": ([L("Conv1D", filters=4, kernel_size=3)], (2, 7, 3), {}),
    "conv1d_same_dilated_relu": ([L("Conv1D", filters=4, kernel_size=3, padding="same", dilation_rate=2,
                                    activation="relu")], (2, 7, 3), {}),
    "conv1d_strided": ([L("Conv1D", filters=3, kernel_size=2, strides=2)], (2, 7, 3), {}),
    "conv1d_causal": ([L("Conv1D", filters=2, kernel_size=3, padding="causal", dilation_rate=2)],
                      (2, 8, 3), {}),
    "conv1d_groups": ([L("Conv1D", filters=4, kernel_size=2, groups=2, use_bias=False)], (2, 6, 4), {}),
    "conv1d_channels_first": ([L("Conv1D", filters=3, kernel_size=3, padding="same",
                                 data_format="channels_first")], (2, 4, 7), {}),
    "conv2d_valid": ([L("Conv2D", filters=4, kernel_size=3)], (2, 6, 5, 3), {}),
    "conv2d_same_strided_tanh": ([L("Conv2D", filters=5, kernel_size=(3, 2), strides=2, padding="same",
                                    activation="tanh")], (2, 7, 6, 3), {}),
    "conv2d_dilated_nobias": ([L("Conv2D", filters=3, kernel_size=3, dilation_rate=(2, 1), use_bias=False)],
                              (2, 7, 6, 2), {}),
    "conv2d_groups": ([L("Conv2D", filters=6, kernel_size=3, groups=2, padding="same")], (2, 5, 5, 4), {}),
    "conv2d_channels_first": ([L("Conv2D", filters=4, kernel_size=3, strides=(1, 2), padding="same",
                                 data_format="channels_first")], (2, 3, 6, 5), {}),
    "conv2d_regularized": ([L("Conv2D", filters=2, kernel_size=2)], (2, 4, 4, 2),
                           {"reg": {"kernel_regularizer": ["L2", {"l2": 0.01}],
                                    "bias_regularizer": ["L1", {"l1": 0.02}],
                                    "activity_regularizer": ["L2", {"l2": 0.001}]}}),
    "conv2d_transpose_valid": ([L("Conv2DTranspose", filters=3, kernel_size=3, strides=2)], (2, 4, 4, 2), {}),
    "conv2d_transpose_same_relu": ([L("Conv2DTranspose", filters=4, kernel_size=(3, 2), strides=(2, 1),
                                      padding="same", activation="relu")], (2, 4, 5, 3), {}),
    "conv2d_transpose_output_padding": ([L("Conv2DTranspose", filters=2, kernel_size=3, strides=2,
                                           output_padding=1)], (2, 3, 3, 2), {}),
    "conv2d_transpose_channels_first": ([L("Conv2DTranspose", filters=3, kernel_size=3, strides=2,
                                           padding="same", data_format="channels_first")],
                                        (2, 2, 3, 4), {}),
    "separable_conv2d_same": ([L("SeparableConv2D", filters=4, kernel_size=3, depth_multiplier=2,
                                 padding="same")], (2, 5, 5, 3), {}),
    "separable_conv2d_strided_relu": ([L("SeparableConv2D", filters=3, kernel_size=(2, 3), strides=2,
                                         activation="relu", use_bias=False)], (2, 6, 7, 2), {}),
    "separable_conv2d_channels_first": ([L("SeparableConv2D", filters=3, kernel_size=2,
                                           data_format="channels_first")], (2, 2, 5, 4), {}),
    "depthwise_conv2d": ([L("DepthwiseConv2D", kernel_size=3, depth_multiplier=2)], (2, 5, 6, 3), {}),
    "depthwise_conv2d_same_dilated": ([L("DepthwiseConv2D", kernel_size=2, padding="same", dilation_rate=2,
                                         activation="sigmoid")], (2, 5, 5, 2), {}),
    "depthwise_conv2d_strided_channels_first": ([L("DepthwiseConv2D", kernel_size=(3, 2), strides=2,
                                                   data_format="channels_first")], (2, 3, 6, 5), {}),
    # ---------------------------------------------------------------- pooling
    "max_pool1d": ([L("MaxPooling1D")], (2, 7, 3), {}),
    "max_pool1d_same_strided": ([L("MaxPooling1D", pool_size=3, strides=2, padding="same")], (2, 7, 3), {}),
    "max_pool1d_channels_first": ([L("MaxPooling1D", pool_size=2, data_format="channels_first")], (2, 3, 6), {}),
    "max_pool2d": ([L("MaxPooling2D")], (2, 6, 5, 3), {}),
    "max_pool2d_same_strided": ([L("MaxPooling2D", pool_size=3, strides=2, padding="same")], (2, 7, 6, 2), {}),
    "max_pool2d_channels_first": ([L("MaxPooling2D", pool_size=(2, 3), data_format="channels_first")],
                                  (2, 3, 5, 6), {}),
    "avg_pool1d": ([L("AveragePooling1D", pool_size=3, strides=1)], (2, 7, 3), {}),
    "avg_pool1d_same": ([L("AveragePooling1D", pool_size=2, padding="same")], (2, 7, 3), {}),
    "avg_pool2d": ([L("AveragePooling2D", pool_size=2)], (2, 6, 5, 3), {}),
    "avg_pool2d_same_strided": ([L("AveragePooling2D", pool_size=3, strides=2, padding="same")],
                                (2, 7, 6, 2), {}),
    "avg_pool2d_channels_first": ([L("AveragePooling2D", pool_size=2, data_format="channels_first")],
                                  (2, 3, 4, 6), {}),
    "global_avg_pool1d": ([L("GlobalAveragePooling1D")], (2, 5, 3), {}),
    "global_avg_pool1d_keepdims_channels_first": ([L("GlobalAveragePooling1D", keepdims=True,
                                                     data_format="channels_first")], (2, 3, 5), {}),
    "global_avg_pool1d_masked": ([L("GlobalAveragePooling1D")], (2, 5, 3), {"mask": [[1, 1, 1, 0, 0],
                                                                                      [1, 0, 1, 1, 1]]}),
    "global_avg_pool2d": ([L("GlobalAveragePooling2D")], (2, 4, 5, 3), {}),
    "global_avg_pool2d_keepdims_channels_first": ([L("GlobalAveragePooling2D", keepdims=True,
                                                     data_format="channels_first")], (2, 3, 4, 5), {}),
    "global_max_pool1d": ([L("GlobalMaxPooling1D")], (2, 5, 3), {}),
    "global_max_pool1d_keepdims": ([L("GlobalMaxPooling1D", keepdims=True)], (2, 5, 3), {}),
    "global_max_pool2d": ([L("GlobalMaxPooling2D")], (2, 4, 5, 3), {}),
    "global_max_pool2d_keepdims_channels_first": ([L("GlobalMaxPooling2D", keepdims=True,
                                                     data_format="channels_first")], (2, 3, 4, 5), {}),
    # ---------------------------------------------------------------- normalization
    "batchnorm_dense_train": ([L("BatchNormalization")], (6, 4), {"training": True}),
    "batchnorm_dense_infer": ([L("BatchNormalization")], (6, 4), {"training": False}),
    "batchnorm_image_train": ([L("BatchNormalization", momentum=0.9, epsilon=1e-2)], (3, 4, 3, 5),
                              {"training": True}),
    "batchnorm_image_infer": ([L("BatchNormalization", momentum=0.9, epsilon=1e-2)], (3, 4, 3, 5),
                              {"training": False}),
    "batchnorm_axis1_train": ([L("BatchNormalization", axis=1)], (3, 4, 3, 2), {"training": True}),
    "batchnorm_axis1_infer": ([L("BatchNormalization", axis=1)], (3, 4, 3, 2), {"training": False}),
    "batchnorm_nocenter_noscale_train": ([L("BatchNormalization", center=False, scale=False)], (5, 3),
                                         {"training": True}),
    "batchnorm_masked_train": ([L("BatchNormalization", momentum=0.8)], (2, 5, 3),
                               {"training": True, "mask": [[1, 1, 1, 0, 0], [1, 0, 1, 1, 1]]}),
    "batchnorm_noscale_infer": ([L("BatchNormalization", scale=False)], (5, 3), {"training": False}),
    "layernorm": ([L("LayerNormalization")], (3, 5), {}),
    "layernorm_image": ([L("LayerNormalization", epsilon=1e-2)], (2, 3, 4, 5), {}),
    "layernorm_axes": ([L("LayerNormalization", axis=[1, 2])], (2, 3, 4, 5), {}),
    "layernorm_axis1_nocenter": ([L("LayerNormalization", axis=1, center=False)], (2, 3, 4), {}),
    "layernorm_noscale": ([L("LayerNormalization", scale=False)], (3, 5), {}),
    "layernorm_rms": ([L("LayerNormalization", rms_scaling=True)], (3, 5), {}),
    # ---------------------------------------------------------------- embedding
    "embedding": ([L("Embedding", input_dim=10, output_dim=4)], (2, 5), {"ints": 10}),
    "embedding_mask_zero": ([L("Embedding", input_dim=8, output_dim=3, mask_zero=True)], (3, 6), {"ints": 8}),
    # ---------------------------------------------------------------- recurrent
    "simple_rnn": ([L("SimpleRNN", units=3)], (2, 5, 4), {}),
    "simple_rnn_sequences_state_relu": ([L("SimpleRNN", units=3, activation="relu", return_sequences=True,
                                           return_state=True)], (2, 5, 4), {}),
    "simple_rnn_backwards_masked": ([L("SimpleRNN", units=2, go_backwards=True, return_sequences=True)],
                                    (2, 5, 3), {"mask": [[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]]}),
    "simple_rnn_initial_state": ([L("SimpleRNN", units=3, use_bias=False)], (2, 4, 3),
                                 {"initial_state": [(2, 3)]}),
    "lstm": ([L("LSTM", units=3)], (2, 5, 4), {}),
    "lstm_sequences_state": ([L("LSTM", units=3, return_sequences=True, return_state=True)], (2, 5, 4), {}),
    "lstm_backwards_state": ([L("LSTM", units=2, go_backwards=True, return_state=True)], (2, 5, 3), {}),
    "lstm_activations": ([L("LSTM", units=3, activation="relu", recurrent_activation="hard_sigmoid",
                            return_sequences=True)], (2, 4, 3), {}),
    "lstm_initial_state": ([L("LSTM", units=3, return_sequences=True)], (2, 4, 3),
                           {"initial_state": [(2, 3), (2, 3)]}),
    "lstm_masked": ([L("LSTM", units=3, return_sequences=True, return_state=True)], (2, 6, 3),
                    {"mask": [[1, 1, 1, 1, 0, 0], [1, 1, 0, 1, 1, 1]]}),
    "lstm_nobias": ([L("LSTM", units=2, use_bias=False)], (2, 4, 3), {}),
    "gru": ([L("GRU", units=3)], (2, 5, 4), {}),
    "gru_sequences_state": ([L("GRU", units=3, return_sequences=True, return_state=True)], (2, 5, 4), {}),
    "gru_reset_before": ([L("GRU", units=3, reset_after=False, return_sequences=True)], (2, 5, 4), {}),
    "gru_backwards_initial_state": ([L("GRU", units=2, go_backwards=True, return_sequences=True)],
                                    (2, 4, 3), {"initial_state": [(2, 2)]}),
    "gru_masked": ([L("GRU", units=3, return_sequences=True)], (2, 5, 3),
                   {"mask": [[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]]}),
    "gru_nobias_reset_before": ([L("GRU", units=2, use_bias=False, reset_after=False)], (2, 4, 3), {}),
    "embedding_lstm": ([L("Embedding", input_dim=9, output_dim=4, mask_zero=True),
                        L("LSTM", units=3, return_sequences=True)], (3, 6), {"ints": 9, "zeros_tail": True}),
    "embedding_gru": ([L("Embedding", input_dim=9, output_dim=4, mask_zero=True), L("GRU", units=3)],
                      (3, 6), {"ints": 9, "zeros_tail": True}),
    "embedding_simple_rnn": ([L("Embedding", input_dim=9, output_dim=3, mask_zero=True),
                              L("SimpleRNN", units=2, return_state=True)], (3, 5), {"ints": 9, "zeros_tail": True}),
    "bidirectional_lstm": ([L("Bidirectional", layer=L("LSTM", units=3, return_sequences=True))],
                           (2, 5, 4), {}),
    "bidirectional_gru_sum": ([L("Bidirectional", layer=L("GRU", units=2), merge_mode="sum")], (2, 4, 3), {}),
    "bidirectional_simple_rnn_masked": ([L("Bidirectional", layer=L("SimpleRNN", units=2, return_sequences=True),
                                           merge_mode="mul")], (2, 5, 3),
                                        {"mask": [[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]]}),
    "bidirectional_lstm_masked_concat": ([L("Bidirectional", layer=L("LSTM", units=2, return_sequences=True))],
                                         (2, 5, 3), {"mask": [[1, 1, 1, 0, 0], [0, 1, 1, 1, 1]]}),
    "bidirectional_gru_masked_state": ([L("Bidirectional", layer=L("GRU", units=2, return_state=True))],
                                       (2, 5, 3), {"mask": [[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]]}),
    "lstm_dropout_seeded_train": ([L("LSTM", units=3, dropout=0.3, recurrent_dropout=0.2, seed=5,
                                     return_sequences=True)], (2, 4, 3), {"training": True}),
    "gru_dropout_seeded_train": ([L("GRU", units=2, dropout=0.4, seed=11)], (3, 4, 3), {"training": True}),
    "simple_rnn_dropout_seeded_train": ([L("SimpleRNN", units=3, dropout=0.25, recurrent_dropout=0.5,
                                           seed=3)], (2, 5, 3), {"training": True}),
    # ---------------------------------------------------------------- reshaping
    "upsampling2d": ([L("UpSampling2D")], (2, 3, 4, 2), {}),
    "upsampling2d_nearest_channels_first": ([L("UpSampling2D", size=(2, 3), data_format="channels_first")],
                                            (2, 2, 3, 4), {}),
    "upsampling2d_bilinear": ([L("UpSampling2D", size=(2, 3), interpolation="bilinear")], (2, 3, 4, 2), {}),
    "upsampling2d_bilinear_channels_first": ([L("UpSampling2D", size=3, interpolation="bilinear",
                                                data_format="channels_first")], (1, 2, 3, 3), {}),
    "zero_padding2d": ([L("ZeroPadding2D")], (2, 3, 4, 2), {}),
    "zero_padding2d_asymmetric": ([L("ZeroPadding2D", padding=((1, 2), (0, 3)))], (2, 3, 4, 2), {}),
    "zero_padding2d_channels_first": ([L("ZeroPadding2D", padding=(2, 1), data_format="channels_first")],
                                      (2, 2, 3, 4), {}),
    "cropping2d": ([L("Cropping2D", cropping=1)], (2, 5, 6, 2), {}),
    "cropping2d_asymmetric": ([L("Cropping2D", cropping=((1, 0), (2, 1)))], (2, 5, 6, 2), {}),
    "cropping2d_channels_first": ([L("Cropping2D", cropping=(1, 2), data_format="channels_first")],
                                  (2, 2, 5, 6), {}),
    # ---------------------------------------------------------------- preprocessing
    "normalization_adapt": ([L("Normalization")], (4, 3), {"adapt": (20, 3)}),
    "normalization_adapt_image": ([L("Normalization", axis=-1)], (2, 3, 3, 2), {"adapt": (5, 3, 3, 2)}),
    "normalization_adapt_axis_none": ([L("Normalization", axis=None)], (4, 3), {"adapt": (10, 3)}),
    "normalization_adapt_axes": ([L("Normalization", axis=(1, 2))], (2, 3, 4), {"adapt": (6, 3, 4)}),
    "normalization_given": ([L("Normalization", mean=[1.0, 2.0, -1.0], variance=[4.0, 0.25, 1.0])], (4, 3), {}),
    "normalization_invert": ([L("Normalization", mean=[1.0, 2.0, -1.0], variance=[4.0, 0.25, 1.0],
                                invert=True)], (4, 3), {}),
}


def _make(keras, cls, kw):
    kw = {k: (_make(keras, v["class"], v["args"]) if isinstance(v, dict) else v) for k, v in kw.items()}
    return getattr(keras.layers, cls)(**kw)


def _weight_values(rng, weights):
    vals = []
    for w in weights:
        shape = tuple(w.shape)
        if "variance" in w.path:
            vals.append(rng.uniform(0.5, 1.5, shape).astype(np.float32))
        else:
            vals.append((0.5 * rng.standard_normal(shape)).astype(np.float32))
    return vals


def record_case(tf, keras, name, case, seed):
    specs, in_shape, opt = case
    rng = np.random.default_rng(seed)
    arrays, meta = {}, {"layers": [], "input_shape": list(in_shape)}
    layers = []
    for spec in specs:
        kw = dict(spec["args"])
        for arg, (cls, cfg) in opt.get("reg", {}).items():
            kw[arg] = getattr(keras.regularizers, cls)(**cfg)
        layers.append(_make(keras, spec["class"], kw))
    if "ints" in opt:
        x = rng.integers(1, opt["ints"], in_shape).astype(np.int32)
        if opt.get("zeros_tail"):
            for i in range(in_shape[0]):
                x[i, in_shape[1] - i:] = 0
        if name == "embedding_mask_zero":
            x[0, 1] = x[1, 4:] = x[2, 0] = 0
    else:
        x = rng.standard_normal(in_shape).astype(np.float32)
    arrays["x"] = x
    if "adapt" in opt:
        data = (rng.standard_normal(opt["adapt"]) * rng.uniform(0.5, 3.0, opt["adapt"][1:]) +
                rng.standard_normal(opt["adapt"][1:])).astype(np.float32)
        arrays["adapt"] = data
        layers[0].adapt(data)
    call_kw = {"training": opt["training"]} if "training" in opt else {}
    mask = None
    if "mask" in opt:
        mask = np.asarray(opt["mask"], bool)
        arrays["mask"] = mask
    states = None
    if "initial_state" in opt:
        states = [tf.constant(rng.standard_normal(s).astype(np.float32)) for s in opt["initial_state"]]
        for k, st in enumerate(states):
            arrays[f"state{k}"] = st.numpy()

    # TensorFlow's CPU kernels lack channels_first convolutions and pooling: such a case runs the
    # channels_last twin of its layer (same weights) on the transposed input, and its results
    # are transposed back
    twin = specs[0]["args"].get("data_format") == "channels_first"
    chain = [_make(keras, specs[0]["class"], dict(specs[0]["args"], data_format="channels_last"))] if twin else layers
    to_cl = (lambda a: np.moveaxis(a, 1, -1)) if twin else (lambda a: a)
    from_cl = (lambda a: np.moveaxis(a, -1, 1)) if twin else (lambda a: a)
    meta["twin"] = twin

    def run(xt):
        h, m = xt, (None if mask is None else tf.constant(mask))
        for i, layer in enumerate(chain):
            kw = dict(call_kw)
            if m is not None:
                kw["mask"] = m
            if i == len(chain) - 1 and states is not None:
                kw["initial_state"] = states
            h, m = layer(h, **kw), layer.compute_mask(h, m)
        return h, m

    xt = tf.constant(to_cl(x))
    run(xt)  # builds every layer
    if twin:
        layers[0].build(in_shape)
    for i, layer in enumerate(layers):
        if specs[i]["class"] == "Normalization":  # its weights are what adapt() computed
            vals = layer.get_weights()
        else:
            vals = _weight_values(rng, layer.weights)
            layer.set_weights(vals)
            chain[i].set_weights(vals)
        for j, v in enumerate(vals):
            arrays[f"w{i}_{j}"] = v
        meta["layers"].append({
            "class": specs[i]["class"], "args": json.loads(json.dumps(specs[i]["args"])),
            "weights": [[w.path.split("/")[-1], list(w.shape), bool(w.trainable)] for w in layer.weights],
            "keras_config": json.loads(json.dumps(layer.get_config(), default=str)),
        })
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(([] if x.dtype.kind == "i" else [xt]) + (states or []))
        out, outmask = run(xt)
        outs = out if isinstance(out, (list, tuple)) else [out]
        loss = 0.0
        for k, o in enumerate(outs):
            s = rng.standard_normal(from_cl(np.zeros(o.shape)).shape).astype(np.float32)
            arrays[f"seed{k}"] = s
            arrays[f"out{k}"] = from_cl(o.numpy())
            loss = loss + tf.reduce_sum(o * to_cl(s))
    meta["outputs"] = len(outs)
    if x.dtype.kind != "i":
        arrays["dx"] = from_cl(tape.gradient(loss, xt).numpy())
    for k, g in enumerate(tape.gradient(loss, states) if states else []):
        arrays[f"dstate{k}"] = g.numpy()
    for i, layer in enumerate(chain):
        for j, w in enumerate(layer.weights):
            if w.trainable:
                g = tape.gradient(loss, w.value)
                if g is not None:
                    arrays[f"dw{i}_{j}"] = tf.convert_to_tensor(g).numpy()
            arrays[f"after{i}_{j}"] = np.asarray(w.numpy())
    if isinstance(outmask, (list, tuple)):  # return_state: the mask of the sequence output
        outmask = outmask[0]
    if outmask is not None:
        arrays["outmask"] = np.asarray(outmask)
    losses = [float(v) for layer in chain for v in layer.losses]
    meta["losses"] = sum(losses) if losses else None
    meta["call"] = call_kw
    meta["input_dtype"] = str(x.dtype)
    return arrays, meta


def record_cases(tf, keras, cases, only, recorder=lambda case: record_case):
    """Record every case (those whose name contains ``only``) twice, checking that the two runs
    agree: ``({"<case>/<array>": value}, {case: meta})``. ``recorder(case)`` picks the function
    that records a case (``record_case`` here)."""
    arrays, metas = {}, {}
    for seed, (name, case) in enumerate(cases.items()):
        if only and only not in name:
            continue
        rec = recorder(case)
        a, m = rec(tf, keras, name, case, seed)
        a2, _ = rec(tf, keras, name, case, seed)
        for k in a:
            if not np.array_equal(a[k], a2[k]):
                raise SystemExit(f"{name}/{k} differs between two runs")
        arrays.update({f"{name}/{k}": v for k, v in a.items()})
        metas[name] = m
        print(name, {k: v.shape for k, v in a.items() if k.startswith("out")})
    return arrays, metas


def main():
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from _tf import quiet_tensorflow
    tf = quiet_tensorflow()
    import keras
    only = sys.argv[1] if len(sys.argv) > 1 else None
    arrays, metas = record_cases(tf, keras, CASES, only)
    if only:
        return
    os.makedirs(OUT, exist_ok=True)
    np.savez_compressed(os.path.join(OUT, "layers.npz"), **arrays)
    with open(os.path.join(OUT, "cases.json"), "w") as f:
        json.dump({"versions": {"tensorflow": tf.__version__, "keras": keras.__version__}, "cases": metas},
                  f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
