"""Title: Neural machine translation with a Transformer and Keras (TensorFlow Text tutorial)
Source: https://github.com/tensorflow/text/blob/17c38bf014810b80abbb7c13ff1c2ac3cd9f710f/docs/tutorials/transformer.ipynb
Licence: Apache-2.0 (tensorflow/text)
Changed: pip/apt cells, matplotlib and tensorflow_text/tensorflow_datasets imports removed; the
TED pt->en dataset (tfds download) -> 64 train / 16 validation pairs of synthetic sentences
(words "pt<i>" / "en<i>", 3-10 per sentence, from a seeded NumPy generator); the downloaded
subword tokenizers SavedModel -> `_Tokenizer`, a small stand-in with the same methods
(tokenize -> ragged int64 ids with [START]=2/[END]=3, hashing words into a 500-id vocabulary;
detokenize; lookup; get_vocab_size, whose .numpy() is a Python int: Keras 3's Embedding
rejects the NumPy int32 that the real tokenizer's gives); the token-length histogram cell removed; sizes:
BUFFER_SIZE 20000 -> 64, BATCH_SIZE 64 -> 16, MAX_TOKENS 128 -> 16, the demonstration layers'
d_model 512 -> 64 and dff 2048 -> 128 (positional_encoding plot demo keeps length 2048, depth 512),
the sample Encoder/Decoder num_layers 4 -> 2, the Transformer num_layers 4 -> 2, d_model
128 -> 32, dff 512 -> 64; epochs 20 -> 2, verbose=0; keras.utils.set_random_seed(0) (all
initializers, dropout and the shuffle are unseeded); the export directory 'translator' -> a
tempfile directory. Shapes, masks, outputs, losses, translations and attention -> RESULTS.
"""
import logging
import tempfile
import time

import numpy as np

import tensorflow as tf
import keras

keras.utils.set_random_seed(0)
RESULTS = {}


class _Tokenizer:
  """Stand-in for the tutorial's downloaded subword tokenizer (same methods)."""
  def __init__(self, vocab_size=500):
    self.n = vocab_size
    self.vocab = tf.constant(["", "[UNK]", "[START]", "[END]"] +
                             [f"t{i}" for i in range(vocab_size - 4)])

  def tokenize(self, strings):
    words = tf.strings.split(strings)
    ids = tf.strings.to_hash_bucket_fast(words, self.n - 4) + 4
    start = tf.fill([ids.nrows(), 1], tf.constant(2, tf.int64))
    end = tf.fill([ids.nrows(), 1], tf.constant(3, tf.int64))
    return tf.concat([start, ids, end], axis=1)

  def detokenize(self, ids):
    return tf.strings.reduce_join(tf.gather(self.vocab, ids), axis=-1, separator=" ")

  def lookup(self, ids):
    return tf.gather(self.vocab, ids)

  def get_vocab_size(self):
    return _Size(self.n)


class _Size(int):
  def numpy(self):  # (a Python int: Keras 3's Embedding refuses a NumPy int32 input_dim)
    return int(self)


class _Tokenizers:
  pt = _Tokenizer()
  en = _Tokenizer()


def _sentences(rng, prefix, n):
  return [" ".join(f"{prefix}{w}" for w in rng.integers(0, 60, rng.integers(3, 11)))
          for _ in range(n)]


_rng = np.random.default_rng(0)
train_examples = tf.data.Dataset.from_tensor_slices(
    (_sentences(_rng, "pt", 64), _sentences(_rng, "en", 64)))
val_examples = tf.data.Dataset.from_tensor_slices(
    (_sentences(_rng, "pt", 16), _sentences(_rng, "en", 16)))
for pt_examples, en_examples in train_examples.batch(3).take(1):
  print('> Examples in Portuguese:')
  for pt in pt_examples.numpy():
    print(pt.decode('utf-8'))
  print()

  print('> Examples in English:')
  for en in en_examples.numpy():
    print(en.decode('utf-8'))
tokenizers = _Tokenizers()
encoded = tokenizers.en.tokenize(en_examples)

print('> This is a padded-batch of token IDs:')
for row in encoded.to_list():
  print(row)
