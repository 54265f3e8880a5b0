"""Random tf.data and tf.function/random programs as pure data (only ``random.Random(seed)``).

A ``"data"`` program::

    {"kind": "data", "seed_before": int | None, "pipeline": P, "seed_after": int | None,
     "iterate": {...}}

``P`` is ``{"src": {...}, "ops": [{"op": name, ...}, ...]}``; sources and ops are named as the
``tf.data`` calls they stand for, functions (``map``, ``filter``, ...) by a name from the menu
``interpreter.FUNCTIONS`` implements. ``iterate`` says how the dataset is read: ``epochs``
(``list(ds)`` n times, with a global seed set or an eager draw in between), ``next`` (two
iterators advanced in a pattern), ``numpy`` (``as_numpy_iterator``) or ``reduce``.

A ``"random"`` program is a list of steps: global seeds, eager random ops (op seeds or not,
stateless), ``tf.random.Generator`` and Keras ``SeedGenerator`` draws, ``tf.function``
definitions (random ops, a Variable made on the first call, a Python counter of traces,
``reduce_retracing``, ``input_signature``) and calls of them with new shapes.
"""

import random

ELEMENT_CAP = 40    # elements read per epoch at most (``repeat()`` without a count is infinite)

# structure kinds: int, float, pair, dict, str, var (a variable-length int64 vector), nested
NUMERIC_FNS = ("double", "inc", "sq")
RANDOM_FNS = ("noise_uniform", "noise_normal", "stateless", "generator", "keras_seed")


