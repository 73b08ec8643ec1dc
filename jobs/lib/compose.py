"""The trainer's config, composed as `python -m verl.trainer.main_ppo ... --cfg job --resolve` does.

    python jobs/lib/compose.py --config-path=DIR --config-name=NAME [OVERRIDE ...] > config.yaml

The same Hydra composition (verl's own config files, the experiment YAML, the overrides, resolved),
without importing verl: importing `verl.trainer.main_ppo` costs ~13 s of CPU (torch, Ray, the
workers), which every job start and every dry run paid before Ray started. The experiment's
`hydra.searchpath` entries `pkg://verl...` become `file://` paths of the installed verl, found
without executing its `__init__`. tests/test_jobs_compose.py holds the output equal to verl's own.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

USAGE = "usage: python jobs/lib/compose.py --config-path=DIR --config-name=NAME [OVERRIDE ...]"


def package_dir(dotted: str) -> Path:
    """Where an installed package lives, importing nothing of it (top-level spec + path parts)."""
    top, _, rest = dotted.partition(".")
    spec = importlib.util.find_spec(top)
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit(f"compose: package {top!r} is not installed in {sys.prefix}")
    path = Path(next(iter(spec.submodule_search_locations)))
    return path.joinpath(*rest.split(".")) if rest else path


def file_searchpath(entries: list[Any]) -> list[str]:
    out = []
    for entry in entries:
        text = str(entry)
        out.append(f"file://{package_dir(text[len('pkg://') :])}" if text.startswith("pkg://") else text)
    return out


def parse_args(argv: list[str]) -> tuple[Path, str, list[str]]:
    config_path: Path | None = None
    config_name = ""
    overrides = []
    for arg in argv:
        if arg.startswith("--config-path="):
            config_path = Path(arg.split("=", 1)[1])
        elif arg.startswith("--config-name="):
            config_name = arg.split("=", 1)[1]
        elif arg.startswith("-"):
            raise SystemExit(f"compose: unknown option {arg!r}\n{USAGE}")
        else:
            overrides.append(arg)
    if config_path is None or not config_name:
        raise SystemExit(USAGE)
    return config_path, config_name, overrides


def compose(config_path: Path, config_name: str, overrides: list[str]) -> str:
    from hydra import compose as hydra_compose
    from hydra import initialize_config_dir
    from omegaconf import OmegaConf

    primary = config_path / f"{config_name}.yaml"
    if not primary.is_file():
        raise SystemExit(f"compose: no experiment config {primary}")
    searchpath = OmegaConf.select(OmegaConf.load(primary), "hydra.searchpath", default=None)
    user_searchpath = [o for o in overrides if o.startswith(("hydra.searchpath=", "+hydra.searchpath="))]
    if searchpath and not user_searchpath:
        overrides = [*overrides, f"hydra.searchpath=[{','.join(file_searchpath(list(searchpath)))}]"]
    with initialize_config_dir(config_dir=str(config_path.resolve()), version_base=None):
        cfg = hydra_compose(config_name=config_name, overrides=overrides)
    return OmegaConf.to_yaml(cfg, resolve=True)


def main(argv: list[str]) -> int:
    if argv and argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0
    config_path, config_name, overrides = parse_args(argv)
    sys.stdout.write(compose(config_path, config_name, overrides))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
