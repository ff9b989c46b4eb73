#!/usr/bin/env bash
# Node 24 LTS for AquaPilot (Node 20 is out of support). The project needs Node 24 (package.json "engines"). On a
# machine whose Node is older, this fetches the version named in .node-version from the npm registry's
# node-linux-<arch> package (npm checks its integrity) into .node/ (ignored by git), puts its bin/ first on PATH and
# points native builds (node-gyp: better-sqlite3) at the headers that package ships (npm_config_nodedir). The machine's
# npm runs on it. With Node 24 or newer already on PATH it changes nothing.
#
#   . scripts/node24.sh            # this shell: then `npm install && npm start`, `npm test`
#   scripts/node24.sh npm test     # one command
#
# Errors: exits (or returns, when sourced) non-zero when the platform has no such package (not Linux x64/arm64) or the
# download fails.

_aquapilot_node24() {
  local root want major have arch dir tmp
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  want="$(tr -d ' \n' < "$root/.node-version")"
  major="${want%%.*}"
  have="$(node -p 'process.versions.node' 2>/dev/null || echo 0)"
  if [ "${have%%.*}" -ge "$major" ] 2>/dev/null; then return 0; fi
  case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) arch=x64 ;;
    Linux-aarch64) arch=arm64 ;;
    *) echo "node24.sh: no node-linux package for $(uname -s) $(uname -m); install Node $major yourself" >&2; return 1 ;;
  esac
  dir="$root/.node/node-v$want-linux-$arch"
  if [ ! -x "$dir/bin/node" ]; then
    echo "node24.sh: Node $have is older than $major; fetching node-linux-$arch@$want from the npm registry into .node/" >&2
    tmp="$(mktemp -d)"
    (cd "$tmp" && npm pack --silent "node-linux-$arch@$want" >/dev/null) || { rm -rf "$tmp"; return 1; }
    mkdir -p "$tmp/x" && tar xzf "$tmp"/node-linux-*.tgz -C "$tmp/x" || { rm -rf "$tmp"; return 1; }
    mkdir -p "$root/.node" && rm -rf "$dir" && mv "$tmp/x/package" "$dir"
    rm -rf "$tmp"
  fi
  export PATH="$dir/bin:$PATH"
  export npm_config_nodedir="$dir"
}

if [ "${BASH_SOURCE[0]}" != "$0" ]; then
  _aquapilot_node24
else
  set -euo pipefail
  _aquapilot_node24
  if [ "$#" -gt 0 ]; then exec "$@"; fi
  node -v
fi
