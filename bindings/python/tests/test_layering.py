"""The package's modules import one way (issue 41, item 4): each module imports only modules of
lower layers, as amber's docstring lists them, anywhere in its code (in a function, under
TYPE_CHECKING), so that no import cycle comes back. Read from the modules' source with ast, so the
imports Python skips at run time (TYPE_CHECKING ones, those of functions not called) count too."""
import ast
import os
import re
from typing import Dict, List, Optional, Set

import amber

PACKAGE = "amber"
PACKAGE_DIR = os.path.dirname(os.path.abspath(amber.__file__))
LAYERS_TITLE = "Layers, lowest first"


def package_modules() -> Dict[str, List[str]]:
    """The package's modules, by name ("amber" for its __init__), with their files. A subpackage
    (amber.tk) is one module of the layers, its files together. The examples subpackage is a
    program of the package's users, not one of its modules."""
    modules = {}
    for entry in sorted(os.listdir(PACKAGE_DIR)):
        path = os.path.join(PACKAGE_DIR, entry)
        if entry.endswith(".py"):
            name = entry[:-3]
            modules[PACKAGE if name == "__init__" else name] = [path]
        elif entry != "examples" and os.path.isfile(os.path.join(path, "__init__.py")):
            modules[entry] = sorted(os.path.join(path, f) for f in os.listdir(path) if f.endswith(".py"))
    return modules


def imported_modules(source: str, known: Set[str], is_package: bool = False) -> Set[str]:
    """The package modules that ``source`` (a module of the package) imports, in any scope."""
    found = set()

    def add(dotted: str) -> None:
        parts = dotted.split(".")
        if parts[0] == PACKAGE:
            found.add(parts[1] if len(parts) > 1 and parts[1] in known else PACKAGE)

    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                base = node.module or ""
            elif node.level == 1:  # the package's modules are one level deep: "." is amber
                base = PACKAGE + ("." + node.module if node.module else "")
            else:
                continue  # above the package: not one of its modules
            if base == PACKAGE:
                for alias in node.names:  # from amber import tk, Engine: a module or a name of amber's
                    add(PACKAGE + "." + alias.name)
            else:
                add(base)
    found.discard(PACKAGE if is_package else "")
    return found


def import_graph() -> Dict[str, Set[str]]:
    modules = package_modules()
    known = set(modules) - {PACKAGE}
    graph = {}
    for name, paths in modules.items():
        graph[name] = set()
        for path in paths:
            with open(path, encoding="utf-8") as f:
                graph[name] |= imported_modules(f.read(), known, is_package=name == PACKAGE)
        graph[name].discard(name)  # a subpackage's files import one another
    return graph


def documented_layers(doc: str) -> List[List[str]]:
    """The layers the package's docstring lists: the indented lines after LAYERS_TITLE's
    paragraph, each "name, name  comment" (a line that starts with the comment continues one)."""
    lines = doc.split(LAYERS_TITLE, 1)[1].split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("    "))
    layers = []
    for line in lines[start:]:
        if not line.strip():
            break
        names = re.split(r"\s{2,}", line.strip())[0]
        if not line.startswith("     "):  # a continuation line is indented further
            layers.append([name.strip() for name in names.split(",")])
    return layers


def find_cycle(graph: Dict[str, Set[str]]) -> Optional[List[str]]:
    """A cycle of ``graph`` (its modules in order, the first repeated last), or None."""
    state: Dict[str, str] = {}  # "open" while on the path, "done" after
    path: List[str] = []

    def visit(node: str) -> Optional[List[str]]:
        state[node] = "open"
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == "open":
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                cycle = visit(nxt)
                if cycle:
                    return cycle
        path.pop()
        state[node] = "done"
        return None

    for node in sorted(graph):
        if node not in state:
            cycle = visit(node)
            if cycle:
                return cycle
    return None


def test_every_module_is_in_one_documented_layer():
    names = [name for layer in documented_layers(amber.__doc__ or "") for name in layer]
    assert sorted(names) == sorted(package_modules()), "amber's docstring lists the layers of exactly its modules"


def test_each_module_imports_only_modules_of_lower_layers():
    level = {name: i for i, layer in enumerate(documented_layers(amber.__doc__ or "")) for name in layer}
    upward = sorted(f"{module} imports {imported}" for module, imports in import_graph().items()
                    for imported in imports if level[imported] >= level[module])
    assert upward == [], "imports against the layers of amber's docstring"


def test_the_import_graph_has_no_cycle():
    graph = import_graph()
    assert graph["engine"] >= {"objects", "report", "views", "storage", "app"}  # the graph is read
    assert find_cycle(graph) is None


def test_imports_in_functions_and_under_type_checking_count():
    """What the checks above rest on: an import the interpreter skips still makes an arrow, and
    the arrows back to the engine that 0.2 had form a cycle."""
    source = ("from typing import TYPE_CHECKING\nfrom . import _ffi\nif TYPE_CHECKING:\n    from .engine import Engine\n"
              "def f():\n    from amber.report import Report\n    import amber.views\n")
    imports = imported_modules(source, {"_ffi", "engine", "report", "views"})
    assert imports == {"_ffi", "engine", "report", "views"}
    assert find_cycle({"engine": {"objects"}, "objects": {"report"}, "report": {"engine"}}) == [
        "engine", "objects", "report", "engine"]
    assert find_cycle({"engine": {"objects", "report"}, "objects": set(), "report": {"objects"}}) is None
