"""Title: Neural machine translation with attention (TensorFlow Text tutorial)
Source: https://github.com/tensorflow/text/blob/17c38bf014810b80abbb7c13ff1c2ac3cd9f710f/docs/tutorials/nmt_with_attention.ipynb
Licence: Apache-2.0 (tensorflow/text)
Changed: pip cells, matplotlib imports, the plotting cells (the attention heat-map cell and
plot_attention with its calls; the texts it translated are translated with translate instead)
and %%time lines removed; tensorflow_text and einops (not installed) -> small stand-ins:
`tf_text.normalize_utf8(text, 'NFKD')` decomposes the accented letters the data uses
(a/e/i/o/u acute, n tilde, u diaeresis) into base letter + combining mark with
tf.strings.regex_replace (NFKD for these letters), `einops.parse_shape` parses the
'batch s units' patterns, `einops.rearrange(tokens, 't batch 1 -> batch t')` is transpose of
the squeezed axis; the spa-eng download -> 600 synthetic (english, spanish) pairs made word by
word from a 28-word Spanish/English dictionary with a seeded NumPy generator; sizes: UNITS
256 -> 32, fit epochs 100 -> 2, steps_per_epoch 100 -> 5, validation_steps / evaluate steps
20 -> 2, translate's max_length defaults 50 and 500 -> 10; verbose=0; keras.utils
.set_random_seed(0) (np.random.uniform split, initializers, shuffles, categorical sampling are
unseeded); the export directories -> a tempfile directory. The printed/displayed values ->
RESULTS. Keras 3's RNN.get_initial_state takes the batch size, not an input tensor:
get_initial_state(embedded) -> get_initial_state(batch_size) in Decoder.get_initial_state.
"""
import numpy as np

import typing
from typing import Any, Tuple
import tempfile

import tensorflow as tf
import keras

keras.utils.set_random_seed(0)
RESULTS = {}


class tf_text:
  """Stand-in for tensorflow_text.normalize_utf8 on this program's letters."""
  _NFKD = [("á", "a\u0301"), ("é", "e\u0301"), ("í", "i\u0301"), ("ó", "o\u0301"),
           ("ú", "u\u0301"), ("ñ", "n\u0303"), ("ü", "u\u0308"), ("Á", "A\u0301"),
           ("É", "E\u0301"), ("Í", "I\u0301"), ("Ó", "O\u0301"), ("Ú", "U\u0301"),
           ("Ñ", "N\u0303")]

  @staticmethod
  def normalize_utf8(text, form):
    assert form == 'NFKD'
    for composed, decomposed in tf_text._NFKD:
      text = tf.strings.regex_replace(text, composed, decomposed)
    return text


class einops:
  """Stand-in for the two einops functions the tutorial uses."""
  @staticmethod
  def parse_shape(tensor, names):
    return {name: dim for name, dim in zip(names.split(), tensor.shape)
            if name not in ("_", "1")}

  @staticmethod
  def rearrange(tensor, pattern):
    assert pattern == 't batch 1 -> batch t'
    return tf.transpose(tf.squeeze(tensor, -1))


#@title
class ShapeChecker():
  def __init__(self):
    # Keep a cache of every axis-name seen
    self.shapes = {}

  def __call__(self, tensor, names, broadcast=False):
    if not tf.executing_eagerly():
      return

    parsed = einops.parse_shape(tensor, names)

    for name, new_dim in parsed.items():
      old_dim = self.shapes.get(name, None)
      
      if (broadcast and new_dim == 1):
        continue

      if old_dim is None:
        # If the axis name is new, add its length to the cache.
        self.shapes[name] = new_dim
        continue

      if new_dim != old_dim:
        raise ValueError(f"Shape mismatch for dimension: '{name}'\n"
                         f"    found: {new_dim}\n"
                         f"    expected: {old_dim}\n")
_DICT = {"hace": "it's", "mucho": "very", "frío": "cold", "aquí": "here", "esta": "this",
         "es": "is", "mi": "my", "vida": "life", "su": "his", "cuarto": "room", "un": "a",
         "desastre": "mess", "todavía": "still", "está": "is", "en": "at", "casa": "home",
         "tratar": "try", "de": "to", "descubrir": "find", "él": "he", "canción": "song",
         "mañana": "tomorrow", "niño": "boy", "pequeño": "small", "qué": "what",
         "dónde": "where", "tú": "you", "música": "music"}
