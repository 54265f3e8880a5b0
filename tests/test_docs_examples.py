"""Every ```python block in the README and the docs runs."""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FILES = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("**/*.md"))
BLOCKS = [(f, i, m.group(1)) for f in FILES if f.exists()
          for i, m in enumerate(re.finditer(r"```python\n(.*?)```", f.read_text(), re.S))]


OPTIONAL = ("dask", "distributed", "array_api_strict", "array_api_compat", "cupy")  # the extras


@pytest.mark.parametrize("path,index,code", BLOCKS, ids=[f"{p.name}-{i}" for p, i, _ in BLOCKS])
def test_code_block_runs(path, index, code):
    for name in OPTIONAL:  # a block that uses an optional package runs where it is installed
        if re.search(rf"^\s*(import|from)\b.*\b{name}\b", code, re.M):
            pytest.importorskip(name)
    if re.search(r"\b(decode_png|encode_png|decode_image|load_img|save_img|image_dataset_from_directory)\b", code):
        pytest.importorskip("PIL", reason="image files need Pillow (tapegrad[image])")
    exec(compile(code, f"{path.name}[{index}]", "exec"), {"__name__": "__docs__"})
