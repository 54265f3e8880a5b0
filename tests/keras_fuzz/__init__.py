"""Differential fuzzing of tapegrad.keras against Keras 3.15 on TensorFlow 2.21: small random Keras
programs as pure data.

``generator.generate(seed)`` makes a program (a JSON-able dict: model, compile, data, fit, what to
read afterwards) from an integer seed; ``interpreter.run(program, tf, keras)`` builds and runs it
with the given modules (``tensorflow``/``keras`` when ``tools/record_keras_fuzz.py`` records
``tests/fixtures/keras_fuzz.json.gz``, ``tapegrad``/``tapegrad.keras`` in
``tests/test_keras_fuzz.py``) and returns the encoded results (``tests/tf_programs/_encoding.py``).
"""