_rng = np.random.default_rng(0)
_lines = []
for _ in range(600):
  _words = list(_rng.choice(list(_DICT), _rng.integers(2, 7)))
  _question = _rng.random() < 0.3
  _spa = " ".join(_words)
  _eng = " ".join(_DICT[w] for w in _words)
  _spa = ("¿" + _spa[0].upper() + _spa[1:] + "?") if _question else (_spa[0].upper() + _spa[1:] + ".")
  _eng = (_eng[0].upper() + _eng[1:] + ("?" if _question else "."))
  _lines.append(_eng + "\t" + _spa)
def load_data(text):
  lines = text.splitlines()
  pairs = [line.split('\t') for line in lines]

  context = np.array([context for target, context in pairs])
  target = np.array([target for target, context in pairs])

  return target, context
target_raw, context_raw = load_data("\n".join(_lines))
print(context_raw[-1])
print(target_raw[-1])
BUFFER_SIZE = len(context_raw)
BATCH_SIZE = 64

is_train = np.random.uniform(size=(len(target_raw),)) < 0.8

train_raw = (
    tf.data.Dataset
    .from_tensor_slices((context_raw[is_train], target_raw[is_train]))
    .shuffle(BUFFER_SIZE)
    .batch(BATCH_SIZE))
val_raw = (
    tf.data.Dataset
    .from_tensor_slices((context_raw[~is_train], target_raw[~is_train]))
    .shuffle(BUFFER_SIZE)
    .batch(BATCH_SIZE))
for example_context_strings, example_target_strings in train_raw.take(1):
  print(example_context_strings[:5])
  print()
  print(example_target_strings[:5])
  break
RESULTS["is_train_count"] = int(is_train.sum())
example_text = tf.constant('¿Todavía está en casa?')

print(example_text.numpy())
print(tf_text.normalize_utf8(example_text, 'NFKD').numpy())
RESULTS["normalized"] = np.frombuffer(tf_text.normalize_utf8(example_text, 'NFKD').numpy(), np.uint8)
def tf_lower_and_split_punct(text):
  # Split accented characters.
  text = tf_text.normalize_utf8(text, 'NFKD')
  text = tf.strings.lower(text)
  # Keep space, a to z, and select punctuation.
  text = tf.strings.regex_replace(text, '[^ a-z.?!,¿]', '')
  # Add spaces around punctuation.
  text = tf.strings.regex_replace(text, '[.?!,¿]', r' \0 ')
  # Strip whitespace.
  text = tf.strings.strip(text)

  text = tf.strings.join(['[START]', text, '[END]'], separator=' ')
  return text
print(example_text.numpy().decode())
print(tf_lower_and_split_punct(example_text).numpy().decode())
RESULTS["lower_and_split"] = np.array(tf_lower_and_split_punct(example_text).numpy().decode())
max_vocab_size = 5000

context_text_processor = tf.keras.layers.TextVectorization(
    standardize=tf_lower_and_split_punct,
    max_tokens=max_vocab_size,
    ragged=True)
context_text_processor.adapt(train_raw.map(lambda context, target: context))

# Here are the first 10 words from the vocabulary:
RESULTS["context_vocab"] = np.array(context_text_processor.get_vocabulary()[:10])
target_text_processor = tf.keras.layers.TextVectorization(
    standardize=tf_lower_and_split_punct,
    max_tokens=max_vocab_size,
    ragged=True)

target_text_processor.adapt(train_raw.map(lambda context, target: target))
RESULTS["target_vocab"] = np.array(target_text_processor.get_vocabulary()[:10])
example_tokens = context_text_processor(example_context_strings)
RESULTS["example_tokens0"] = example_tokens[0]
context_vocab = np.array(context_text_processor.get_vocabulary())
tokens = context_vocab[example_tokens[0].numpy()]
RESULTS["example_text0"] = np.array(' '.join(tokens))

def process_text(context, target):
  context = context_text_processor(context).to_tensor()
  target = target_text_processor(target)
  targ_in = target[:,:-1].to_tensor()
  targ_out = target[:,1:].to_tensor()
  return (context, targ_in), targ_out


