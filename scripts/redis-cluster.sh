#!/usr/bin/env bash
# A local Redis Cluster for development and tests: 3 masters and 3 replicas on loopback.
#   scripts/redis-cluster.sh start [DIR] [BASE_PORT]   starts nodes on BASE_PORT..BASE_PORT+5
#   scripts/redis-cluster.sh stop  [DIR]               stops the nodes started in DIR
# DIR (default /tmp/agentcore-redis-cluster) holds each node's data, log and pid file; the
# cluster bus uses BASE_PORT+10000.. (default base port 7100). Nothing is saved to disk
# (--save "" --appendonly no). `stop` kills only the pids recorded in DIR.
set -euo pipefail
command=${1:-}
dir=${2:-/tmp/agentcore-redis-cluster}
base=${3:-7100}

stop() {
  for pidfile in "$dir"/node-*/redis.pid; do
    [ -f "$pidfile" ] || continue
    pid=$(cat "$pidfile")
    kill "$pid" 2>/dev/null || true
    rm -f "$pidfile"
  done
}

case "$command" in
  start)
    mkdir -p "$dir"
    ports=()
    for i in 0 1 2 3 4 5; do
      port=$((base + i))
      ports+=("127.0.0.1:$port")
      node="$dir/node-$port"
      if [ -f "$node/redis.pid" ] && kill -0 "$(cat "$node/redis.pid")" 2>/dev/null; then
        echo "a node started from $dir still runs on port $port: run '$0 stop $dir' first" >&2
        exit 1
      fi
      mkdir -p "$node"
      rm -f "$node/nodes.conf" "$node/redis.pid" # a fresh cluster every time
      redis-server --port "$port" --bind 127.0.0.1 --dir "$node" \
        --cluster-enabled yes --cluster-config-file nodes.conf --cluster-node-timeout 2000 \
        --cluster-replica-validity-factor 0 \
        --save "" --appendonly no --daemonize yes --pidfile "$node/redis.pid" --logfile "$node/redis.log"
    done
    for port in $(seq "$base" $((base + 5))); do
      for _ in $(seq 1 50); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.1; done
    done
    redis-cli --cluster create "${ports[@]}" --cluster-replicas 1 --cluster-yes >"$dir/create.log" 2>&1 || {
      cat "$dir/create.log" >&2
      stop
      exit 1
    }
    for _ in $(seq 1 100); do
      ok=1
      for port in $(seq "$base" $((base + 5))); do
        redis-cli -p "$port" cluster info 2>/dev/null | grep -q '^cluster_state:ok' || ok=0
        # a replica counts once it has synced with its master (else it could not take over)
        if redis-cli -p "$port" info replication 2>/dev/null | grep -q '^role:slave'; then
          redis-cli -p "$port" info replication | grep -q '^master_link_status:up' || ok=0
        fi
      done
      if [ $ok = 1 ]; then echo "redis cluster ready on 127.0.0.1:$base-$((base + 5)) ($dir)"; exit 0; fi
      sleep 0.2
    done
    echo "redis cluster did not reach cluster_state:ok" >&2
    stop
    exit 1
    ;;
  stop)
    stop
    ;;
  *)
    echo "usage: $0 start|stop [DIR] [BASE_PORT]" >&2
    exit 2
    ;;
esac
