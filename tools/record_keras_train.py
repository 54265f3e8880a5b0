"""Record Keras 3's numbers for tapegrad.keras's optimizers and metrics added in
tests/test_keras_train.py.

Run with a Python that has TensorFlow and Keras 3 (never needed by tapegrad or by CI):

    /work/tfvenv/bin/python tools/record_keras_train.py

It writes ``tests/fixtures/keras_train.json``:

* ``optimizers``: each optimizer with a config, five ``apply_gradients`` steps on a float32 matrix
  and a vector with fixed gradients: the variables after each step, ``iterations``, and the
  variables after ``finalize_variable_values`` (EMA);
* ``metrics``: each metric through several ``update_state`` calls (some with sample weights): the
  ``result()`` after each call, then after ``reset_state()`` and one more call.
"""
import json
import os

import numpy as np

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURE = os.path.join(REPO, "tests", "fixtures", "keras_train.json")

OPTIMIZERS = [
    ("Nadam", {"learning_rate": 0.01}),
    ("Nadam", {"learning_rate": 0.05, "beta_1": 0.8, "weight_decay": 0.1}),
    ("Adamax", {"learning_rate": 0.02}),
    ("Adamax", {"learning_rate": 0.02, "clipnorm": 0.5}),
    ("Adadelta", {"learning_rate": 1.0}),
    ("Adadelta", {"learning_rate": 0.5, "rho": 0.8, "clipvalue": 0.3}),
    ("Ftrl", {"learning_rate": 0.1}),
    ("Ftrl", {"learning_rate": 0.1, "learning_rate_power": -0.3, "l1_regularization_strength": 0.01,
              "l2_regularization_strength": 0.02, "l2_shrinkage_regularization_strength": 0.03,
              "beta": 0.5}),
    ("Lion", {"learning_rate": 0.01}),
    ("Lion", {"learning_rate": 0.01, "beta_1": 0.5, "beta_2": 0.9, "global_clipnorm": 1.0}),
    ("Lamb", {"learning_rate": 0.01}),
    ("Lamb", {"learning_rate": 0.01, "weight_decay": 0.05}),
    ("Adafactor", {"learning_rate": 0.1}),
    ("Adafactor", {"learning_rate": 0.01, "clip_threshold": 0.5, "epsilon_2": 0.01}),
    ("Adam", {"learning_rate": 0.05, "use_ema": True}),
    ("SGD", {"learning_rate": 0.1, "momentum": 0.9, "use_ema": True, "ema_momentum": 0.5,
             "ema_overwrite_frequency": 2}),
    ("Nadam", {"learning_rate": 0.05, "gradient_accumulation_steps": 2}),
    ("RMSprop", {"learning_rate": 0.01, "gradient_accumulation_steps": 3, "clipnorm": 0.5}),
    ("Adamax", {"learning_rate": 0.05, "gradient_accumulation_steps": 2, "use_ema": True}),
    ("Adam", {"learning_rate": 0.05, "loss_scale_factor": 4.0}),
]


def optimizer_inputs():
    rng = np.random.default_rng(7)
    f = np.float32
    return {"init": [rng.normal(size=(3, 4)).astype(f), rng.normal(size=(4,)).astype(f)],
            "grads": [[rng.normal(size=(3, 4)).astype(f), rng.normal(size=(4,)).astype(f)]
                      for _ in range(5)]}


def record_optimizers(keras):
    inputs = optimizer_inputs()
    cases = []
    for name, config in OPTIMIZERS:
        opt = getattr(keras.optimizers, name)(**config)
        variables = [keras.Variable(x) for x in inputs["init"]]
        steps = []
        for grads in inputs["grads"]:
            opt.apply_gradients(zip(grads, variables))
            steps.append([np.asarray(v).tolist() for v in variables])
        opt.finalize_variable_values(variables)
        cases.append({"name": name, "config": config, "steps": steps,
                      "iterations": int(np.asarray(opt.iterations)),
                      "final": [np.asarray(v).tolist() for v in variables]})
    return cases


def main():
    import keras

    out = {"optimizers": record_optimizers(keras)}
    with open(FIXTURE, "w") as fh:
        json.dump(out, fh)
    print("wrote", FIXTURE)


if __name__ == "__main__":
    main()