train_ds = train_raw.map(process_text, tf.data.AUTOTUNE)
val_ds = val_raw.map(process_text, tf.data.AUTOTUNE)
for (ex_context_tok, ex_tar_in), ex_tar_out in train_ds.take(1):
  print(ex_context_tok[0, :10].numpy()) 
  print()
  print(ex_tar_in[0, :10].numpy()) 
  print(ex_tar_out[0, :10].numpy()) 
RESULTS["ex_context_tok0"] = ex_context_tok[0, :10].numpy()
RESULTS["ex_tar_in0"] = ex_tar_in[0, :10].numpy()
RESULTS["ex_tar_out0"] = ex_tar_out[0, :10].numpy()
UNITS = 32
class Encoder(tf.keras.layers.Layer):
  def __init__(self, text_processor, units):
    super(Encoder, self).__init__()
    self.text_processor = text_processor
    self.vocab_size = text_processor.vocabulary_size()
    self.units = units
    
    # The embedding layer converts tokens to vectors
    self.embedding = tf.keras.layers.Embedding(self.vocab_size, units,
                                               mask_zero=True)

    # The RNN layer processes those vectors sequentially.
    self.rnn = tf.keras.layers.Bidirectional(
        merge_mode='sum',
        layer=tf.keras.layers.GRU(units,
                            # Return the sequence and state
                            return_sequences=True,
                            recurrent_initializer='glorot_uniform'))

  def call(self, x):
    shape_checker = ShapeChecker()
    shape_checker(x, 'batch s')

    # 2. The embedding layer looks up the embedding vector for each token.
    x = self.embedding(x)
    shape_checker(x, 'batch s units')

    # 3. The GRU processes the sequence of embeddings.
    x = self.rnn(x)
    shape_checker(x, 'batch s units')

    # 4. Returns the new sequence of embeddings.
    return x

  def convert_input(self, texts):
    texts = tf.convert_to_tensor(texts)
    if len(texts.shape) == 0:
      texts = tf.convert_to_tensor(texts)[tf.newaxis]
    context = self.text_processor(texts).to_tensor()
    context = self(context)
    return context
# Encode the input sequence.
encoder = Encoder(context_text_processor, UNITS)
ex_context = encoder(ex_context_tok)

print(f'Context tokens, shape (batch, s): {ex_context_tok.shape}')
print(f'Encoder output, shape (batch, s, units): {ex_context.shape}')
RESULTS["ex_context"] = ex_context[0, :3, :8]
class CrossAttention(tf.keras.layers.Layer):
  def __init__(self, units, **kwargs):
    super().__init__()
    self.mha = tf.keras.layers.MultiHeadAttention(key_dim=units, num_heads=1, **kwargs)
    self.layernorm = tf.keras.layers.LayerNormalization()
    self.add = tf.keras.layers.Add()

  def call(self, x, context):
    shape_checker = ShapeChecker()
 
    shape_checker(x, 'batch t units')
    shape_checker(context, 'batch s units')

    attn_output, attn_scores = self.mha(
        query=x,
        value=context,
        return_attention_scores=True)
    
    shape_checker(x, 'batch t units')
    shape_checker(attn_scores, 'batch heads t s')
    
    # Cache the attention scores for plotting later.
    attn_scores = tf.reduce_mean(attn_scores, axis=1)
    shape_checker(attn_scores, 'batch t s')
    self.last_attention_weights = attn_scores

    x = self.add([x, attn_output])
    x = self.layernorm(x)

    return x
attention_layer = CrossAttention(UNITS)

# Attend to the encoded tokens
embed = tf.keras.layers.Embedding(target_text_processor.vocabulary_size(),
                                  output_dim=UNITS, mask_zero=True)
ex_tar_embed = embed(ex_tar_in)

result = attention_layer(ex_tar_embed, ex_context)

print(f'Context sequence, shape (batch, s, units): {ex_context.shape}')
print(f'Target sequence, shape (batch, t, units): {ex_tar_embed.shape}')
print(f'Attention result, shape (batch, t, units): {result.shape}')
print(f'Attention weights, shape (batch, t, s):    {attention_layer.last_attention_weights.shape}')
RESULTS["attention_result"] = result[0, :3, :8]
RESULTS["attention_weight_sums"] = attention_layer.last_attention_weights[0].numpy().sum(axis=-1)
attention_weights = attention_layer.last_attention_weights
mask=(ex_context_tok != 0).numpy()



