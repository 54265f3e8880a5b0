import time, numpy as np, tapegrad as tf
from benchmarks.bench_per_op import chain_numpy
x0 = np.random.rand(10)
n = 999
@tf.function
def chain(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x
        for _ in range(n // 3):
            y = tf.sin(y * 1.0001 + 0.001)
    return tape.gradient(y, x)
x = tf.constant(x0)
t0=time.perf_counter(); g1 = chain(x); t_first=time.perf_counter()-t0
print(np.allclose(g1.numpy(), chain_numpy(x0, n)), np.array_equal(chain(x).numpy(), g1.numpy()))
def best(f, r=30):
    ts=[]
    for _ in range(r):
        t=time.perf_counter(); f(); ts.append(time.perf_counter()-t)
    return min(ts)
a=best(lambda: chain(x)); b=best(lambda: chain_numpy(x0, n))
print("traced", a*1e3, "ms numpy", b*1e3, "ms ratio", a/b, "first call", t_first*1e3)
print(len(chain._cache[next(iter(chain._cache))].programs[0].steps))
