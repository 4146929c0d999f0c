# Sourced: starts a redis-server of our own on 127.0.0.1 on a free port (AOF on, `appendfsync
# $APPENDFSYNC`, default `always`) in a temp dir, stops it on exit, and sets REDIS_URL.
command -v redis-server >/dev/null || { echo "redis-server is missing: run scripts/setup" >&2; exit 1; }
redis_dir=$(mktemp -d)
redis_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
redis-server --port "$redis_port" --bind 127.0.0.1 --dir "$redis_dir" --save "" \
  --appendonly yes --appendfsync "${APPENDFSYNC:-always}" --daemonize no >"$redis_dir/server.log" 2>&1 &
redis_pid=$!
stop_redis() { kill "$redis_pid" 2>/dev/null || true; wait "$redis_pid" 2>/dev/null || true; rm -rf "$redis_dir"; }
trap stop_redis EXIT
for _ in $(seq 200); do
  redis-cli -p "$redis_port" ping 2>/dev/null | grep -q PONG && break
  kill -0 "$redis_pid" 2>/dev/null || { cat "$redis_dir/server.log" >&2; exit 1; }
  sleep 0.05
done
REDIS_URL="redis://127.0.0.1:$redis_port/0"
