#!/usr/bin/env bash
# `npm test`: every check in order, stopping at the first failure. The interop suite's Python
# environment (a few minutes of downloads on a fresh machine) installs in the background while the
# format, type, lint and unit checks run, so its wait overlaps theirs.
set -euo pipefail
cd "$(dirname "$0")/.."
install_log="$(mktemp)"
bash interop/run.sh --install-only >"$install_log" 2>&1 &
installing=$!
trap 'kill $(jobs -p) 2>/dev/null || true' EXIT

npm run format:check
# Type checking and lint are one Node process each: side by side they use both cores.
lint_log="$(mktemp)"
npm run lint >"$lint_log" 2>&1 &
linting=$!
npm run typecheck
lint_ok=0
wait "$linting" || lint_ok=$?
cat "$lint_log"
if [[ "$lint_ok" != 0 ]]; then
  echo "lint failed (log above)" >&2
  exit 1
fi
npm run test:unit
if ! wait "$installing"; then
  cat "$install_log" >&2
  echo "interop: installing the Python environment failed (log above)" >&2
  exit 1
fi
cat "$install_log" >&2
npm run test:interop
npm run build
npm run test:e2e
