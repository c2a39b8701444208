#!/usr/bin/env bash
# What the test suite needs besides Python packages: universal-ctags (an independent extractor the
# tests compare against) and the small tier of real third-party corpora (a few MB per language,
# fetched from Debian, PyPI and npm by scripts/get-corpora.sh). Idempotent.
#   scripts/test-prerequisites.sh [small|large|all]
set -euo pipefail
tier=${1:-small}
here=$(cd "$(dirname "$0")" && pwd)
sudo=""; [[ $(id -u) == 0 ]] || sudo="sudo"
if [[ -z $(ls /var/lib/apt/lists/ 2>/dev/null | grep -v -e lock -e partial -e auxfiles) ]]; then
  $sudo apt-get update -qq >/dev/null
fi
if ! command -v ctags >/dev/null || ! ctags --version 2>/dev/null | grep -q Universal; then
  $sudo apt-get update -qq >/dev/null
  $sudo apt-get install -y -qq universal-ctags >/dev/null
fi
bash "$here/get-corpora.sh" --tier "$tier"
