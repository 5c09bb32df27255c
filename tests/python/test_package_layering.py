"""The layering of python/seam: one core (values, op semantics, the fusion builder, the runner, caches)
under two frontends, the nvFuser-compatible FusionDefinition and the torch.compile backend. The module
imports form no loop, the backend reaches no frontend module, and importing it loads no frontend."""

import ast
import os
import subprocess
import sys

import pytest

PYTHON = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python")
PACKAGE = os.path.join(PYTHON, "seam")
# The nvFuser-compatible frontend: what the backend and the core must not import.
FRONTEND = {"seam.definition", "seam.direct"}


def _modules():
    """Module name -> path of every module of the package."""
    found = {}
    for root, _, files in os.walk(PACKAGE):
        for name in files:
            if name.endswith(".py"):
                path = os.path.join(root, name)
                parts = os.path.relpath(path, PYTHON)[:-3].split(os.sep)
                if parts[-1] == "__init__":
                    parts = parts[:-1]
                found[".".join(parts)] = path
    return found


def _module_level_statements(body):
    """Statements run when the module is imported (inside if/try, not inside functions or classes)."""
    for node in body:
        yield node
        if isinstance(node, (ast.If, ast.Try, ast.With)):
            for field in ("body", "orelse", "finalbody", "handlers"):
                for child in getattr(node, field, []):
                    yield from _module_level_statements(child.body if isinstance(child, ast.ExceptHandler)
                                                        else [child])


def _imports(name, path, modules):
    """The package modules `name` imports when it is imported."""
    package = name if path.endswith("__init__.py") else name.rpartition(".")[0]
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    targets = set()
    for node in _module_level_statements(tree.body):
        if isinstance(node, ast.Import):
            targets |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[:len(anchor) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            for alias in node.names:
                # a submodule (seam's extension module _seam among them), else a name of `base`
                submodule = f"{base}.{alias.name}"
                targets.add(submodule if submodule in modules or alias.name == "_seam" else base)
    return {t for t in targets if t in modules and t != name}


def _graph():
    modules = _modules()
    return {name: _imports(name, path, modules) for name, path in modules.items()}


def test_the_graph_sees_the_package():
    graph = _graph()
    assert "seam.fusion_builder" in graph and "seam.torch_backend.translate" in graph
    assert "seam.fusion_builder" in graph["seam.torch_backend.translate"]
    assert "seam.recording" in graph["seam.definition"]


def test_module_imports_form_no_loop():
    graph = _graph()
    state = {}  # module -> "open" while on the path, "done" after

    def visit(name, path):
        state[name] = "open"
        for target in sorted(graph[name]):
            if state.get(target) == "open":
                loop = path[path.index(target):] + [target]
                pytest.fail("import loop: " + " -> ".join(loop))
            if target not in state:
                visit(target, path + [target])
        state[name] = "done"

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])


def _reachable(graph, start):
    seen, todo = set(), [start]
    while todo:
        for target in graph[todo.pop()]:
            if target not in seen:
                seen.add(target)
                todo.append(target)
    return seen


@pytest.mark.parametrize("side", ["core", "torch_backend"])
def test_the_core_and_the_backend_import_no_frontend_module(side):
    graph = _graph()
    frontend = FRONTEND | {"seam"}  # the package's __init__ exports the frontend's names
    starts = [n for n in graph if n.startswith("seam.torch_backend")] if side == "torch_backend" else \
        [n for n in graph if n not in frontend and not n.startswith("seam.torch_backend")]
    for start in starts:
        reached = _reachable(graph, start) & FRONTEND
        assert not reached, f"{start} imports {sorted(reached)}"


def test_importing_the_backend_loads_no_frontend_module():
    code = ("import sys\n"
            "import seam.torch_backend.translate, seam.torch_backend.runtime, seam.torch_backend.precompile\n"
            "import seam.torch_backend.fused_linear_cross_entropy, seam.torch_backend.converters\n"
            f"print(sorted(m for m in {sorted(FRONTEND)!r} if m in sys.modules))\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([PYTHON, os.environ.get("PYTHONPATH", "")]))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