RESULTS["encoded_row0"] = encoded.to_list()[0]
round_trip = tokenizers.en.detokenize(encoded)
print('> This is the text split into tokens:')
tokens = tokenizers.en.lookup(encoded)
MAX_TOKENS=16
def prepare_batch(pt, en):
    pt = tokenizers.pt.tokenize(pt)      # Output is ragged.
    pt = pt[:, :MAX_TOKENS]    # Trim to MAX_TOKENS.
    pt = pt.to_tensor()  # Convert to 0-padded dense Tensor

    en = tokenizers.en.tokenize(en)
    en = en[:, :(MAX_TOKENS+1)]
    en_inputs = en[:, :-1].to_tensor()  # Drop the [END] tokens
    en_labels = en[:, 1:].to_tensor()   # Drop the [START] tokens

    return (pt, en_inputs), en_labels
BUFFER_SIZE = 64
BATCH_SIZE = 16
def make_batches(ds):
  return (
      ds
      .shuffle(BUFFER_SIZE)
      .batch(BATCH_SIZE)
      .map(prepare_batch, tf.data.AUTOTUNE)
      .prefetch(buffer_size=tf.data.AUTOTUNE))
# Create training and validation set batches.
train_batches = make_batches(train_examples)
val_batches = make_batches(val_examples)
for (pt, en), en_labels in train_batches.take(1):
  break

print(pt.shape)
print(en.shape)
print(en_labels.shape)
print(en[0][:10])
print(en_labels[0][:10])
RESULTS["pt_shape"] = list(pt.shape)
RESULTS["en_shape"] = list(en.shape)
RESULTS["en0"] = en[0][:10]
RESULTS["en_labels0"] = en_labels[0][:10]
def positional_encoding(length, depth):
  depth = depth/2

  positions = np.arange(length)[:, np.newaxis]     # (seq, 1)
  depths = np.arange(depth)[np.newaxis, :]/depth   # (1, depth)
  
  angle_rates = 1 / (10000**depths)         # (1, depth)
  angle_rads = positions * angle_rates      # (pos, depth)

  pos_encoding = np.concatenate(
      [np.sin(angle_rads), np.cos(angle_rads)],
      axis=-1) 

  return tf.cast(pos_encoding, dtype=tf.float32)
#@title
pos_encoding = positional_encoding(length=2048, depth=512)

# Check the shape.
print(pos_encoding.shape)
RESULTS["pos_encoding_rows"] = pos_encoding[::256, ::64]
#@title
pos_encoding/=tf.norm(pos_encoding, axis=1, keepdims=True)
p = pos_encoding[1000]
dots = tf.einsum('pd,d -> p', pos_encoding, p)
RESULTS["dots"] = dots[::64]

class PositionalEmbedding(tf.keras.layers.Layer):
  def __init__(self, vocab_size, d_model):
    super().__init__()
    self.d_model = d_model
    self.embedding = tf.keras.layers.Embedding(vocab_size, d_model, mask_zero=True) 
    self.pos_encoding = positional_encoding(length=2048, depth=d_model)

  def compute_mask(self, *args, **kwargs):
    return self.embedding.compute_mask(*args, **kwargs)

  def call(self, x):
    length = tf.shape(x)[1]
    x = self.embedding(x)
    # This factor sets the relative scale of the embedding and positonal_encoding.
    x *= tf.math.sqrt(tf.cast(self.d_model, tf.float32))
    x = x + self.pos_encoding[tf.newaxis, :length, :]
    return x

embed_pt = PositionalEmbedding(vocab_size=tokenizers.pt.get_vocab_size().numpy(), d_model=64)
embed_en = PositionalEmbedding(vocab_size=tokenizers.en.get_vocab_size().numpy(), d_model=64)

pt_emb = embed_pt(pt)
en_emb = embed_en(en)
RESULTS["en_emb_mask"] = en_emb._keras_mask
RESULTS["pt_emb"] = pt_emb[0, :4, :8]
class BaseAttention(tf.keras.layers.Layer):
  def __init__(self, **kwargs):
    super().__init__()
    self.mha = tf.keras.layers.MultiHeadAttention(**kwargs)
    self.layernorm = tf.keras.layers.LayerNormalization()
    self.add = tf.keras.layers.Add()
