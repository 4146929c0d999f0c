#!/usr/bin/env bash
# The Redis store's tests against a real server: a redis-server of our own on 127.0.0.1 on a
# free port, with AOF `appendfsync always` in a temp dir, stopped on exit.
set -euo pipefail
command -v redis-server >/dev/null || { echo "redis-server is missing: run scripts/setup" >&2; exit 1; }
dir=$(mktemp -d)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
redis-server --port "$port" --bind 127.0.0.1 --dir "$dir" --save "" \
  --appendonly yes --appendfsync always --daemonize no >"$dir/server.log" 2>&1 &
server=$!
stop() { kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$dir"; }
trap stop EXIT
for _ in $(seq 200); do
  redis-cli -p "$port" ping 2>/dev/null | grep -q PONG && break
  kill -0 "$server" 2>/dev/null || { cat "$dir/server.log" >&2; exit 1; }
  sleep 0.05
done
export SESSION_STATE_TEST_REDIS="redis://127.0.0.1:$port/0"
cargo test -p session-state-redis --locked
cargo test -p session-state-cli --locked --test redis_store
