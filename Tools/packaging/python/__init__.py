"""maskclean: clean and check CSV and JSON exports with input masks.

The wheel carries maskclean's native binary, installed as the environment's `maskclean`
script; this package only finds it, for `python -m maskclean` and for scripts that call it.
"""

import os
import sysconfig

__all__ = ["find_maskclean_bin"]


def find_maskclean_bin() -> str:
    """The path of the maskclean binary this package installed."""
    name = "maskclean"
    candidates = [sysconfig.get_path("scripts")]
    # A --user install puts scripts under the user scheme.
    user_scheme = sysconfig.get_preferred_scheme("user") if hasattr(sysconfig, "get_preferred_scheme") else None
    if user_scheme:
        candidates.append(sysconfig.get_path("scripts", scheme=user_scheme))
    # `pip install --target DIR`: the scripts are in DIR/bin, beside this package's folder.
    candidates.append(os.path.join(os.path.dirname(os.path.dirname(__file__)), "bin"))
    for directory in candidates:
        path = os.path.join(directory, name)
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    raise FileNotFoundError(f"maskclean: the binary is not in {', '.join(candidates)}")