class CrossAttention(BaseAttention):
  def call(self, x, context):
    attn_output, attn_scores = self.mha(
        query=x,
        key=context,
        value=context,
        return_attention_scores=True)
   
    # Cache the attention scores for plotting later.
    self.last_attn_scores = attn_scores

    x = self.add([x, attn_output])
    x = self.layernorm(x)

    return x
sample_ca = CrossAttention(num_heads=2, key_dim=64)

print(pt_emb.shape)
print(en_emb.shape)
print(sample_ca(en_emb, pt_emb).shape)
RESULTS["sample_ca"] = sample_ca(en_emb, pt_emb)[0, :3, :8]
RESULTS["sample_ca_scores"] = sample_ca.last_attn_scores[0, 0]
class GlobalSelfAttention(BaseAttention):
  def call(self, x):
    attn_output = self.mha(
        query=x,
        value=x,
        key=x)
    x = self.add([x, attn_output])
    x = self.layernorm(x)
    return x
sample_gsa = GlobalSelfAttention(num_heads=2, key_dim=64)

print(pt_emb.shape)
print(sample_gsa(pt_emb).shape)
RESULTS["sample_gsa"] = sample_gsa(pt_emb)[0, :3, :8]
class CausalSelfAttention(BaseAttention):
  def call(self, x):
    attn_output = self.mha(
        query=x,
        value=x,
        key=x,
        use_causal_mask = True)
    x = self.add([x, attn_output])
    x = self.layernorm(x)
    return x
sample_csa = CausalSelfAttention(num_heads=2, key_dim=64)

print(en_emb.shape)
print(sample_csa(en_emb).shape)
RESULTS["sample_csa"] = sample_csa(en_emb)[0, :3, :8]
out1 = sample_csa(embed_en(en[:, :3])) 
out2 = sample_csa(embed_en(en))[:, :3]

RESULTS["causal_max_diff_small"] = tf.reduce_max(abs(out1 - out2)).numpy() < 1e-4
class FeedForward(tf.keras.layers.Layer):
  def __init__(self, d_model, dff, dropout_rate=0.1):
    super().__init__()
    self.seq = tf.keras.Sequential([
      tf.keras.layers.Dense(dff, activation='relu'),
      tf.keras.layers.Dense(d_model),
      tf.keras.layers.Dropout(dropout_rate)
    ])
    self.add = tf.keras.layers.Add()
    self.layer_norm = tf.keras.layers.LayerNormalization()

  def call(self, x):
    x = self.add([x, self.seq(x)])
    x = self.layer_norm(x) 
    return x

sample_ffn = FeedForward(64, 128)

print(en_emb.shape)
print(sample_ffn(en_emb).shape)
RESULTS["sample_ffn"] = sample_ffn(en_emb)[0, :3, :8]
class EncoderLayer(tf.keras.layers.Layer):
  def __init__(self,*, d_model, num_heads, dff, dropout_rate=0.1):
    super().__init__()

    self.self_attention = GlobalSelfAttention(
        num_heads=num_heads,
        key_dim=d_model,
        dropout=dropout_rate)

    self.ffn = FeedForward(d_model, dff)

  def call(self, x):
    x = self.self_attention(x)
    x = self.ffn(x)
    return x
sample_encoder_layer = EncoderLayer(d_model=64, num_heads=8, dff=128)

print(pt_emb.shape)
print(sample_encoder_layer(pt_emb).shape)
RESULTS["sample_encoder_layer"] = sample_encoder_layer(pt_emb)[0, :3, :8]
class Encoder(tf.keras.layers.Layer):
  def __init__(self, *, num_layers, d_model, num_heads,
               dff, vocab_size, dropout_rate=0.1):
    super().__init__()

    self.d_model = d_model
    self.num_layers = num_layers

    self.pos_embedding = PositionalEmbedding(
        vocab_size=vocab_size, d_model=d_model)

    self.enc_layers = [
        EncoderLayer(d_model=d_model,
                     num_heads=num_heads,
                     dff=dff,
                     dropout_rate=dropout_rate)
        for _ in range(num_layers)]
    self.dropout = tf.keras.layers.Dropout(dropout_rate)

  def call(self, x):
    # `x` is token-IDs shape: (batch, seq_len)
    x = self.pos_embedding(x)  # Shape `(batch_size, seq_len, d_model)`.
    
    # Add dropout.
    x = self.dropout(x)

    for i in range(self.num_layers):
      x = self.enc_layers[i](x)

    return x  # Shape `(batch_size, seq_len, d_model)`.
