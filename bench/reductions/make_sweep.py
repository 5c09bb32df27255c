#!/usr/bin/env python3
"""Writes the reduction benchmark's sweep (or its set) as seam fusion files (standard library only).

    bench/reductions/make_sweep.py DIR            # the sweep (below) into DIR
    bench/reductions/make_sweep.py --set DIR      # the benchmark set, as checked in under bench/reductions/
    bench/reductions/make_sweep.py --set --small DIR   # the set at small shapes (CI runs it on the host)
    bench/reductions/make_sweep.py --list         # the sweep's (kind, M, N), one a line

The sweep, for RMSNorm forward, softmax forward and cross-entropy forward: N = 256 .. 262144 (powers of
two) at M * N = 2^26 elements; small M (1, 8, 64) at N = 4096 and 32000; hidden sizes that are not powers
of two (5120, 11008, 13824, 14336) and N that is not a multiple of 8 (4097, 32001) at M = 2^26 / N
rounded; the vocabulary 151936 at M = 512 (cross-entropy only).

For the training kinds: cross-entropy forward, backward and the two together over real vocabularies
(32000 .. 262144, 50257 and 32064 among them: no 16-byte vector divides those rows) at M * N close to
2^28; the normalization backwards (RMSNorm, LayerNorm) over hidden sizes 512 .. 16384, powers of two,
model widths and rows that no vector width divides, at M * N = 2^26.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fusions  # noqa: E402

SWEEP_KINDS = ["rmsnorm_fwd", "softmax_fwd", "cross_entropy_fwd"]
ELEMENTS = 1 << 26
VOCABULARIES = [32000, 32064, 50257, 128256, 151936, 256000, 262144]
VOCABULARY_KINDS = ["cross_entropy_fwd", "cross_entropy_bwd", "cross_entropy_fwd_bwd"]
VOCABULARY_ELEMENTS = 1 << 28
HIDDEN_SIZES = [512, 768, 1024, 1025, 2048, 2560, 3072, 4096, 4097, 5120, 6144, 8192, 12288, 16384]
NORM_BACKWARD_KINDS = ["rmsnorm_bwd", "layernorm_bwd"]


def sweep_entries():
    entries = []
    for kind in SWEEP_KINDS:
        shapes = [(ELEMENTS // n, n) for n in (1 << p for p in range(8, 19))]
        shapes += [(m, n) for n in (4096, 32000) for m in (1, 8, 64)]
        shapes += [(round(ELEMENTS / n), n) for n in (5120, 11008, 13824, 14336, 4097, 32001)]
        if kind == "cross_entropy_fwd":
            shapes.append((512, 151936))
        entries += [(kind, m, n) for m, n in shapes]
    for kind in VOCABULARY_KINDS:
        entries += [(kind, round(VOCABULARY_ELEMENTS / n), n) for n in VOCABULARIES]
    for kind in NORM_BACKWARD_KINDS:
        entries += [(kind, round(ELEMENTS / n), n) for n in HIDDEN_SIZES]
    return sorted(set(entries), key=entries.index)


def small_shape(m, n):
    """A CI-sized stand-in for (M, N): few rows, an odd row length (no vector width divides it)."""
    return 6, max(8, n // 32) + 1


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dir", nargs="?", help="where to write the files (created when missing)")
    parser.add_argument("--set", action="store_true", help="the benchmark set instead of the sweep")
    parser.add_argument("--small", action="store_true", help="small shapes of the same fusions (CI)")
    parser.add_argument("--list", action="store_true", help="print the entries instead of writing them")
    args = parser.parse_args()
    entries = fusions.BENCHMARK_SET if args.set else sweep_entries()
    if args.small:
        entries = sorted({(kind,) + small_shape(m, n) for kind, m, n in entries})
    if args.list:
        for kind, m, n in entries:
            print(kind, m, n)
        return 0
    if not args.dir:
        parser.error("give a directory (or --list)")
    paths = fusions.write_set(args.dir, entries)
    print(f"wrote {len(paths)} fusion files to {args.dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
