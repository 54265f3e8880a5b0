"""Keras 3's training loop: trainer.Trainer (keras.Model inherits it), compile_utils, data_adapter."""