# Instantiate the encoder.
sample_encoder = Encoder(num_layers=2,
                         d_model=64,
                         num_heads=8,
                         dff=128,
                         vocab_size=8500)

sample_encoder_output = sample_encoder(pt, training=False)

# Print the shape.
print(pt.shape)
print(sample_encoder_output.shape)  # Shape `(batch_size, input_seq_len, d_model)`.
RESULTS["sample_encoder_output"] = sample_encoder_output[0, :3, :8]
class DecoderLayer(tf.keras.layers.Layer):
  def __init__(self,
               *,
               d_model,
               num_heads,
               dff,
               dropout_rate=0.1):
    super(DecoderLayer, self).__init__()

    self.causal_self_attention = CausalSelfAttention(
        num_heads=num_heads,
        key_dim=d_model,
        dropout=dropout_rate)
    
    self.cross_attention = CrossAttention(
        num_heads=num_heads,
        key_dim=d_model,
        dropout=dropout_rate)

    self.ffn = FeedForward(d_model, dff)

  def call(self, x, context):
    x = self.causal_self_attention(x=x)
    x = self.cross_attention(x=x, context=context)

    # Cache the last attention scores for plotting later
    self.last_attn_scores = self.cross_attention.last_attn_scores

    x = self.ffn(x)  # Shape `(batch_size, seq_len, d_model)`.
    return x
sample_decoder_layer = DecoderLayer(d_model=64, num_heads=8, dff=128)

sample_decoder_layer_output = sample_decoder_layer(
    x=en_emb, context=pt_emb)

print(en_emb.shape)
print(pt_emb.shape)
print(sample_decoder_layer_output.shape)  # `(batch_size, seq_len, d_model)`
RESULTS["sample_decoder_layer_output"] = sample_decoder_layer_output[0, :3, :8]
class Decoder(tf.keras.layers.Layer):
  def __init__(self, *, num_layers, d_model, num_heads, dff, vocab_size,
               dropout_rate=0.1):
    super(Decoder, self).__init__()

    self.d_model = d_model
    self.num_layers = num_layers

    self.pos_embedding = PositionalEmbedding(vocab_size=vocab_size,
                                             d_model=d_model)
    self.dropout = tf.keras.layers.Dropout(dropout_rate)
    self.dec_layers = [
        DecoderLayer(d_model=d_model, num_heads=num_heads,
                     dff=dff, dropout_rate=dropout_rate)
        for _ in range(num_layers)]

    self.last_attn_scores = None

  def call(self, x, context):
    # `x` is token-IDs shape (batch, target_seq_len)
    x = self.pos_embedding(x)  # (batch_size, target_seq_len, d_model)

    x = self.dropout(x)

    for i in range(self.num_layers):
      x  = self.dec_layers[i](x, context)

    self.last_attn_scores = self.dec_layers[-1].last_attn_scores

    # The shape of x is (batch_size, target_seq_len, d_model).
    return x
# Instantiate the decoder.
sample_decoder = Decoder(num_layers=2,
                         d_model=64,
                         num_heads=8,
                         dff=128,
                         vocab_size=8000)

output = sample_decoder(
    x=en,
    context=pt_emb)

# Print the shapes.
print(en.shape)
print(pt_emb.shape)
print(output.shape)
RESULTS["sample_decoder_output"] = output[0, :3, :8]
RESULTS["sample_decoder_attn_shape"] = list(sample_decoder.last_attn_scores.shape)  # (batch, heads, target_seq, input_seq)
class Transformer(tf.keras.Model):
  def __init__(self, *, num_layers, d_model, num_heads, dff,
               input_vocab_size, target_vocab_size, dropout_rate=0.1):
    super().__init__()
    self.encoder = Encoder(num_layers=num_layers, d_model=d_model,
                           num_heads=num_heads, dff=dff,
                           vocab_size=input_vocab_size,
                           dropout_rate=dropout_rate)

    self.decoder = Decoder(num_layers=num_layers, d_model=d_model,
                           num_heads=num_heads, dff=dff,
                           vocab_size=target_vocab_size,
                           dropout_rate=dropout_rate)

    self.final_layer = tf.keras.layers.Dense(target_vocab_size)

  def call(self, inputs):
    # To use a Keras model with `.fit` you must pass all your inputs in the
    # first argument.
    context, x  = inputs

    context = self.encoder(context)  # (batch_size, context_len, d_model)

    x = self.decoder(x, context)  # (batch_size, target_len, d_model)

    # Final linear layer output.
    logits = self.final_layer(x)  # (batch_size, target_len, target_vocab_size)

    try:
      # Drop the keras mask, so it doesn't scale the losses/metrics.
      # b/250038731
      del logits._keras_mask
    except AttributeError:
      pass

    # Return the final output and the attention weights.
    return logits
