#!/usr/bin/env bash
# Regenerates every generated file in a scratch copy of the tree and fails when
# one differs from the working tree: deepcopy, CRDs, RBAC, machine docs.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
echo "fsmserve: checking generated files are current"
tar -C "$root" --exclude=./bin --exclude=./.fsmserve --exclude=./.git -cf - . | tar -C "$scratch" -xf -
(cd "$scratch" && make --no-print-directory -s generate >/dev/null)
status=0
for path in api config/crd config/rbac config/webhook docs/machines; do
  [ -e "$root/$path" ] || [ -e "$scratch/$path" ] || continue
  if ! diff -r -q "$root/$path" "$scratch/$path" >/dev/null 2>&1; then
    echo "stale generated files under $path:"
    diff -r "$root/$path" "$scratch/$path" | head -40 || true
    status=1
  fi
done
if [ "$status" -ne 0 ]; then
  echo "run 'make generate' and commit the result"
fi
exit "$status"
