"""Which source a result depends on: the import closure of a project module and its hash.

A compiled kernel or a solved table depends on its own module and on every project module that
module imports, transitively. Reading the import statements (also those inside functions) gives
that closure without importing anything, so a cache key built from it changes exactly when code
the result can reach changes, and stays put when unrelated modules (reports, the CLI) are edited.
"""

from __future__ import annotations

import ast
import contextlib
import hashlib
import json
from functools import cache
from pathlib import Path

from sim.core.paths import imports_note, write_whole

PROJECT_ROOT = Path(__file__).resolve().parent.parent.parent
PACKAGES = ("sim", "policies")
FORMAT = "3"  # bump to change every key (a change of the keying itself)


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
    rel = path.relative_to(PROJECT_ROOT).with_suffix("")
    parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
    return ".".join(parts)


def _imported_names(path: Path, data: bytes) -> list[str]:
    """The modules an import statement of this source makes reachable: ``from a import b`` binds module ``a.b``,
    else an attribute of ``a`` (prefix ``?``); ``import a.b as x`` binds ``a.b``; a plain ``import a.b`` binds
    ``a`` (prefix ``*``: it reaches ``a`` and ``a.b``). A parent package that merely runs on import is not
    reachable from the names, so it is not part of the closure."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    names: list[str] = []
    for node in ast.walk(ast.parse(data, str(path))):
        if isinstance(node, ast.Import):
            names.extend(alias.name if alias.asname else f"*{alias.name}" for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                mod = ".".join(anchor + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            names.extend(f"?{mod}.{alias.name}" for alias in node.names)
    return names


_memo: dict[str, list[str]] | None = None  # sha256 of a source -> its imported names (parsing is the slow part)


def _memo_file() -> Path:
    return imports_note()


def _names(path: Path) -> list[str]:
    global _memo
    data = path.read_bytes()
    digest = hashlib.sha256(f"{FORMAT}:{path.relative_to(PROJECT_ROOT)}".encode() + b"\0" + data).hexdigest()
    if _memo is None:
        _memo = _read_memo()
    if digest not in _memo:
        _memo[digest] = _imported_names(path, data)
        text = json.dumps(_memo).encode()
        with contextlib.suppress(OSError):  # an unwritable cache: the next process parses again
            write_whole(_memo_file(), lambda f: f.write(text))
    return _memo[digest]


def _read_memo() -> dict[str, list[str]]:
    """The stored memo, keeping only entries of the right shape (a source's sha256 -> a list of module names): an
    unreadable file, or JSON of any other shape, is an empty memo that the next write replaces (a cache that heals)."""
    try:
        data = json.loads(_memo_file().read_text())
    except (OSError, ValueError, UnicodeDecodeError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items() if isinstance(v, list) and all(isinstance(n, str) for n in v)}


@cache
def direct_imports(path: Path) -> frozenset[Path]:
    """Project modules named by any import statement of ``path`` (also imports inside functions)."""
    found: set[Path] = set()
    for mod in _names(path):
        if mod.startswith("?"):  # from a import b: the module a.b, else a's attribute b
            p = module_file(mod[1:]) or module_file(mod[1:].rpartition(".")[0])
            if p is not None:
                found.add(p)
            continue
        parts = mod.lstrip("*").split(".")
        for i in range(1 if mod.startswith("*") else len(parts), len(parts) + 1):
            p = module_file(".".join(parts[:i]))
            if p is not None:
                found.add(p)
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
