#!/usr/bin/env bash
# Runs a command with a Node that Pi 1.x accepts (>= 22.19) first on PATH.
#
#   scripts/with-node.sh jest …      (what npm test, npm start and the rest use)
#
# When the machine's own Node is older, a Node 22 is installed once from the
# npm registry (the `node-linux-<arch>` package, a Node binary shipped as a
# package) into .cache/node/ of the checkout, which git ignores and `npm ci`
# leaves alone. The machine's own Node stays reachable as FORMCHART_SYSTEM_NODE,
# so the Pi 0.73 lane of the end-to-end tests can run on it as its users do.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
version=22.23.5

meets() { # does "$1" (a node binary) run a version >= 22.19?
  "$1" -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 22 || (a === 22 && b >= 19) ? 0 : 1)' 2>/dev/null
}

system="$(command -v node || true)"
export FORMCHART_SYSTEM_NODE="${FORMCHART_SYSTEM_NODE:-$system}"
if [ -n "$system" ] && meets "$system"; then
  exec "$@"
fi

case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) echo "with-node.sh: no Node package for $(uname -m); install Node >= 22.19 yourself" >&2; exit 1 ;;
esac
prefix="$root/.cache/node"
bin="$prefix/node_modules/node-linux-$arch/bin"
if ! { [ -x "$bin/node" ] && meets "$bin/node"; }; then
  have="missing"; [ -n "$system" ] && have="$("$system" --version)"
  echo "Installing Node $version from the npm registry into .cache/node (the machine's Node is $have; Pi 1.x needs >= 22.19)…" >&2
  mkdir -p "$prefix"
  npm install --prefix "$prefix" --no-save --no-package-lock --no-audit --no-fund --loglevel=error \
    "node-linux-$arch@$version" >&2
fi
export PATH="$bin:$PATH"
exec "$@"
