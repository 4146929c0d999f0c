#!/usr/bin/env bash
# The Redis store's tests against a real server of our own (AOF `appendfsync always`).
set -euo pipefail
source "$(dirname "$0")/../redis-server.sh"
export SESSION_STATE_TEST_REDIS="$REDIS_URL"
cargo test -p session-state-redis --locked
cargo test -p session-state-cli --locked --test redis_store