class _Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)

    def maybe(self, p):
        return self.r.random() < p

    def seed(self):
        return self.r.randrange(1, 1000)

    # ------------------------------------------------------------------ sources
    def source(self, kind=None, depth=0):
        r = self.r
        choices = ["range", "slices_int", "slices_float", "slices_pair", "slices_dict",
                   "tensors", "generator", "text", "random", "counter"]
        if depth == 0:
            choices += ["zip", "concatenate", "choose", "sample"] * 1
        name = kind or r.choice(choices)
        n = r.randrange(0, 9)
        if name == "range":
            if self.maybe(0.5):
                return {"src": "range", "args": [n]}, dict(struct="int", rank=0)
            start, step = r.randrange(-3, 4), r.choice([1, 2, 3, -1])
            stop = start + step * n
            return {"src": "range", "args": [start, stop, step]}, dict(struct="int", rank=0)
        if name == "slices_int":
            rank = 1 if self.maybe(0.2) else 0
            width = r.randrange(1, 4)
            vals = [r.randrange(-5, 10) for _ in range(n * (width if rank else 1))]
            return ({"src": "slices", "kind": "int", "dtype": r.choice(["int32", "int64"]),
                     "values": vals, "width": width if rank else None},
                    dict(struct="int", rank=rank))
        if name == "slices_float":
            return ({"src": "slices", "kind": "float",
                     "values": [r.randrange(-8, 9) / 4 for _ in range(n)]},
                    dict(struct="float", rank=0))
        if name == "slices_pair":
            return ({"src": "slices", "kind": "pair", "ints": [r.randrange(0, 10) for _ in range(n)],
                     "floats": [r.randrange(-8, 9) / 4 for _ in range(n)]},
                    dict(struct="pair", rank=0))
        if name == "slices_dict":
            return ({"src": "slices", "kind": "dict", "ints": [r.randrange(0, 10) for _ in range(n)],
                     "floats": [r.randrange(-8, 9) / 4 for _ in range(n)]},
                    dict(struct="dict", rank=0))
        if name == "tensors":
            return ({"src": "tensors", "values": [r.randrange(0, 9) for _ in range(r.randrange(1, 4))]},
                    dict(struct="int", rank=1))
        if name == "generator":
            return ({"src": "generator", "values": [r.randrange(0, 20) for _ in range(n)]},
                    dict(struct="int", rank=0))
        if name == "text":
            words = ["a", "bb", "ccc", "", "dddd", "e f"]
            return ({"src": "text" if self.maybe(0.6) else "slices_str",
                     "lines": [r.choice(words) for _ in range(n)]},
                    dict(struct="str", rank=0))
        if name == "random":
            op = {"src": "random", "seed": self.seed() if self.maybe(0.7) else None, "n": n}
            if self.maybe(0.5):
                op["rerandomize"] = self.maybe(0.5)
            return op, dict(struct="int", rank=0)
        if name == "counter":
            return ({"src": "counter", "start": r.randrange(-3, 4), "step": r.choice([1, 2, -1]),
                     "n": n}, dict(struct="int", rank=0))
        if name == "zip":
            a, ia = self.sub_pipeline()
            b, ib = self.sub_pipeline()
            return {"src": "zip", "parts": [a, b]}, dict(struct="nested", rank=0)
        # concatenate, choose, sample: parts of one structure
        kind = r.choice(["range", "slices_float", "slices_pair"])
        count = 2 if name == "concatenate" else r.randrange(2, 4)
        parts, info = [], None
        for _ in range(count):
            p, info = self.sub_pipeline(kind)
            parts.append(p)
        node = {"src": name, "parts": parts}
        if name == "choose":
            node["choices"] = [r.randrange(0, count) for _ in range(r.randrange(0, 12))]
            node["stop_on_empty"] = self.maybe(0.5)
        if name == "sample":
            node["weights"] = ([r.randrange(1, 5) / 4 for _ in range(count)]
                               if self.maybe(0.6) else None)
            node["seed"] = self.seed() if self.maybe(0.7) else None
            node["stop_on_empty"] = self.maybe(0.3)
            if self.maybe(0.4):
                node["rerandomize"] = self.maybe(0.5)
        return node, dict(info)

    def sub_pipeline(self, kind=None):
        src, info = self.source(kind or self.r.choice(["range", "slices_float", "slices_int"]),
                                depth=1)
        ops = []
        for _ in range(self.r.randrange(0, 3)):
            c = self.r.choice(["take", "skip", "shuffle", "map", "filter", "repeat"])
            ops.append(self.simple_op(c, info))
        return {"src": src, "ops": ops}, info

    def simple_op(self, c, info):
        r = self.r
        if c == "take":
            return {"op": "take", "n": r.randrange(-1, 6)}
        if c == "skip":
            return {"op": "skip", "n": r.randrange(0, 4)}
        if c == "shuffle":
            return self.shuffle_op()
        if c == "map":
            return {"op": "map", "fn": r.choice(NUMERIC_FNS)}
        if c == "filter":
            return {"op": "filter", "m": r.randrange(2, 4), "r": r.randrange(0, 2)}
        return {"op": "repeat", "count": r.randrange(1, 3)}

    def shuffle_op(self):
        r = self.r
        op = {"op": "shuffle", "buffer": r.choice([1, 2, 3, 5, 8, 100]),
              "seed": self.seed() if self.maybe(0.6) else None}
        if self.maybe(0.5):
            op["reshuffle"] = self.maybe(0.5)
        return op

    # ------------------------------------------------------------------ transformations
    def op(self, info):
        r = self.r
        st, rank = info["struct"], info["rank"]
        ragged = info.get("ragged", False)
        if ragged:   # only order/structure preserving ops on ragged batches
            c = r.choice(["take", "skip", "shuffle", "repeat", "prefetch", "cache"])
            return self.plain(c, info)
        cands = ["map", "map", "map_random", "filter", "shuffle", "shuffle", "repeat", "batch",
                 "padded_batch", "take", "skip", "shard", "cache", "prefetch", "enumerate",
                 "scan", "window", "interleave", "flat_map", "take_while", "apply",
                 "ragged_batch", "to_var"]
        if rank >= 1:
            cands += ["unbatch", "unbatch", "rebatch"]
        if rank == 0 and st in ("int", "float", "pair", "dict"):
            cands += ["group_by_window"]
        if rank == 0 and st == "var":
            cands += ["bucket", "padded_batch", "ragged_batch"]
        if rank == 0 and st == "int":
            cands += ["unique"]
        if info.get("infinite"):   # (a filter, unique or take_while may never yield again: a hang)
            cands = [c for c in cands if c not in ("filter", "unique", "take_while")]
        if st == "str":
            cands += ["strlen", "strlen"]
        return self.plain(r.choice(cands), info)

    def plain(self, c, info):
        r = self.r
        if c in ("take", "skip", "filter"):
            op = self.simple_op(c, info)
            if c == "take" and op["n"] >= 0:
                info["infinite"] = False
            return op
        if c == "shuffle":
            return self.shuffle_op()
        if c == "repeat":
            count = r.choice([None, 1, 2, 3])
            if count is None:
                info["infinite"] = True
            return {"op": "repeat", "count": count}
        if c == "map":
            op = {"op": "map", "fn": r.choice(NUMERIC_FNS)}
            if self.maybe(0.3):
                op["parallel"] = r.choice([2, -1])
                op["deterministic"] = r.choice([None, True])
            return op
        if c == "map_random":
            return {"op": "map", "fn": r.choice(RANDOM_FNS),
                    "seed": self.seed() if self.maybe(0.5) else None}
        if c == "to_var":
            info.update(struct="var", rank=0)
            return {"op": "map", "fn": "to_var"}
        if c == "strlen":
            info.update(struct="int")
            return {"op": "map", "fn": "strlen"}
        if c == "batch":
            info["rank"] += 1
            op = {"op": "batch", "size": r.randrange(1, 5), "drop": self.maybe(0.4)}
            if self.maybe(0.2):
                op["parallel"] = 2
                op["deterministic"] = r.choice([None, True])
            return op
        if c == "padded_batch":
            op = {"op": "padded_batch", "size": r.randrange(1, 4), "drop": self.maybe(0.3)}
            if info["struct"] in ("var", "int") and self.maybe(0.5):
                op["shape"] = [r.randrange(0, 5) for _ in range(info["rank"] + (info["struct"] == "var"))]
                op["pad"] = r.choice([None, -1, 7])
            info["rank"] += 1
            return op
        if c == "ragged_batch":
            info["rank"] += 1
            info["ragged"] = True
            return {"op": "ragged_batch", "size": r.randrange(1, 4), "drop": self.maybe(0.3)}
        if c == "unbatch":
            info["rank"] -= 1
            return {"op": "unbatch"}
        if c == "rebatch":
            return {"op": "rebatch", "size": r.randrange(1, 4), "drop": self.maybe(0.3)}
        if c == "shard":
            n = r.randrange(1, 4)
            return {"op": "shard", "num": n, "index": r.randrange(0, n)}
        if c in ("cache", "prefetch"):
            return {"op": c, "n": r.choice([1, 2, -1])} if c == "prefetch" else {"op": c}
        if c == "enumerate":
            info["struct"] = "nested"
            return {"op": "enumerate", "start": r.randrange(0, 3)}
        if c == "scan":
            info["struct"] = "nested"
            return {"op": "scan"}
        if c == "window":
            info["rank"] += 1
            size = r.randrange(1, 4)
            return {"op": "window", "size": size, "shift": r.choice([None, 1, 2, 3]),
                    "stride": r.choice([1, 1, 2]), "drop": self.maybe(0.5)}
        if c == "interleave":
            fn = "enum" if info.get("infinite") else r.choice(["rep", "enum"])
            if fn == "enum":
                info["struct"] = "nested"
            op = {"op": "interleave", "fn": fn, "cycle": r.choice([None, 1, 2, 3]),
                  "block": r.choice([1, 1, 2, 3])}
            if self.maybe(0.2):
                op["parallel"] = 2
                op["deterministic"] = True
            return op
        if c == "flat_map":   # ("rep" may open only empty datasets: on an infinite input, a hang)
            fn = "enum" if info.get("infinite") else r.choice(["rep", "enum"])
            if fn == "enum":
                info["struct"] = "nested"
            return {"op": "flat_map", "fn": fn}
        if c == "take_while":
            return {"op": "take_while", "limit": r.randrange(0, 30)}
        if c == "apply":
            return {"op": "apply", "inner": self.simple_op(r.choice(["take", "skip", "shuffle"]),
                                                           info)}
        if c == "group_by_window":
            info["rank"] += 1
            return {"op": "group_by_window", "keys": r.randrange(1, 4),
                    "window": r.randrange(1, 4)}
        if c == "bucket":
            info["rank"] += 1
            bounds = sorted(r.sample(range(1, 5), r.randrange(1, 3)))
            return {"op": "bucket", "bounds": bounds,
                    "sizes": [r.randrange(1, 4) for _ in range(len(bounds) + 1)],
                    "pad_to_bound": False, "drop": self.maybe(0.3)}
        if c == "unique":
            return {"op": "unique"}
        raise AssertionError(c)

    # ------------------------------------------------------------------ programs
    def data_program(self):
        r = self.r
        seed_before = self.seed() if self.maybe(0.85) else None
        src, info = self.source()
        ops = []
        for _ in range(r.randrange(0, 6)):
            ops.append(self.op(info))
        if any(o["op"] == "repeat" and o.get("count") is None for o in ops) and self.maybe(0.5):
            ops.append({"op": "take", "n": r.randrange(0, 12)})
        mode = r.choice(["epochs", "epochs", "epochs", "next", "numpy", "reduce", "partial"])
        if mode == "epochs":
            it = {"mode": "epochs", "n": r.randrange(1, 4),
                  "between": [r.choice([None, None, "draw", "seed"]) for _ in range(2)],
                  "seed": self.seed()}
        elif mode == "next":
            it = {"mode": "next", "pattern": [r.randrange(0, 2) for _ in range(r.randrange(2, 14))]}
        elif mode == "partial":   # a few next() of one iterator, then whole epochs
            it = {"mode": mode, "k": r.randrange(0, 5), "n": r.randrange(1, 3)}
        else:
            it = {"mode": mode}
        return {"kind": "data", "seed_before": seed_before, "pipeline": {"src": src, "ops": ops},
                "seed_after": self.seed() if self.maybe(0.2) else None, "iterate": it}

    def random_op(self, allow_gen):
        r = self.r
        op = r.choice(["uniform", "normal", "truncated_normal", "uniform_int", "shuffle",
                       "stateless_uniform", "stateless_normal", "categorical", "keras_int"]
                      + (["gen", "gen", "keras", "like_input", "like_input"] if allow_gen else []))
        step = {"op": op, "shape": [r.randrange(1, 4) for _ in range(r.randrange(0, 3))]}
        if op.startswith("stateless"):
            step["seed"] = [self.seed(), r.randrange(0, 3)]
        elif op == "keras_int":
            step["seed"] = self.seed()
        elif op in ("gen", "keras"):
            step["id"] = r.randrange(0, 2)
            step["draw"] = r.choice(["uniform", "normal"])
        else:
            step["seed"] = self.seed() if self.maybe(0.4) else None
        return step

    def random_program(self):
        r = self.r
        steps = []
        gens = set()
        fns = 0
        for _ in range(r.randrange(3, 12)):
            c = r.choice(["seed", "op", "op", "gen_make", "keras_make", "fn_def", "fn_call",
                          "fn_call", "fn_call"])
            if c == "seed":
                steps.append({"s": "seed", "v": self.seed()})
            elif c == "op":
                st = self.random_op(allow_gen=False)
                steps.append(dict(st, s="op"))
            elif c in ("gen_make", "keras_make"):
                i = r.randrange(0, 2)
                gens.add((c, i))
                steps.append({"s": c, "id": i, "seed": self.seed()})
            elif c == "fn_def":
                body = [self.random_op(allow_gen=True) for _ in range(r.randrange(1, 4))]
                steps.append({"s": "fn_def", "id": fns, "body": body,
                              "signature": self.maybe(0.25),
                              "reduce_retracing": self.maybe(0.25),
                              "variable": self.maybe(0.4)})
                fns += 1
            elif fns:
                steps.append({"s": "fn_call", "id": r.randrange(0, fns),
                              "n": r.choice([1, 1, 2, 3, 4])})
        for i in range(2):   # the generators a function draws from exist from the start
            for kind in ("gen_make", "keras_make"):
                if (kind, i) not in gens:
                    steps.insert(0, {"s": kind, "id": i, "seed": self.seed()})
        return {"kind": "random", "seed_first": self.seed() if self.maybe(0.8) else None,
                "steps": steps}


