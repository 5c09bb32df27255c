#!/usr/bin/env bash
# CI for the reduction benchmark's fusion files (ctest bench_reductions_files; no GPU):
#   1. the checked-in set is what fusions.py writes (make_sweep.py --set regenerates it);
#   2. every file of the set and of the sweep verifies and plans at full size (`seam bench --dry-run`);
#   3. the set at small shapes (few rows, odd row lengths) runs on the host backend's generated code and
#      matches the reference interpreter, cross-entropy with targets inside the vocabulary (and, for the
#      kinds with a gradient, rows whose target is ignore_index, -100).
#
#   bench/reductions/check.sh SEAM_BINARY
set -euo pipefail
seam=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 "$here/make_sweep.py" --set "$work/set" > /dev/null
for f in "$work"/set/*.seam; do
  cmp -s "$f" "$here/$(basename "$f")" || { echo "bench/reductions/$(basename "$f") differs from what fusions.py writes (run make_sweep.py --set bench/reductions)"; exit 1; }
done
checked_in=$(ls "$here"/*.seam | wc -l)
written=$(ls "$work"/set/*.seam | wc -l)
((checked_in == written)) || { echo "bench/reductions holds $checked_in fusion files, fusions.py writes $written"; exit 1; }

python3 "$here/make_sweep.py" "$work/sweep" > /dev/null
for f in "$here"/*.seam "$work"/sweep/*.seam; do
  "$seam" verify "$f" > /dev/null
done
planned=$("$seam" bench "$here"/*.seam "$work"/sweep/*.seam --dry-run --json | grep -c '"dry_run": true')
echo "planned $planned fusions at full size"

python3 "$here/make_sweep.py" --set --small "$work/small" > /dev/null
for f in "$work"/small/*.seam; do
  name=$(basename "$f" .seam)
  extra=()
  if [[ "$name" == cross_entropy_* ]]; then
    # Targets 0, 1, N-1, N/2, 7, N-2 (M = 6): first, last and inner classes; the gradient kinds
    # ignore rows 1 and 4 (target -100).
    n=${name##*x}
    python3 - "$work/$name.targets.npy" "$n" "$name" <<'PY'
import struct, sys
n = int(sys.argv[2])
values = [0, 1, n - 1, n // 2, 7, n - 2]
if sys.argv[3].startswith(("cross_entropy_bwd", "cross_entropy_fwd_bwd")):
    values[1] = values[4] = -100
header = "{'descr': '<i8', 'fortran_order': False, 'shape': (%d,), }" % len(values)
header += " " * (63 - (10 + len(header)) % 64) + "\n"
with open(sys.argv[1], "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
    f.write(struct.pack("<%dq" % len(values), *values))
PY
    extra=(--input "targets=$work/$name.targets.npy")
  fi
  "$seam" run "$f" --seed 1 "${extra[@]}" --out "$work/$name.expected" > /dev/null
  "$seam" run "$f" --seed 1 "${extra[@]}" --backend host --expect "$work/$name.expected" > "$work/$name.log" ||
    { echo "$name: the host backend differs from the interpreter"; cat "$work/$name.log"; exit 1; }
done
echo "ran $(ls "$work"/small/*.seam | wc -l) small fusions on the host backend: all match the interpreter"
