#!/usr/bin/env bash
# Runs every `build/tools/seam ...` line of the code blocks in README.md, examples/README.md and docs/*.md,
# in order per file, in a scratch directory where build/tools/seam is the binary under test: no documented
# command can drift from the tool. Without a GPU, `--backend cuda` runs as `--backend host`, so the rest of
# the line (its seed, its files) is still checked; `--compile` is skipped when seam was built without NVRTC.
#
#   tests/tool/doc_commands.sh SEAM_BINARY REPO_ROOT
set -uo pipefail
seam=$(realpath "$1")
root=$(realpath "$2")
gpu=0
command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1 && gpu=1
passed=0 failed=0 skipped=0
for doc in "$root/README.md" "$root/examples/README.md" "$root"/docs/*.md; do
  [[ -f "$doc" ]] || continue
  work=$(mktemp -d)
  mkdir -p "$work/build/tools"
  ln -s "$seam" "$work/build/tools/seam"
  ln -s "$root/examples" "$work/examples"
  while IFS= read -r line; do
    command=${line%%  #*}  # a comment after two spaces explains the line
    ((gpu)) || command=${command//--backend cuda/--backend host}
    if (cd "$work" && eval "$command") >"$work/.log" 2>&1; then
      passed=$((passed + 1))
    elif [[ "$command" == *--compile* ]] && grep -q "without NVRTC" "$work/.log"; then
      skipped=$((skipped + 1))
    else
      failed=$((failed + 1))
      echo "FAILED (${doc#"$root"/}): $command"
      sed 's/^/  | /' "$work/.log" | tail -20
    fi
  done < <(awk '/^```/ { block = !block; next } block && /^build\/tools\/seam / { print }' "$doc")
  rm -rf "$work"
done
echo "documented commands: $passed passed, $failed failed, $skipped skipped"
((failed == 0 && passed > 0))
