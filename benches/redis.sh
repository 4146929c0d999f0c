#!/usr/bin/env bash
# The Redis store's benches, in one run on one local server: starts a redis-server of its own on
# 127.0.0.1 on a free port (AOF on, `appendfsync everysec`: no fsync per write, as the
# filesystem store's `Durability::Atomic` it is compared with; `APPENDFSYNC=always` to change
# it), runs the criterion benches (stores/redis/benches/redis.rs) and the Python bench against
# the OpenAI Agents SDK's RedisSession (benches/python/bench_redis.py), then stops the server.
#
#   bash benches/redis.sh                      # everything
#   bash benches/redis.sh -- <criterion args>  # e.g. -- redis_bytes --measurement-time 3
#   SKIP_PYTHON=1 bash benches/redis.sh        # the Rust benches only
#
# The Python bench needs the project's .venv (scripts/setup) with the package installed
# (`pip install ./bindings-python`); it installs `openai-agents[redis]` there when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
[ "${1:-}" = "--" ] && shift
APPENDFSYNC=${APPENDFSYNC:-everysec}
source scripts/redis-server.sh
url=$REDIS_URL
echo "redis-server $(redis-server --version | sed 's/.*v=\([^ ]*\).*/\1/') on $url, appendfsync ${APPENDFSYNC:-everysec}; load: $(cut -d' ' -f1-3 /proc/loadavg)"
SESSION_STATE_BENCH_REDIS="$url" cargo bench -p session-state-redis --bench redis -- "$@"
if [ -z "${SKIP_PYTHON:-}" ]; then
  py=.venv/bin/python
  [ -x "$py" ] || { echo "no .venv: run scripts/setup first" >&2; exit 1; }
  "$py" -c 'import agents.extensions.memory.redis_session' 2>/dev/null \
    || "$py" -m pip install --quiet --disable-pip-version-check "openai-agents[redis]"
  "$py" benches/python/bench_redis.py "$url"
fi
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
