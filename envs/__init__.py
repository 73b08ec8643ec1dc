"""The GPU environments: conda specs + hashed pip locks per engine, ``build.sh`` (``make env-*``)
and ``check_env.py`` (a standalone script, run inside the engine env; stdlib only).
"""
