#!/usr/bin/env python3
"""Checks seam's stage graph (run by .ci/run).

docs/ARCHITECTURE.md's "Layering" table lists, per stage (a folder of src/), the stages it may include.
This script checks that every quoted include of another stage's header ("plan/plan.h") is allowed there,
that src/CMakeLists.txt links each stage only to allowed stages, and that the stages a stage includes are
all reachable through its link dependencies, so the build and the documented graph cannot drift apart;
and that in the stages whose files its "Who links the interpreter" names, only those files include interp/.
"""
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parent.parent
errors = []

table = {}
section = re.search(r"^## Layering\n(.*?)(?=^## )", (root / "docs/ARCHITECTURE.md").read_text(), re.M | re.S)
if not section:
    sys.exit("layering: no '## Layering' section in docs/ARCHITECTURE.md")
for line in section.group(1).splitlines():
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    if len(cells) == 2 and cells[0].startswith("`"):
        table[cells[0].strip("`")] = set(re.findall(r"`([a-z_]+)`", cells[1]))

stages = sorted(p.name for p in (root / "src").iterdir() if p.is_dir())
cmake = (root / "src/CMakeLists.txt").read_text()
links = {}
for m in re.finditer(r"^seam_stage\((\w+)([^)]*)\)", cmake, re.M):
    links[m.group(1)] = set(re.findall(r"seam_(\w+)", m.group(2)))

includes = {}
for stage in stages:
    used = {}
    for f in sorted((root / "src" / stage).rglob("*")):
        if f.suffix not in (".h", ".cpp", ".def", ".cuh"):
            continue
        for dep in re.findall(r'^#include "([a-z_]+)/', f.read_text(errors="replace"), re.M):
            if dep != stage and dep in stages:
                used.setdefault(dep, f.relative_to(root))
    includes[stage] = used

for stage in stages:
    if stage not in table:
        errors.append(f"src/{stage} is not in docs/ARCHITECTURE.md's Layering table")
        continue
    for dep, where in includes[stage].items():
        if dep not in table[stage]:
            errors.append(f"{stage} includes {dep} ({where}), which docs/ARCHITECTURE.md does not allow")
    if stage not in links:
        errors.append(f"src/CMakeLists.txt declares no seam_stage({stage})")
        continue
    for dep in links[stage] - table[stage]:
        errors.append(f"src/CMakeLists.txt links seam_{stage} to seam_{dep}, which the Layering table does not allow")
    reachable, todo = set(), list(links[stage])
    while todo:
        d = todo.pop()
        if d not in reachable:
            reachable.add(d)
            todo.extend(links.get(d, ()))
    for dep, where in includes[stage].items():
        if dep not in reachable:
            errors.append(f"{stage} includes {dep} ({where}) but src/CMakeLists.txt does not link seam_{stage} to it")

# The oracle in production libraries: the files docs/ARCHITECTURE.md's "Who links the interpreter" names
# are the only ones of their stages that include interp/, so that the dependency stays where it is shown.
oracle = re.search(r"^### Who links the interpreter\n(.*?)(?=^##)", section.group(1) + "\n##", re.M | re.S)
if not oracle:
    errors.append("docs/ARCHITECTURE.md has no '### Who links the interpreter' in its Layering section")
else:
    named = set(re.findall(r"`([a-z_]+/[a-z_]+\.(?:cpp|h))`", oracle.group(1)))
    for stage in sorted({n.split("/")[0] for n in named}):
        for f in sorted((root / "src" / stage).rglob("*")):
            if f.suffix in (".h", ".cpp") and re.search(r'^#include "interp/', f.read_text(errors="replace"), re.M):
                where = str(f.relative_to(root / "src"))
                if where not in named:
                    errors.append(f"src/{where} includes interp/, which only {', '.join(sorted(named))} may "
                                  "(docs/ARCHITECTURE.md, 'Who links the interpreter')")

for e in errors:
    print("layering:", e)
if errors:
    sys.exit(1)
print(f"layering: {len(stages)} stages include and link only what docs/ARCHITECTURE.md allows")
