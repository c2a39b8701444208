#!/usr/bin/env bash
# The checks that come before the tests (README's test command and .ci/run run them; so does
# `tox -e lint`): style, formatting, types of core, and core's layers. Uses the tools in .venv.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=.venv/bin
$bin/ruff check core plugins grammars tests benchmarks
$bin/ruff format --check core plugins grammars tests benchmarks
$bin/mypy
$bin/lint-imports
