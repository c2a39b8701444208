#!/usr/bin/env bash
# Editable installs of core and every plugin and grammar pack into .venv, for working on the code
# (requirements-dev.txt installs copies; run this after it so edits take effect without reinstalling).
set -euo pipefail
cd "$(dirname "$0")/.."
eds=(-e './core[semantic]')
for d in plugins/* grammars/*; do
    [[ -f $d/pyproject.toml ]] && eds+=(-e "./$d")
done
.venv/bin/pip install -q "${eds[@]}"