class Decoder(tf.keras.layers.Layer):
  @classmethod
  def add_method(cls, fun):
    setattr(cls, fun.__name__, fun)
    return fun

  def __init__(self, text_processor, units):
    super(Decoder, self).__init__()
    self.text_processor = text_processor
    self.vocab_size = text_processor.vocabulary_size()
    self.word_to_id = tf.keras.layers.StringLookup(
        vocabulary=text_processor.get_vocabulary(),
        mask_token='', oov_token='[UNK]')
    self.id_to_word = tf.keras.layers.StringLookup(
        vocabulary=text_processor.get_vocabulary(),
        mask_token='', oov_token='[UNK]',
        invert=True)
    self.start_token = self.word_to_id('[START]')
    self.end_token = self.word_to_id('[END]')

    self.units = units


    # 1. The embedding layer converts token IDs to vectors
    self.embedding = tf.keras.layers.Embedding(self.vocab_size,
                                               units, mask_zero=True)

    # 2. The RNN keeps track of what's been generated so far.
    self.rnn = tf.keras.layers.GRU(units,
                                   return_sequences=True,
                                   return_state=True,
                                   recurrent_initializer='glorot_uniform')

    # 3. The RNN output will be the query for the attention layer.
    self.attention = CrossAttention(units)

    # 4. This fully connected layer produces the logits for each
    # output token.
    self.output_layer = tf.keras.layers.Dense(self.vocab_size)
@Decoder.add_method
def call(self,
         context, x,
         state=None,
         return_state=False):  
  shape_checker = ShapeChecker()
  shape_checker(x, 'batch t')
  shape_checker(context, 'batch s units')

  # 1. Lookup the embeddings
  x = self.embedding(x)
  shape_checker(x, 'batch t units')

  # 2. Process the target sequence.
  x, state = self.rnn(x, initial_state=state)
  shape_checker(x, 'batch t units')

  # 3. Use the RNN output as the query for the attention over the context.
  x = self.attention(x, context)
  self.last_attention_weights = self.attention.last_attention_weights
  shape_checker(x, 'batch t units')
  shape_checker(self.last_attention_weights, 'batch t s')

  # Step 4. Generate logit predictions for the next token.
  logits = self.output_layer(x)
  shape_checker(logits, 'batch t target_vocab_size')

  if return_state:
    return logits, state
  else:
    return logits
decoder = Decoder(target_text_processor, UNITS)
logits = decoder(ex_context, ex_tar_in)

print(f'encoder output shape: (batch, s, units) {ex_context.shape}')
print(f'input target tokens shape: (batch, t) {ex_tar_in.shape}')
print(f'logits shape shape: (batch, target_vocabulary_size) {logits.shape}')
RESULTS["decoder_logits"] = logits[0, :3, :8]
@Decoder.add_method
def get_initial_state(self, context):
  batch_size = tf.shape(context)[0]
  start_tokens = tf.fill([batch_size, 1], self.start_token)
  done = tf.zeros([batch_size, 1], dtype=tf.bool)
  embedded = self.embedding(start_tokens)
  return start_tokens, done, self.rnn.get_initial_state(batch_size)[0]
@Decoder.add_method
def tokens_to_text(self, tokens):
  words = self.id_to_word(tokens)
  result = tf.strings.reduce_join(words, axis=-1, separator=' ')
  result = tf.strings.regex_replace(result, '^ *\[START\] *', '')
  result = tf.strings.regex_replace(result, ' *\[END\] *$', '')
  return result
@Decoder.add_method
def get_next_token(self, context, next_token, done, state, temperature = 0.0):
  logits, state = self(
    context, next_token,
    state = state,
    return_state=True) 
  
  if temperature == 0.0:
    next_token = tf.argmax(logits, axis=-1)
  else:
    logits = logits[:, -1, :]/temperature
    next_token = tf.random.categorical(logits, num_samples=1)

  # If a sequence produces an `end_token`, set it `done`
  done = done | (next_token == self.end_token)
  # Once a sequence is done it only produces 0-padding.
  next_token = tf.where(done, tf.constant(0, dtype=tf.int64), next_token)
  
  return next_token, done, state
# Setup the loop variables.
next_token, done, state = decoder.get_initial_state(ex_context)
tokens = []

for n in range(10):
  # Run one step.
  next_token, done, state = decoder.get_next_token(
      ex_context, next_token, done, state, temperature=1.0)
  # Add the token to the output.
  tokens.append(next_token)

