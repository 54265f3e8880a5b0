"""Second order: a Hessian-vector product against one gradient, in the same library.

The loss is the MLP of the large-work benchmark with tanh activations, 256 wide, batch 64,
float64; the HVP is taken with respect to all six parameters in fixed directions ``v``, reverse
over reverse (nested tapes; ``torch.autograd.grad(create_graph=True)``; HIPS autograd's grad of
grad) or forward over reverse (``jax.jvp`` of ``jax.grad``, eager).
Run: python -m benchmarks.bench_hvp [--lib tapegrad] [--repeat 15]
"""
from __future__ import annotations

import argparse
from typing import Any

import numpy as np

from . import bench_mlp
from ._harness import LIBS, paired, ratio

NAME = "hvp"
TITLE = "6. Second order: Hessian-vector product"
DESCRIPTION = (
    "Hessian-vector product of the MLP loss (tanh activations, 256 wide, batch 64, float64) with "
    "respect to all six parameters: nested `GradientTape`s, `torch.autograd.grad(create_graph="
    "True)` twice, `jax.jvp(jax.grad(loss))` without `jit`, `autograd.grad` of a gradient. "
    "Baseline: one gradient (forward + backward) in the same library. The last column compares "
    "that gradient with a hand-written NumPy one. Checked against central differences of the "
    "hand-written gradient.")
COLUMNS = [
    ("grad_ms", "gradient ms", "{:.2f}"),
    ("hvp_ms", "HVP ms", "{:.2f}"),
    ("ratio", "HVP / gradient", "{:.2f}"),
    ("grad_vs_numpy", "gradient / hand-written NumPy", "{:.2f}"),
]
TARGETS = [("HVP ≤ 4 × one gradient", "ratio", 4.0)]


def measure(lib: str, smoke: bool = False, width: int = 256, batch: int = 64,
            repeat: int = 15) -> list[dict]:
    if lib not in LIBS:
        raise ValueError(f"unknown library {lib!r}; expected one of {LIBS}")
    if smoke:
        width, batch, repeat = 8, 3, 2
    params, x, y = bench_mlp.init(width, batch, np.float64)
    net = bench_mlp.Net(lib, params, x, y, act="tanh")
    # the Net draws its directions v from this seed; check against central differences
    rng = np.random.default_rng(1)
    vs = [rng.standard_normal(p.shape) for p in params]
    eps = 1e-5
    gp = bench_mlp.numpy_grad([p + eps * v for p, v in zip(params, vs)], x, y, "tanh")
    gm = bench_mlp.numpy_grad([p - eps * v for p, v in zip(params, vs)], x, y, "tanh")
    for h, a, b in zip(net.hvp(), gp, gm):
        fd = (a - b) / (2 * eps)
        np.testing.assert_allclose(h, fd, rtol=1e-5, atol=1e-6 * np.abs(fd).max())
    t = paired({"grad": net.grad, "hvp": net.hvp,
                "numpy": lambda: bench_mlp.numpy_grad(params, x, y, "tanh")},
               repeat, 0.001 if smoke else 0.05)
    return [{"lib": lib, "grad_ms": t["median"]["grad"] * 1e3, "hvp_ms": t["median"]["hvp"] * 1e3,
             "ratio": ratio(t, "hvp", "grad"), "grad_vs_numpy": ratio(t, "grad", "numpy")}]


def main(argv: Any = None) -> list[dict]:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--lib", default="tapegrad", choices=LIBS)
    p.add_argument("--repeat", type=int, default=15)
    a = p.parse_args(argv)
    rows = measure(a.lib, repeat=a.repeat)
    r = rows[0]
    print(f"{a.lib}: gradient {r['grad_ms']:.2f} ms, HVP {r['hvp_ms']:.2f} ms (ratio {r['ratio']:.2f}); "
          f"gradient / hand-written NumPy {r['grad_vs_numpy']:.2f}")
    return rows


if __name__ == "__main__":
    main()