num_layers = 2
d_model = 32
dff = 64
num_heads = 8
dropout_rate = 0.1
transformer = Transformer(
    num_layers=num_layers,
    d_model=d_model,
    num_heads=num_heads,
    dff=dff,
    input_vocab_size=tokenizers.pt.get_vocab_size().numpy(),
    target_vocab_size=tokenizers.en.get_vocab_size().numpy(),
    dropout_rate=dropout_rate)
output = transformer((pt, en))

print(en.shape)
print(pt.shape)
print(output.shape)
RESULTS["transformer_output"] = output[0, :3, :8]
attn_scores = transformer.decoder.dec_layers[-1].last_attn_scores
print(attn_scores.shape)  # (batch, heads, target_seq, input_seq)
RESULTS["attn_scores_shape"] = list(attn_scores.shape)
transformer.summary()
RESULTS["transformer_params"] = transformer.count_params()
class CustomSchedule(tf.keras.optimizers.schedules.LearningRateSchedule):
  def __init__(self, d_model, warmup_steps=4000):
    super().__init__()

    self.d_model = d_model
    self.d_model = tf.cast(self.d_model, tf.float32)

    self.warmup_steps = warmup_steps

  def __call__(self, step):
    step = tf.cast(step, dtype=tf.float32)
    arg1 = tf.math.rsqrt(step)
    arg2 = step * (self.warmup_steps ** -1.5)

    return tf.math.rsqrt(self.d_model) * tf.math.minimum(arg1, arg2)
learning_rate = CustomSchedule(d_model)

optimizer = tf.keras.optimizers.Adam(learning_rate, beta_1=0.9, beta_2=0.98,
                                     epsilon=1e-9)
RESULTS["learning_rate"] = learning_rate(tf.range(1, 40000, 4000, dtype=tf.float32))
def masked_loss(label, pred):
  mask = label != 0
  loss_object = tf.keras.losses.SparseCategoricalCrossentropy(
    from_logits=True, reduction='none')
  loss = loss_object(label, pred)

  mask = tf.cast(mask, dtype=loss.dtype)
  loss *= mask

  loss = tf.reduce_sum(loss)/tf.reduce_sum(mask)
  return loss


def masked_accuracy(label, pred):
  pred = tf.argmax(pred, axis=2)
  label = tf.cast(label, pred.dtype)
  match = label == pred

  mask = label != 0

  match = match & mask

  match = tf.cast(match, dtype=tf.float32)
  mask = tf.cast(mask, dtype=tf.float32)
  return tf.reduce_sum(match)/tf.reduce_sum(mask)
transformer.compile(
    loss=masked_loss,
    optimizer=optimizer,
    metrics=[masked_accuracy])
history = transformer.fit(train_batches,
                epochs=2,
                validation_data=val_batches, verbose=0)