# Stack all the tokens together.
tokens = tf.concat(tokens, axis=-1) # (batch, t)

# Convert the tokens back to a a string
result = decoder.tokens_to_text(tokens)
RESULTS["sampled_tokens_shape"] = list(tokens.shape)
class Translator(tf.keras.Model):
  @classmethod
  def add_method(cls, fun):
    setattr(cls, fun.__name__, fun)
    return fun

  def __init__(self, units,
               context_text_processor,
               target_text_processor):
    super().__init__()
    # Build the encoder and decoder
    encoder = Encoder(context_text_processor, units)
    decoder = Decoder(target_text_processor, units)

    self.encoder = encoder
    self.decoder = decoder

  def call(self, inputs):
    context, x = inputs
    context = self.encoder(context)
    logits = self.decoder(context, x)

    #TODO(b/250038731): remove this
    try:
      # Delete the keras mask, so keras doesn't scale the loss+accuracy. 
      del logits._keras_mask
    except AttributeError:
      pass

    return logits
model = Translator(UNITS, context_text_processor, target_text_processor)

logits = model((ex_context_tok, ex_tar_in))

print(f'Context tokens, shape: (batch, s, units) {ex_context_tok.shape}')
print(f'Target tokens, shape: (batch, t) {ex_tar_in.shape}')
print(f'logits, shape: (batch, t, target_vocabulary_size) {logits.shape}')
RESULTS["model_logits"] = logits[0, :3, :8]
def masked_loss(y_true, y_pred):
    # Calculate the loss for each item in the batch.
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(
        from_logits=True, reduction='none')
    loss = loss_fn(y_true, y_pred)

    # Mask off the losses on padding.
    mask = tf.cast(y_true != 0, loss.dtype)
    loss *= mask

    # Return the total.
    return tf.reduce_sum(loss)/tf.reduce_sum(mask)
def masked_acc(y_true, y_pred):
    # Calculate the loss for each item in the batch.
    y_pred = tf.argmax(y_pred, axis=-1)
    y_pred = tf.cast(y_pred, y_true.dtype)
    
    match = tf.cast(y_true == y_pred, tf.float32)
    mask = tf.cast(y_true != 0, tf.float32)
    
    return tf.reduce_sum(match)/tf.reduce_sum(mask)
model.compile(optimizer='adam',
              loss=masked_loss, 
              metrics=[masked_acc, masked_loss])
vocab_size = 1.0 * target_text_processor.vocabulary_size()

RESULTS["expected"] = {"expected_loss": tf.math.log(vocab_size).numpy(),
 "expected_acc": 1/vocab_size}["expected_loss"]
_eval = model.evaluate(val_ds, steps=2, return_dict=True, verbose=0)
RESULTS["evaluate"] = [_eval[k] for k in sorted(_eval)]
history = model.fit(
    train_ds.repeat(), 
    epochs=2,
    steps_per_epoch = 5,
    validation_data=val_ds,
    validation_steps = 2,
    callbacks=[
        tf.keras.callbacks.EarlyStopping(patience=3)], verbose=0)
RESULTS["history"] = [history.history[k] for k in sorted(history.history)]
#@title
@Translator.add_method
def translate(self,
              texts, *,
              max_length=10,
              temperature=0.0):
  # Process the input texts
  context = self.encoder.convert_input(texts)
  batch_size = tf.shape(texts)[0]

  # Setup the loop inputs
  tokens = []
  attention_weights = []
  next_token, done, state = self.decoder.get_initial_state(context)

  for _ in range(max_length):
    # Generate the next token
    next_token, done, state = self.decoder.get_next_token(
        context, next_token, done,  state, temperature)
        
    # Collect the generated tokens
    tokens.append(next_token)
    attention_weights.append(self.decoder.last_attention_weights)
    
    if tf.executing_eagerly() and tf.reduce_all(done):
      break

  # Stack the lists of tokens and attention weights.
  tokens = tf.concat(tokens, axis=-1)   # t*[(batch 1)] -> (batch, t)
  self.last_attention_weights = tf.concat(attention_weights, axis=1)  # t*[(batch 1 s)] -> (batch, t s)

  result = self.decoder.tokens_to_text(tokens)
  return result
