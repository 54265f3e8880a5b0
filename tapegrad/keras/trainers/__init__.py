"""Keras 3's training loop (``keras.Model`` inherits :class:`~tapegrad.keras.trainers.trainer.Trainer`),
what ``compile`` makes of losses and metrics, and the data of ``fit``. Not a public namespace."""