def generate(seed: int) -> dict:
    """The program for ``seed``: three in four are tf.data pipelines, the rest random/function."""
    g = _Gen(seed)
    if g.r.random() < 0.75:
        return g.data_program()
    return g.random_program()


UNSEEDED_OPS = ("uniform", "normal", "truncated_normal", "uniform_int", "shuffle", "categorical",
                "like_input")


def fresh_randomness(program: dict) -> bool:
    """Whether TensorFlow's result is fresh entropy on each run: a random draw with neither a
    global seed nor an op seed (tools/record_data_fuzz.py drops such programs)."""
    if program["kind"] == "data":
        if program["seed_before"] is not None:
            return False

        def walk(p):
            src = p["src"]
            if src["src"] in ("sample", "random") and src.get("seed") is None:
                return True
            if any(walk(q) for q in src.get("parts", ())):
                return True
            for op in p["ops"]:
                inner = op.get("inner", op)
                if inner["op"] == "shuffle" and inner["seed"] is None:
                    return True
                if (op["op"] == "map" and op["fn"] in ("noise_uniform", "noise_normal")
                        and op.get("seed") is None):
                    return True
            return False

        it = program["iterate"]
        draws = it["mode"] == "epochs" and "draw" in it["between"][:it["n"] - 1] and (
            it["between"].index("draw") < (it["between"].index("seed")
                                           if "seed" in it["between"] else 9))
        return walk(program["pipeline"]) or draws
    seeded = program["seed_first"] is not None
    bodies = {}
    for step in program["steps"]:
        if step["s"] == "seed":
            seeded = True
        elif step["s"] == "op" and step["op"] in UNSEEDED_OPS and step["seed"] is None:
            if not seeded:
                return True
        elif step["s"] == "fn_def":
            bodies[step["id"]] = any(o["op"] in UNSEEDED_OPS and o.get("seed") is None
                                     for o in step["body"])
        elif step["s"] == "fn_call" and bodies.get(step["id"]) and not seeded:
            return True
    return False