result = model.translate(['¿Todavía está en casa?']) # Are you still home
RESULTS["translate_1"] = np.array(result[0].numpy().decode())
RESULTS["translate_1_attention"] = model.last_attention_weights[0]
for _i, _t in enumerate(['Esta es mi vida.', 'Tratar de descubrir.', context_raw[-1]]):
  RESULTS[f"translate_plot_{_i}"] = np.array(model.translate([_t])[0].numpy().decode())
inputs = [
    'Hace mucho frio aqui.', # "It's really cold here."
    'Esta es mi vida.', # "This is my life."
    'Su cuarto es un desastre.' # "His room is a mess"
]
for t in inputs:
  print(model.translate([t])[0].numpy().decode())

print()
result = model.translate(inputs)

print(result[0].numpy().decode())
print(result[1].numpy().decode())
print(result[2].numpy().decode())
print()
RESULTS["translate_batch"] = np.array([r.decode() for r in result.numpy()])
class Export(tf.Module):
  def __init__(self, model):
    self.model = model

  @tf.function(input_signature=[tf.TensorSpec(dtype=tf.string, shape=[None])])
  def translate(self, inputs):
    return self.model.translate(inputs)
export = Export(model)
_ = export.translate(tf.constant(inputs))
result = export.translate(tf.constant(inputs))

print(result[0].numpy().decode())
print(result[1].numpy().decode())
print(result[2].numpy().decode())
print()
RESULTS["export_translate"] = np.array([r.decode() for r in result.numpy()])
_tmp = tempfile.mkdtemp()
tf.saved_model.save(export, _tmp + '/translator',
                    signatures={'serving_default': export.translate})
reloaded = tf.saved_model.load(_tmp + '/translator')
_ = reloaded.translate(tf.constant(inputs)) #warmup
result = reloaded.translate(tf.constant(inputs))

print(result[0].numpy().decode())
print(result[1].numpy().decode())
print(result[2].numpy().decode())
print()
RESULTS["reloaded_translate"] = np.array([r.decode() for r in result.numpy()])
#@title
@Translator.add_method
def translate(self,
              texts,
              *,
              max_length=10,
              temperature=tf.constant(0.0)):
  shape_checker = ShapeChecker()
  context = self.encoder.convert_input(texts)
  batch_size = tf.shape(context)[0]
  shape_checker(context, 'batch s units')

  next_token, done, state = self.decoder.get_initial_state(context)

  # initialize the accumulator
  tokens = tf.TensorArray(tf.int64, size=1, dynamic_size=True)

  for t in tf.range(max_length):
    # Generate the next token
    next_token, done, state = self.decoder.get_next_token(
        context, next_token, done, state, temperature)
    shape_checker(next_token, 'batch t1')

    # Collect the generated tokens
    tokens = tokens.write(t, next_token)

    # if all the sequences are done, break
    if tf.reduce_all(done):
      break

  # Convert the list of generated token ids to a list of strings.
  tokens = tokens.stack()
  shape_checker(tokens, 't batch t1')
  tokens = einops.rearrange(tokens, 't batch 1 -> batch t')
  shape_checker(tokens, 'batch t')

  text = self.decoder.tokens_to_text(tokens)
  shape_checker(text, 'batch')

  return text
result = model.translate(inputs)

print(result[0].numpy().decode())
print(result[1].numpy().decode())
print(result[2].numpy().decode())
print()
RESULTS["dynamic_translate"] = np.array([r.decode() for r in result.numpy()])
class Export(tf.Module):
  def __init__(self, model):
    self.model = model

  @tf.function(input_signature=[tf.TensorSpec(dtype=tf.string, shape=[None])])
  def translate(self, inputs):
    return self.model.translate(inputs)
export = Export(model)
_ = export.translate(inputs)
result = export.translate(inputs)

print(result[0].numpy().decode())
print(result[1].numpy().decode())
print(result[2].numpy().decode())
print()
RESULTS["dynamic_export_translate"] = np.array([r.decode() for r in result.numpy()])
tf.saved_model.save(export, _tmp + '/dynamic_translator',
                    signatures={'serving_default': export.translate})
reloaded = tf.saved_model.load(_tmp + '/dynamic_translator')
_ = reloaded.translate(tf.constant(inputs)) #warmup
result = reloaded.translate(tf.constant(inputs))

print(result[0].numpy().decode())
print(result[1].numpy().decode())
print(result[2].numpy().decode())
print()
RESULTS["dynamic_reloaded_translate"] = np.array([r.decode() for r in result.numpy()])
