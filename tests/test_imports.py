"""No import cycles between the project's modules, and no new function-level import of a project module (issue 28).

A cycle makes the import order matter (a module half-initialised when its partner reads it) and hides a layering
mistake; a function-level import is the usual way a cycle is papered over. grimp builds the static import graph of
``sim`` and ``policies`` (every ``import`` statement, inside functions too; ``if TYPE_CHECKING`` blocks left out),
and Tarjan's algorithm finds its strongly connected components: each of more than one module is a cycle.
"""

from __future__ import annotations

import ast
from pathlib import Path

import grimp
import pytest

from sim.games import GAMES

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("sim", "policies")
KNOWN_CYCLES: set[frozenset[str]] = set()  # none left; a cycle found later is listed here with its issue
# modules whose functions import project modules, each for a stated reason (a new one fails the test below)
LAZY_IMPORTERS = {
    "sim": "the public API's names load on first use (PEP 562 __getattr__), so `import sim` stays light",
    "sim.api": "the notebook API imports each engine part on first call, so `import sim.api` stays light",
    "sim.jit.hook": "the import hook loads sim.jit only once a kernel module is imported",
    "sim.jit.warmup": "the warm-up imports the game registry only when it runs",
    "sim.games.base": "sim.core.events (numpy tables) only for games that log events",
    "sim.games.dungeon.upgrade_lift": "its statistics only when the lift is computed",
    "sim.cli.answers": "a stored combos/describe answer prints without pydantic; the config model only on a miss",
    "sim.core.skill": "policies.skill (numba) only when a rule record is frozen, so a refused config stays light",
    "sim.experiments.targets": "run_batch (pandas) only to play the bands: a targets file is checked without it",
    "sim.players.run": "a fit loads its own game's log module alone, and the page (matplotlib) only to write it: a "
                       "refused log answers without the other games, scipy.stats or matplotlib",
}
# a registered game's front module (``sim.games.GAMES``) may load its report parts (charts, replay text, the skill
# report: matplotlib) only when a report asks
GAME_FRONTS = frozenset(GAMES.values())


def import_graph() -> grimp.ImportGraph:
    return grimp.build_graph(*PACKAGES, exclude_type_checking_imports=True, cache_dir=None)


def cycles(edges: dict[str, set[str]]) -> set[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative: no recursion limit)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: set[frozenset[str]] = set()
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            v, successors = work[-1]
            w = next(successors, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(edges.get(w, ())))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = set()
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.add(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    found.add(frozenset(comp))
    return found


def test_tarjan_finds_cycles():
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": {"e"}, "e": {"d"}, "f": {"f", "a"}, "g": set()}
    assert cycles(edges) == {frozenset("abc"), frozenset("de")}


def test_no_import_cycle_but_the_known_ones():
    graph = import_graph()
    edges = {m: set(graph.find_modules_directly_imported_by(m)) for m in graph.modules}
    found = cycles(edges)

    def show(comp: frozenset[str]) -> str:
        lines = []
        for a in sorted(comp):
            for b in sorted(edges[a] & comp):
                at = ", ".join(str(d["line_number"]) for d in graph.get_import_details(importer=a, imported=b))
                lines.append(f"{a} -> {b} (line {at})")
        return "\n  ".join(lines)

    new = found - KNOWN_CYCLES
    assert not new, "import cycle(s):\n  " + "\n\n  ".join(show(c) for c in sorted(new, key=sorted))
    assert KNOWN_CYCLES <= found, f"a known cycle is gone: drop it from KNOWN_CYCLES: {KNOWN_CYCLES - found}"


def test_a_new_cycle_fails():
    """The check sees a cycle added to the real graph (a module of ``sim`` importing one that imports it)."""
    graph = import_graph()
    graph.add_import(importer="sim.core.rng", imported="policies.skill", line_number=1, line_contents="import x")
    edges = {m: set(graph.find_modules_directly_imported_by(m)) for m in graph.modules}
    assert frozenset({"sim.core.rng", "policies.skill"}) in cycles(edges)


def _module_name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")


def function_level_imports() -> dict[str, list[str]]:
    """Module -> ``line: imported`` of every import of a project module inside a function of it."""
    out: dict[str, list[str]] = {}
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            tree = ast.parse(path.read_text(), str(path))
            for fn in ast.walk(tree):
                if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                    continue
                for node in ast.walk(fn):
                    if isinstance(node, ast.ImportFrom):
                        names = [node.module or ""] if node.level == 0 else [f"{'.' * node.level}{node.module or ''}"]
                    elif isinstance(node, ast.Import):
                        names = [a.name for a in node.names]
                    else:
                        continue
                    for name in names:
                        if name.startswith(".") or name.split(".")[0] in PACKAGES:
                            out.setdefault(_module_name(path), []).append(f"{node.lineno}: {name}")
    return {m: sorted(set(v), key=lambda s: int(s.split(":")[0])) for m, v in out.items()}


def test_no_new_function_level_import_of_a_project_module():
    found = function_level_imports()
    new = {m: v for m, v in found.items() if m not in LAZY_IMPORTERS and m not in GAME_FRONTS}
    assert not new, f"import these at the top of the module (or state why not in LAZY_IMPORTERS): {new}"
    stale = sorted(set(LAZY_IMPORTERS) - set(found))
    assert not stale, f"no function-level import left in {stale}: drop them from LAZY_IMPORTERS"


@pytest.mark.parametrize("source", ["def f():\n    from sim.core import rng\n",
                                    "def f():\n    if True:\n        import policies.skill as s\n",
                                    "class C:\n    def m(self):\n        from . import rules\n"])
def test_the_function_level_check_sees_an_import(tmp_path, monkeypatch, source):
    pkg = tmp_path / "sim"
    pkg.mkdir()
    (pkg / "probe.py").write_text(source)
    monkeypatch.setitem(globals(), "ROOT", tmp_path)
    assert list(function_level_imports()) == ["sim.probe"]
