#!/usr/bin/env python3
"""The line budget (docs/ARCHITECTURE.md, "Line budget"): no source file over 800 lines, no function over
100. Functions already over it are listed in scripts/size_budget.txt with their length; a change may
shorten them (and must then lower or drop the line, so the list only shrinks) but not lengthen them or
add another.

C++ functions are found on clang-format's layout: a line at namespace or class level (indent 0 or 2) that
opens a body with `{` after a parameter list, up to the `}` at the same indent. Python functions and
methods come from the ast module. Lambdas, classes and namespaces are not functions here.

Usage: scripts/check_sizes.py [--report N]   (exit 1 on a violation; --report prints the N longest)"""

import argparse
import ast
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FOLDERS = ("src", "include", "tools", "python", "tests", "bench", "scripts")
CPP = (".cpp", ".h", ".cuh")
MAX_FILE_LINES = 800
MAX_FUNCTION_LINES = 100
BUDGET = os.path.join(ROOT, "scripts", "size_budget.txt")
_NOT_FUNCTIONS = re.compile(r"^\s*(namespace|class|struct|union|enum|extern|if|for|while|switch|else|do|try|"
                            r"catch)\b|=\s*\{$|=\s*\[|\]\s*\(.*\)\s*(mutable\s*)?(->.*)?\{$")


def sources():
    for folder in FOLDERS:
        for base, dirs, files in os.walk(os.path.join(ROOT, folder)):
            dirs[:] = [d for d in dirs if d not in ("history", "__pycache__") and not d.startswith(".")]
            for name in sorted(files):
                if name.endswith(CPP) or name.endswith(".py"):
                    yield os.path.relpath(os.path.join(base, name), ROOT)


def cpp_functions(lines):
    """(name, first line, length) of each function body at indent 0 or 2."""
    found = []
    i = 0
    while i < len(lines):
        line = lines[i]
        indent = len(line) - len(line.lstrip(" "))
        stripped = line.rstrip()
        if indent in (0, 2) and stripped.endswith("{") and not _NOT_FUNCTIONS.search(stripped):
            # the signature may span lines: find where it starts (a line at the same indent with a "(")
            start = i
            while start > 0 and "(" not in lines[start] and i - start < 8:
                start -= 1
            header = " ".join(l.strip() for l in lines[start:i + 1])
            if "(" in header and ")" in header and not header.lstrip().startswith(("#", "//")):
                close = " " * indent + "}"
                end = i + 1
                while end < len(lines) and not (lines[end].rstrip() == close or lines[end].startswith(close + " ")
                                                 or lines[end].rstrip() == close + ";"):
                    end += 1
                if end < len(lines):
                    name = header.split("(")[0].split()[-1] if header.split("(")[0].split() else "?"
                    found.append((name, start + 1, end - start + 1))
                    i = end
        i += 1
    return found


def python_functions(text):
    found = []
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return found
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found.append((node.name, node.lineno, node.end_lineno - node.lineno + 1))
    return found


def measure():
    """{key: length} of every file over the file budget and every function over the function budget;
    keys are "path" and "path:function"; and the full list of functions for the report."""
    over, every = {}, []
    for path in sources():
        with open(os.path.join(ROOT, path), encoding="utf-8", errors="replace") as f:
            text = f.read()
        lines = text.splitlines()
        if len(lines) > MAX_FILE_LINES:
            over[path] = len(lines)
        functions = python_functions(text) if path.endswith(".py") else cpp_functions(lines)
        for name, first, length in functions:
            every.append((length, f"{path}:{name}", first))
            if length > MAX_FUNCTION_LINES:
                key = f"{path}:{name}"
                over[key] = max(over.get(key, 0), length)
    return over, every


def read_budget():
    allowed = {}
    if os.path.exists(BUDGET):
        with open(BUDGET) as f:
            for line in f:
                line = line.strip()
                if line and not line.startswith("#"):
                    key, length = line.rsplit(" ", 1)
                    allowed[key] = int(length)
    return allowed


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--report", type=int, default=0, help="print the N longest functions")
    parser.add_argument("--write", action="store_true", help="rewrite size_budget.txt with today's exceptions")
    args = parser.parse_args()
    over, every = measure()
    if args.report:
        for length, key, first in sorted(every, reverse=True)[:args.report]:
            print(f"{length:5d}  {key} (line {first})")
    if args.write:
        with open(BUDGET, "w") as f:
            f.write("# Files over 800 lines and functions over 100 (scripts/check_sizes.py): each may only shrink.\n")
            for key in sorted(over):
                f.write(f"{key} {over[key]}\n")
        return 0
    allowed = read_budget()
    problems = []
    for key, length in sorted(over.items()):
        limit = MAX_FILE_LINES if ":" not in key else MAX_FUNCTION_LINES
        if key not in allowed:
            problems.append(f"{key}: {length} lines, over the budget of {limit}")
        elif length > allowed[key]:
            problems.append(f"{key}: {length} lines, longer than the {allowed[key]} scripts/size_budget.txt allows")
    for key, length in sorted(allowed.items()):
        if over.get(key, 0) < length:
            problems.append(f"{key}: now {over.get(key, 'within the budget')}, lower its line in "
                            f"scripts/size_budget.txt to match (or drop it)")
    for p in problems:
        print("size budget:", p, file=sys.stderr)
    if not problems:
        print(f"size budget: files <= {MAX_FILE_LINES} lines and functions <= {MAX_FUNCTION_LINES} "
              f"but {len(allowed)} listed exceptions")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
