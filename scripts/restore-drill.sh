#!/usr/bin/env bash
# The restore drill (docs/operations.md, record 333): a PostgreSQL dump of a database made by the app is
# restored into a scratch database and the app, started on it in production mode, must be ready and
# serve a known row. `.ci/run` runs it on a small database on every run.
#
#   scripts/restore-drill.sh                       make a small database, dump it, restore it, check it
#   DRILL_DUMP=backup.dump scripts/restore-drill.sh  restore that dump (pg_dump --format=custom) instead
#
# Settings: DRILL_ADMIN_URL (a database to run CREATE/DROP DATABASE from; default the local server's
# postgres), DRILL_PREFIX (scratch database names; default tunedrop_drill), DRILL_PORT (default 43990),
# DRILL_EMAIL / DRILL_PASSWORD (an account of DRILL_DUMP to sign in as; unset: readiness only), DRILL_NODE
# (the node binary that runs the app and the CLI, e.g. the image's Node version; default `node`).
set -euo pipefail
cd "$(dirname "$0")/.."

admin_url=${DRILL_ADMIN_URL:-postgres://postgres@127.0.0.1:5432/postgres}
prefix=${DRILL_PREFIX:-tunedrop_drill}
port=${DRILL_PORT:-43990}
work=$(mktemp -d)
source_db="${prefix}_source_$$"
restored_db="${prefix}_restored_$$"
url_of() { printf '%s' "${admin_url%/*}/$1"; }
server_pid=""
started=$(date +%s)
say() { printf 'restore drill (%ss): %s\n' "$(($(date +%s) - started))" "$*"; }

cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  for db in "$source_db" "$restored_db"; do
    psql "$admin_url" -qtAc "drop database if exists $db with (force)" >/dev/null 2>&1 || true
  done
  rm -rf "$work"
}
trap cleanup EXIT

# The app as the image runs it: the bundle, production mode, one secret for every process.
node apps/server/build.mjs --if-stale
run_node=${DRILL_NODE:-node}
say "the app runs on Node $("$run_node" --version)"
export NODE_ENV=production
export APP_SECRET=restore-drill-secret-0123456789abcdefghij
export LOG_LEVEL=warn
export HOST=127.0.0.1
export PORT=$port
export APP_URL="http://127.0.0.1:$port"
export DATA_DIR="$work/data"

email=${DRILL_EMAIL:-}
password=${DRILL_PASSWORD:-}
dump=${DRILL_DUMP:-}
if [ -z "$dump" ]; then
  psql "$admin_url" -qtAc "create database $source_db" >/dev/null
  say "migrating $source_db with TUNEDROP_ROLE=migrate"
  DATABASE_URL=$(url_of "$source_db") TUNEDROP_ROLE=migrate "$run_node" apps/server/dist/main.js
  email="drill-$$@example.com"
  password="drill-password-$$-0123"
  DATABASE_URL=$(url_of "$source_db") "$run_node" apps/server/dist/cli.js user:create --email "$email" \
    --password "$password" --name "Restore Drill" --artist "Restore Drill" --verified >/dev/null
  dump="$work/source.dump"
  pg_dump --format=custom --no-owner --file="$dump" "$(url_of "$source_db")"
  say "dumped $source_db: $(wc -c <"$dump") bytes"
fi

psql "$admin_url" -qtAc "create database $restored_db" >/dev/null
pg_restore --no-owner --exit-on-error --dbname="$(url_of "$restored_db")" "$dump"
say "restored into $restored_db"

DATABASE_URL=$(url_of "$restored_db") "$run_node" apps/server/dist/main.js >"$work/server.log" 2>&1 &
server_pid=$!
ready=""
for _ in $(seq 1 300); do
  if ! kill -0 "$server_pid" 2>/dev/null; then break; fi
  if curl -fsS "$APP_URL/api/health/ready" >"$work/ready.json" 2>/dev/null; then ready=1; break; fi
  sleep 0.2
done
if [ -z "$ready" ]; then
  say "FAILED: the app on the restored database never became ready"
  cat "$work/server.log" >&2
  exit 1
fi
say "ready: $(cat "$work/ready.json")"

if [ -n "$email" ]; then
  curl -fsS -c "$work/cookies" -H "Origin: $APP_URL" -H 'Content-Type: application/json' \
    -d "{\"email\":\"$email\",\"password\":\"$password\"}" "$APP_URL/api/auth/sign-in/email" >/dev/null
  curl -fsS -b "$work/cookies" "$APP_URL/api/me" >"$work/me.json"
  if ! grep -q "\"email\":\"$email\"" "$work/me.json"; then
    say "FAILED: /api/me on the restored database did not return $email"
    cat "$work/me.json" >&2
    exit 1
  fi
  say "signed in as $email on the restored database"
fi
say "passed"
