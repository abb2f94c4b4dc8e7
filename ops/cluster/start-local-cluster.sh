#!/usr/bin/env bash
# Start a local Redis Cluster of 3 masters and 3 replicas (redis-server from Debian's package),
# for trying Heirloom's cluster mode on one machine. Stop it with: ops/cluster/start-local-cluster.sh stop
#
#   ops/cluster/start-local-cluster.sh [start|stop]   (PORT_BASE=7000 DIR=./heirloom-cluster)
#
# Each node gets its own folder under $DIR, appendonly yes / appendfsync everysec, node timeout
# 2 s (a dead master's replica is promoted within ~5 s). Then run the server with:
#   REDIS_CLUSTER=1 REDIS_URL=redis://127.0.0.1:7000,redis://127.0.0.1:7001 \
#   HEIRLOOM_LOG_PARTITIONS=1 heirloom serve
set -euo pipefail
PORT_BASE=${PORT_BASE:-7000}
DIR=${DIR:-./heirloom-cluster}
REDIS_SERVER=${REDIS_SERVER:-$(command -v redis-server || echo /usr/bin/redis-server)}
REDIS_CLI=${REDIS_CLI:-$(command -v redis-cli || echo /usr/bin/redis-cli)}
PORTS=$(seq "$PORT_BASE" $((PORT_BASE + 5)))

if [ "${1:-start}" = stop ]; then
  for port in $PORTS; do "$REDIS_CLI" -p "$port" shutdown nosave 2>/dev/null || true; done
  echo "stopped (data left in $DIR)"
  exit 0
fi

for port in $PORTS; do
  mkdir -p "$DIR/$port"
  "$REDIS_SERVER" --port "$port" --bind 127.0.0.1 --cluster-enabled yes \
    --cluster-config-file nodes.conf --cluster-node-timeout 2000 \
    --appendonly yes --appendfsync everysec --dir "$DIR/$port" \
    --logfile "$DIR/$port/redis.log" --daemonize yes
done
for port in $PORTS; do
  until "$REDIS_CLI" -p "$port" ping >/dev/null 2>&1; do sleep 0.1; done
done
if ! "$REDIS_CLI" -p "$PORT_BASE" cluster info | grep -q 'cluster_state:ok'; then
  # shellcheck disable=SC2046
  "$REDIS_CLI" --cluster create $(for p in $PORTS; do echo "127.0.0.1:$p"; done) \
    --cluster-replicas 1 --cluster-yes
fi
until "$REDIS_CLI" -p "$PORT_BASE" cluster info | grep -q 'cluster_state:ok'; do sleep 0.2; done
echo "cluster up: REDIS_CLUSTER=1 REDIS_URL=$(for p in $PORTS; do printf 'redis://127.0.0.1:%s,' "$p"; done | sed 's/,$//')"
