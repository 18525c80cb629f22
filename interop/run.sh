#!/usr/bin/env bash
# The interop suite: real TensorFlow/Keras judges the lab's architectures, weight files, outputs and
# image ops. Creates interop/.venv with the pinned requirements when it is missing or the pins changed,
# then runs pytest. Extra arguments go to pytest (e.g. -k architectures); --install-only stops after the
# environment is ready (scripts/test.sh installs it while the unit tests run).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv="$here/.venv"
python="${PYTHON:-python3}"

if ! command -v "$python" >/dev/null 2>&1; then
  echo "interop: '$python' not found. The interop suite needs Python 3 (one TensorFlow 2.21 supports; 3.11 is tested) with venv:" >&2
  echo "  Debian/Ubuntu: sudo apt-get install -y python3 python3-venv" >&2
  echo "  macOS: brew install python@3.11   Windows: https://www.python.org/downloads/" >&2
  echo "or point PYTHON at an interpreter: PYTHON=/path/to/python3 npm run test:interop" >&2
  exit 1
fi

stamp="$venv/.requirements-hash"
want="$(cat "$here/requirements.txt" "$here/requirements-nodeps.txt" | sha256sum | cut -d' ' -f1)"
if [[ ! -x "$venv/bin/python" || "$(cat "$stamp" 2>/dev/null)" != "$want" ]]; then
  echo "interop: installing the pinned requirements into $venv (first run: a few minutes)" >&2
  if ! "$python" -m venv --clear "$venv"; then
    echo "interop: '$python -m venv' failed; on Debian/Ubuntu: sudo apt-get install -y python3-venv" >&2
    exit 1
  fi
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$here/requirements.txt"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps -r "$here/requirements-nodeps.txt"
  echo "$want" >"$stamp"
fi

[[ "${1:-}" == "--install-only" ]] && exit 0

cd "$here/.."
exec "$venv/bin/python" -m pytest -c interop/pytest.ini interop "$@"
