"""Which source a result depends on: the import closure of a project module and its hash.

A compiled kernel or a solved table depends on its own module and on every project module that
module imports, transitively. Reading the import statements (also those inside functions) gives
that closure without importing anything, so a cache key built from it changes exactly when code
the result can reach changes, and stays put when unrelated modules (reports, the CLI) are edited.
"""

from __future__ import annotations

import ast
import hashlib
from functools import cache
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("sim", "policies")
FORMAT = "1"  # bump to change every key (a change of the keying itself)


def module_file(name: str) -> Path | None:
    """The source file of project module ``name`` (``a.b`` -> ``a/b.py`` or ``a/b/__init__.py``), else None."""
    if name.split(".")[0] not in PACKAGES:
        return None
    base = PROJECT_ROOT.joinpath(*name.split("."))
    for p in (base.with_suffix(".py"), base / "__init__.py"):
        if p.is_file():
            return p
    return None


def module_name(path: Path) -> str:
    rel = path.resolve().relative_to(PROJECT_ROOT).with_suffix("")
    parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
    return ".".join(parts)


@cache
def direct_imports(path: Path) -> frozenset[Path]:
    """Project modules named by any import statement of ``path`` (also imports inside functions)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[Path] = set()

    def add(mod: str) -> None:
        parts = mod.split(".")
        for i in range(1, len(parts) + 1):  # the packages on the way run too and can be reached by attribute
            p = module_file(".".join(parts[:i]))
            if p is not None:
                found.add(p)

    for node in ast.walk(ast.parse(path.read_bytes(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                mod = ".".join(anchor + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            add(mod)
            for alias in node.names:
                add(f"{mod}.{alias.name}")
    found.discard(path)
    return frozenset(found)


@cache
def closure(path: Path) -> tuple[Path, ...]:
    """``path`` and every project module it imports, transitively, sorted."""
    seen = {path}
    todo = [path]
    while todo:
        for dep in direct_imports(todo.pop()):
            if dep not in seen:
                seen.add(dep)
                todo.append(dep)
    return tuple(sorted(seen))


@cache
def source_key(path: Path) -> str:
    """Hash of the source of ``path`` and of everything it imports from the project."""
    h = hashlib.sha256(FORMAT.encode())
    for p in closure(path):
        h.update(str(p.relative_to(PROJECT_ROOT)).encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def code_version(*modules: str) -> str:
    """Hash of the given project modules and their imports: the code version of a cached result."""
    h = hashlib.sha256()
    for m in modules:
        p = module_file(m)
        if p is None:
            raise ValueError(f"not a project module: {m}")
        h.update(source_key(p).encode())
    return h.hexdigest()[:16]




@cache
def code_hash() -> str:
    """Hash of every source file of ``sim`` and ``policies``: the version of this exact code (``--version``)."""
    h = hashlib.sha256()
    for pkg in PACKAGES:
        for p in sorted((PROJECT_ROOT / pkg).rglob("*.py")):
            h.update(str(p.relative_to(PROJECT_ROOT)).encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()[:12]
