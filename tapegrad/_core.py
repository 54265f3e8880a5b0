"""TEMPORARY: the old names, while the op files move (removed in this change)."""
from . import _convert, _dispatch, _recorders, _tensor, _variable, _warn

_OLD = {"_tls": "tls", "_push": "push", "_pop": "pop", "_run_hidden": "run_hidden",
        "_recording": "recording", "_next_id": "next_id", "_wrap": "wrap", "_note_escape": "note_escape",
        "_active": "active", "warn_once": "warn_outside"}


def __getattr__(name: str) -> object:
    new = _OLD.get(name, name)
    for m in (_dispatch, _convert, _tensor, _variable, _recorders, _warn):
        if hasattr(m, new):
            v = getattr(m, new)
            if name == "warn_once":
                return lambda key, msg: v(msg)
            return v
    raise AttributeError(name)
