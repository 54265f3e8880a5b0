"""Write tapegrad/_unicode_scripts.py: TensorFlow's ``tf.strings.unicode_script`` for every code
point, as the runs of equal script (ICU's ``UScriptCode`` numbers, from the ICU data TensorFlow
ships). Run with a Python that has TensorFlow installed (never needed by tapegrad or by CI):

    $TAPEGRAD_TF_PYTHON tools/record_unicode_scripts.py
"""
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(REPO, "tapegrad", "_unicode_scripts.py")


def rows(name, values, per_line=12):
    items = [str(int(v)) for v in values]
    lines = [", ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]
    return f"{name} = (\n" + "".join(f"    {line},\n" for line in lines) + ")\n"


def main():
    import numpy as np
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from _tf import quiet_tensorflow
    tf = quiet_tensorflow()
    scripts = tf.strings.unicode_script(tf.range(0x110000, dtype=tf.int32)).numpy()
    starts = np.concatenate([[0], np.flatnonzero(np.diff(scripts)) + 1])
    with open(OUT, "w", encoding="utf-8") as f:
        f.write('"""The Unicode script of every code point, as ICU\'s ``UScriptCode`` numbers it: code points\n'
                "``STARTS[i]`` up to the next start have script ``SCRIPTS[i]``. Written by\n"
                f"tools/record_unicode_scripts.py from TensorFlow {tf.__version__}'s ``tf.strings.unicode_script``\n"
                '(do not edit); read by ``tf.strings.unicode_script`` (tapegrad/ops/strings.py)."""\n\n')
        f.write(rows("STARTS", starts, 10))
        f.write("\n")
        f.write(rows("SCRIPTS", scripts[starts], 20))
    print(f"wrote {OUT}: {len(starts)} runs")


if __name__ == "__main__":
    main()
