"""The repository's layout rules: one import mechanism, no cycles, one folder per capability."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from conftest import REPO_ROOT

PACKAGES = ("dataprep", "envs", "rewards", "tools")


def _project_modules() -> dict[str, Path]:
    """Module name -> file, for every Python file of the project's packages."""
    mods: dict[str, Path] = {}
    for pkg in PACKAGES:
        for path in sorted((REPO_ROOT / pkg).rglob("*.py")):
            rel = path.relative_to(REPO_ROOT).with_suffix("")
            parts = list(rel.parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            mods[".".join(parts)] = path
    return mods


def _imports(path: Path, name: str, known: set[str]) -> set[str]:
    """Project modules that ``name`` imports (at any depth in the file, lazy imports included)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    is_pkg = path.name == "__init__.py"
    out: set[str] = set()
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = name.split(".") if is_pkg else name.split(".")[:-1]
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            targets = [base] + [f"{base}.{a.name}" for a in node.names]
        for t in targets:
            # the deepest project module named by the import
            parts = t.split(".")
            for k in range(len(parts), 0, -1):
                cand = ".".join(parts[:k])
                if cand in known:
                    if cand != name:
                        out.add(cand)
                    break
    return out


def test_no_module_is_loaded_by_file_path() -> None:
    offenders = []
    for path in REPO_ROOT.rglob("*.py"):
        rel = path.relative_to(REPO_ROOT)
        if rel.parts[0].startswith(".") or rel == Path(__file__).relative_to(REPO_ROOT):
            continue
        text = path.read_text(encoding="utf-8")
        if "spec_from_file_location" in text or "SourceFileLoader" in text:
            offenders.append(str(rel))
    assert offenders == [], f"modules loaded by file path in {offenders}: import them as packages"


def test_no_import_cycle_among_project_modules() -> None:
    mods = _project_modules()
    known = set(mods)
    graph = {m: _imports(p, m, known) for m, p in mods.items()}
    # a package's __init__ importing its own submodules is not a cycle we care about
    for m in graph:
        graph[m] = {d for d in graph[m] if not (d.startswith(m + ".") and mods[m].name == "__init__.py")}
    state: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(m: str) -> None:
        state[m] = 1
        stack.append(m)
        for d in sorted(graph[m]):
            if state.get(d) == 1:
                cycles.append([*stack[stack.index(d) :], d])
            elif d not in state:
                visit(d)
        stack.pop()
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m)
    assert cycles == [], "import cycles: " + "; ".join(" -> ".join(c) for c in cycles)


def test_the_cycle_finder_sees_a_cycle(tmp_path: Path) -> None:
    """The check above must be able to fail: two modules that import each other."""
    a, b = tmp_path / "a.py", tmp_path / "b.py"
    a.write_text("from tools import b\n")
    b.write_text("def f():\n    from tools import a\n")
    known = {"tools.a", "tools.b"}
    assert _imports(a, "tools.a", known) == {"tools.b"}
    assert _imports(b, "tools.b", known) == {"tools.a"}


def test_tools_is_one_folder_per_capability() -> None:
    files = sorted(p.name for p in (REPO_ROOT / "tools").iterdir() if p.is_file())
    assert len(files) <= 8, f"{len(files)} files directly in tools/: {files}; put them in a capability folder"
    for pkg in (REPO_ROOT / "tools").iterdir():
        if pkg.is_dir() and pkg.name != "__pycache__" and any(pkg.glob("*.py")):
            init = pkg / "__init__.py"
            assert init.is_file(), f"tools/{pkg.name}/ has Python modules but no __init__.py"
            assert ast.get_docstring(ast.parse(init.read_text())), (
                f"tools/{pkg.name}/__init__.py: say what is inside"
            )


def test_no_top_level_package_shadows_a_common_name() -> None:
    for name in ("data", "datasets", "test", "utils", "common"):
        assert not (REPO_ROOT / name / "__init__.py").exists(), f"a top-level package {name!r} shadows others"


def test_entry_points_run_from_the_repo_root() -> None:
    for module in ("dataprep", "tools.preflight", "tools.timing", "tools.testbed.tiny_model"):
        proc = subprocess.run(
            [sys.executable, "-m", module, "--help"],
            cwd=REPO_ROOT,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert proc.returncode == 0, f"python -m {module} --help: {proc.stderr[-2000:]}"
        assert "usage" in proc.stdout.lower(), module
