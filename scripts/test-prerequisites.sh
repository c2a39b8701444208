#!/usr/bin/env bash
# What the test suite needs besides Python packages: universal-ctags (an independent extractor the
# tests compare against), Go and its static callgraph (an oracle for Go calls), a JDK's javap (an
# oracle for Java calls), PostgreSQL and Chromium (the metrics tests: a throwaway cluster, the
# report's HTML page; the architecture map's page), and the small tier of real third-party corpora
# (a few MB per language, fetched from Debian, PyPI and npm by scripts/get-corpora.sh, pinned in
# scripts/corpora.lock).
# Idempotent.
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
# Go's static call graph (`callgraph -algo=static`), the oracle tests/test_go_callgraph_oracle.py
# compares Go call edges with; it runs offline in GOPATH mode over the go-xtools corpus.
if ! command -v callgraph >/dev/null || ! command -v go >/dev/null; then
  $sudo apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq golang-go golang-golang-x-tools >/dev/null
fi
# setpriv (util-linux, essential in Debian): run as root, the permission tests
# (tests/test_store_permissions.py) drop CAP_DAC_OVERRIDE/CAP_DAC_READ_SEARCH with it so that mode
# bits apply to the commands under test.
if [[ $(id -u) == 0 ]] && ! command -v setpriv >/dev/null; then
  $sudo apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq util-linux >/dev/null
fi
# Debian source packages are unpacked by dpkg-source, which checks their tarballs against the .dsc.
if ! command -v dpkg-source >/dev/null; then
  $sudo apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq dpkg-dev >/dev/null
fi
# Java call ground truth (tests/test_java_javap_oracle.py): `javap` from the JDK; the junit4 jar
# Debian builds from the same source as the java-junit4 corpus comes with the corpora.
if ! command -v javap >/dev/null; then
  $sudo apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq openjdk-17-jdk-headless >/dev/null
fi
# PostgreSQL for the metrics dual-write tests (tests/test_metrics_postgres.py): each test starts a
# throwaway cluster of its own with initdb/pg_ctl on a free port; nothing runs as a service.
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  $sudo apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq postgresql >/dev/null
fi
# A real browser, headless, for the metrics report's HTML page (tests/test_metrics_report.py) and the
# architecture map's page (tests/test_map_picture.py): Debian's Chromium (Playwright's download is not reachable).
if ! command -v chromium >/dev/null; then
  $sudo apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
fi
# An independent MCP client (tests/test_mcp_inspector.py): the MCP Inspector's CLI, from npm, pinned,
# installed under the cache (never into the repository).
node_tools=${CODECAIRN_NODE_TOOLS:-$HOME/.cache/codecairn-node}
if ! command -v npm >/dev/null; then
  $sudo apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq nodejs npm >/dev/null
fi
if [[ ! -x $node_tools/node_modules/.bin/mcp-inspector ]]; then
  npm install --prefix "$node_tools" --no-audit --no-fund --silent @modelcontextprotocol/inspector@0.15.0 >/dev/null
fi
bash "$here/get-corpora.sh" --tier "$tier"
