#!/usr/bin/env bash
# make server-check: a real PostgreSQL and a real Redis for the tests marked `server`, then
# the command given (the tests), then both stopped and their directory removed, whatever
# the tests did. Never a mock: the public server's PostgreSQL and Redis stores are tested
# against the servers themselves (docs/server.md).
#
# The servers come from the distribution's packages (apt-get install -y redis-server
# postgresql, as root, when either is missing). Both run in a temporary directory on free
# loopback ports: nothing of the machine's own services is used or changed. PostgreSQL
# refuses to run as root, so as root it runs as the user `postgres` (the package makes it;
# made here if missing). The URLs go to the tests in BELA_TEST_POSTGRES and BELA_TEST_REDIS.
set -euo pipefail

say() { echo "server-check: $*"; }

pg_bin() {
  local dir
  dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [ -n "$dir" ] && [ -x "$dir/initdb" ]; then echo "$dir"; return; fi
  if command -v initdb >/dev/null 2>&1; then dirname "$(command -v initdb)"; fi
}

if ! command -v redis-server >/dev/null 2>&1 || [ -z "$(pg_bin)" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    say "installing redis-server and postgresql (Debian's packages)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server postgresql >/dev/null
  else
    say "needs redis-server and PostgreSQL's initdb: apt-get install redis-server postgresql"
    exit 1
  fi
fi
PG_BIN=$(pg_bin)

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

work=$(mktemp -d /tmp/bela-server-check.XXXXXX)
as_pg=()
if [ "$(id -u)" = 0 ]; then
  id postgres >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin postgres
  chown postgres "$work"
  as_pg=(runuser -u postgres --)
fi

cleanup() {
  local status=$?
  if [ -f "$work/pg/postmaster.pid" ]; then
    (cd "$work" && "${as_pg[@]}" "$PG_BIN/pg_ctl" -D "$work/pg" -m fast -w stop) >/dev/null 2>&1 \
      || true
  fi
  if [ -f "$work/redis.pid" ]; then
    kill "$(cat "$work/redis.pid")" 2>/dev/null || true
    for _ in $(seq 50); do [ -f "$work/redis.pid" ] || break; sleep 0.1; done
  fi
  if [ "$status" != 0 ]; then
    for log in "$work/pg.log" "$work/redis.log"; do
      [ -f "$log" ] && { say "the end of $log:"; tail -n 20 "$log"; }
    done
  fi
  rm -rf "$work"
  say "PostgreSQL and Redis stopped"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

started=$(date +%s.%N)
pg_port=$(free_port)
redis_port=$(free_port)
# from inside the temporary directory: the user postgres may not read the clone's folder
(cd "$work" && "${as_pg[@]}" "$PG_BIN/initdb" -D "$work/pg" -U bela --auth=trust -E UTF8 \
  --no-sync >/dev/null)
(cd "$work" && "${as_pg[@]}" "$PG_BIN/pg_ctl" -D "$work/pg" -l "$work/pg.log" -w -t 60 -o \
  "-p $pg_port -k $work -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null)
redis-server --port "$redis_port" --bind 127.0.0.1 --dir "$work" --save '' --appendonly no \
  --daemonize yes --pidfile "$work/redis.pid" --logfile "$work/redis.log"
for _ in $(seq 100); do
  redis-cli -p "$redis_port" ping >/dev/null 2>&1 && break
  sleep 0.1
done
redis-cli -p "$redis_port" ping >/dev/null
ready=$(date +%s.%N)
say "PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$pg_port," \
  "Redis $(redis-server --version | sed 's/.*v=\([^ ]*\).*/\1/') on 127.0.0.1:$redis_port," \
  "ready in $(python3 -c "print(f'{$ready - $started:.1f}')") s"

export BELA_TEST_POSTGRES="postgresql://bela@127.0.0.1:$pg_port/postgres"
export BELA_TEST_REDIS="redis://127.0.0.1:$redis_port/0"
# for benchmarks/bench_server.py, which kills this Redis and starts it again on its port
# (the same pid file, so that the cleanup above stops whichever runs at the end)
export BELA_TEST_REDIS_DIR="$work"
"$@"
