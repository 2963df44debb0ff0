#!/usr/bin/env bash
# Proves the npm package works for someone who installs it (run by .ci/run after the tests):
# packs a fresh clone of HEAD (prepack builds from nothing), checks the tarball's size and that
# it holds no tests, benchmarks, source maps or build caches, installs it into an empty project
# and runs `npx graphdb query`, imports `graphdb` and `graphdb/mcp` as ESM and type-checks a
# TypeScript consumer without @types/node, then installs from a git+file:// URL of the clone
# (npm runs `prepare` there) and runs the bin again. Installs use --prefer-offline: after the
# project's own `npm install` every dependency is in npm's cache.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
cleanup() {
  local status=$?
  local running
  running="$(jobs -p)"
  [ -z "$running" ] || kill $running 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$work"
  exit "$status"
}
trap cleanup EXIT
started=$SECONDS
step() { printf 'check-package: %s (%ds)\n' "$1" $((SECONDS - started)); }
fail() { printf 'check-package: FAILED: %s\n' "$1" >&2; exit 1; }
npm_install() { npm install --prefer-offline --no-audit --no-fund --loglevel=error "$@"; }

git clone -q "$repo" "$work/clone"
git clone -q "$repo" "$work/git-clone"
# The git install (npm installs the clone's devDependencies, then `prepare` builds) is the
# slow part: it runs in the background while the tarball is packed and tried.
mkdir "$work/git-app"
printf '{"name":"git-app","private":true,"type":"module"}\n' >"$work/git-app/package.json"
(cd "$work/git-app" && npm_install "git+file://$work/git-clone" >"$work/git-install.log" 2>&1) &
git_install=$!
# Packing needs the build tools (devDependencies): borrow the checkout's node_modules.
ln -s "$repo/node_modules" "$work/clone/node_modules"
(cd "$work/clone" && npm pack --silent --pack-destination "$work" >/dev/null)
tarball="$(ls "$work"/graphdb-*.tgz)"
size=$(wc -c <"$tarball")
step "packed $(basename "$tarball"): $size bytes, $(tar tzf "$tarball" | wc -l) files"
[ "$size" -lt 2000000 ] || fail "the tarball is $size bytes (limit 2 MB)"
if tar tzf "$tarball" | grep -E '^package/(test|bench|\.ci)/|^package/dist/(test|bench)/|\.map$|tsbuildinfo$|\.test\.' >&2; then
  fail 'the tarball holds files that must not ship (above)'
fi

mkdir "$work/app"
cd "$work/app"
printf '{"name":"app","private":true,"type":"module"}\n' >package.json
npm_install "$tarball"
step 'installed the tarball'
out="$(npx --no-install graphdb query 'RETURN 1 AS one' --json)"
grep -Eq '"rows":\[\{"one":"?1"?\}\]' <<<"$out" || fail "npx graphdb query printed: $out"
node --input-type=module -e "
  const { Database } = await import('graphdb');
  const { createMcpServer } = await import('graphdb/mcp');
  const db = await Database.openInMemory();
  const r = await db.query('RETURN 40 + 2 AS n');
  if (Number(r.records[0][0]) !== 42 || typeof createMcpServer !== 'function') { console.error(r.records); process.exit(1); }
  db.close();
" || fail 'importing graphdb as ESM'
# The package's own declarations are checked too (skipLibCheck off): none may name a Node type
# (Buffer, node:* modules), since the consumer has no @types/node (the package does not pull it).
[ ! -e node_modules/@types/node ] || fail 'installing the tarball brought @types/node along: the types check below would not mean anything'
node "$repo/scripts/check-declarations.mjs" "$work/app/node_modules/graphdb" || fail 'type-checking a TypeScript consumer and the package declarations (without @types/node)'
step 'ran npx graphdb query, imported graphdb and graphdb/mcp, type-checked a consumer'

wait "$git_install" || { cat "$work/git-install.log" >&2; fail "npm install git+file://"; }
cd "$work/git-app"
out="$(npx --no-install graphdb query 'RETURN 2 AS two' --json)"
grep -Eq '"rows":\[\{"two":"?2"?\}\]' <<<"$out" || fail "after a git install, npx graphdb query printed: $out"
step 'installed from git+file:// and ran the bin; the package checks passed'