RESULTS["history"] = [history.history[k] for k in sorted(history.history)]
class Translator(tf.Module):
  def __init__(self, tokenizers, transformer):
    self.tokenizers = tokenizers
    self.transformer = transformer

  def __call__(self, sentence, max_length=MAX_TOKENS):
    # The input sentence is Portuguese, hence adding the `[START]` and `[END]` tokens.
    assert isinstance(sentence, tf.Tensor)
    if len(sentence.shape) == 0:
      sentence = sentence[tf.newaxis]

    sentence = self.tokenizers.pt.tokenize(sentence).to_tensor()

    encoder_input = sentence

    # As the output language is English, initialize the output with the
    # English `[START]` token.
    start_end = self.tokenizers.en.tokenize([''])[0]
    start = start_end[0][tf.newaxis]
    end = start_end[1][tf.newaxis]

    # `tf.TensorArray` is required here (instead of a Python list), so that the
    # dynamic-loop can be traced by `tf.function`.
    output_array = tf.TensorArray(dtype=tf.int64, size=0, dynamic_size=True)
    output_array = output_array.write(0, start)

    for i in tf.range(max_length):
      output = tf.transpose(output_array.stack())
      predictions = self.transformer([encoder_input, output], training=False)

      # Select the last token from the `seq_len` dimension.
      predictions = predictions[:, -1:, :]  # Shape `(batch_size, 1, vocab_size)`.

      predicted_id = tf.argmax(predictions, axis=-1)

      # Concatenate the `predicted_id` to the output which is given to the
      # decoder as its input.
      output_array = output_array.write(i+1, predicted_id[0])

      if predicted_id == end:
        break

    output = tf.transpose(output_array.stack())
    # The output shape is `(1, tokens)`.
    text = tokenizers.en.detokenize(output)[0]  # Shape: `()`.

    tokens = tokenizers.en.lookup(output)[0]

    # `tf.function` prevents us from using the attention_weights that were
    # calculated on the last iteration of the loop.
    # So, recalculate them outside the loop.
    self.transformer([encoder_input, output[:,:-1]], training=False)
    attention_weights = self.transformer.decoder.last_attn_scores

    return text, tokens, attention_weights
translator = Translator(tokenizers, transformer)
def print_translation(sentence, tokens, ground_truth):
  print(f'{"Input:":15s}: {sentence}')
  print(f'{"Prediction":15s}: {tokens.numpy().decode("utf-8")}')
  print(f'{"Ground truth":15s}: {ground_truth}')
RESULTS["translations"] = []
sentence = 'este é um problema que temos que resolver.'
ground_truth = 'this is a problem we have to solve .'

translated_text, translated_tokens, attention_weights = translator(
    tf.constant(sentence))
print_translation(sentence, translated_text, ground_truth)
RESULTS["translations"].append(translated_text.numpy().decode("utf-8"))
sentence = 'os meus vizinhos ouviram sobre esta ideia.'
ground_truth = 'and my neighboring homes heard about this idea .'

translated_text, translated_tokens, attention_weights = translator(
    tf.constant(sentence))
print_translation(sentence, translated_text, ground_truth)
RESULTS["translations"].append(translated_text.numpy().decode("utf-8"))
sentence = 'este é o primeiro livro que eu fiz.'
ground_truth = "this is the first book i've ever done."

translated_text, translated_tokens, attention_weights = translator(
    tf.constant(sentence))
print_translation(sentence, translated_text, ground_truth)
RESULTS["translations"].append(translated_text.numpy().decode("utf-8"))
RESULTS["translations"] = np.array(RESULTS["translations"])
head = 0
# Shape: `(batch=1, num_heads, seq_len_q, seq_len_k)`.
attention_heads = tf.squeeze(attention_weights, 0)
attention = attention_heads[head]
RESULTS["attention_shape"] = list(attention.shape)
RESULTS["attention"] = attention
in_tokens = tf.convert_to_tensor([sentence])
in_tokens = tokenizers.pt.tokenize(in_tokens).to_tensor()
in_tokens = tokenizers.pt.lookup(in_tokens)[0]
RESULTS["in_tokens"] = np.array([t.decode() for t in in_tokens.numpy()])
RESULTS["translated_tokens"] = np.array([t.decode() for t in translated_tokens.numpy()])
class ExportTranslator(tf.Module):
  def __init__(self, translator):
    self.translator = translator

  @tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.string)])
  def __call__(self, sentence):
    (result,
     tokens,
     attention_weights) = self.translator(sentence, max_length=MAX_TOKENS)

    return result
translator = ExportTranslator(translator)
RESULTS["exported"] = np.array(translator('este é o primeiro livro que eu fiz.').numpy().decode())
_export_dir = tempfile.mkdtemp()
tf.saved_model.save(translator, export_dir=_export_dir)
reloaded = tf.saved_model.load(_export_dir)
RESULTS["reloaded"] = np.array(reloaded('este é o primeiro livro que eu fiz.').numpy().decode())
