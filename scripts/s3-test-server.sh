#!/usr/bin/env bash
# A throwaway S3-compatible server for tests: Ceph Object Gateway (radosgw) on a one-node Ceph
# cluster (one monitor, one OSD) made from scratch under a directory, listening on loopback only.
#
#   scripts/s3-test-server.sh start DIR PORT   # prints the env file's lines; writes DIR/s3.env
#   scripts/s3-test-server.sh stop DIR         # ends what `start` began, removes DIR
#   scripts/s3-test-server.sh status DIR       # exit 0 when the gateway answers
#   scripts/s3-test-server.sh gateway-kill DIR   # fault tests: the gateway dies (SIGKILL), the
#   scripts/s3-test-server.sh gateway-start DIR  # cluster stays; gateway-start brings it back
#
# Needs Debian's ceph-mon, ceph-osd and radosgw (see docs/object-store-testing.md):
#   apt-get install -y --no-install-recommends ceph-mon ceph-osd radosgw
#
# Environment (all optional):
#   S3_TEST_MON_PORT     the monitor's loopback port (default PORT+1)
#   S3_TEST_OSD_STORE    memstore (default: objects in the OSD's memory) or bluestore (a sparse file)
#   S3_TEST_STORE_BYTES  memstore's or bluestore's size (default 4 GiB; memstore allocates as used)
#   S3_TEST_ACCESS_KEY, S3_TEST_SECRET_KEY   the S3 user's keys (default: random)
#   S3_TEST_TIMEOUT      seconds to wait for each daemon (default 60)
#   S3_TEST_CEPH_CONF    extra ceph.conf lines, appended after the sections below
#
# Every daemon binds 127.0.0.1 only; there is no authentication inside the cluster (auth none),
# the gateway checks S3 signatures with the user's keys as usual.
set -euo pipefail

MARK=.s3-test-server
die() { echo "s3-test-server: $*" >&2; exit 1; }

usage() { die "usage: $0 start DIR PORT | stop DIR | status DIR | gateway-kill DIR | gateway-start DIR"; }

abs_dir() {
  [ -n "${1:-}" ] || usage
  case "$1" in /) die "refusing to use /";; esac
  mkdir -p "$1" && (cd "$1" && pwd)
}

# Ends the daemons this script started (their pids in DIR/run/*.spid): SIGTERM, half a second for a
# clean exit (a throwaway cluster needs no more), then SIGKILL; returns when all are gone.
stop_daemons() {
  local dir=$1 f pid pids=() left
  [ -d "$dir/run" ] || return 0
  for f in "$dir"/run/*.spid; do
    [ -f "$f" ] || continue
    pid=$(cat "$f" 2>/dev/null || true)
    [[ "$pid" =~ ^[0-9]+$ ]] && pids+=("$pid")
  done
  [ ${#pids[@]} -gt 0 ] || return 0
  kill -TERM "${pids[@]}" 2>/dev/null || true
  for i in $(seq 1 60); do
    left=()
    for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && left+=("$pid"); done
    [ ${#left[@]} -gt 0 ] || break
    [ "$i" -ne 5 ] || kill -KILL "${left[@]}" 2>/dev/null || true
    sleep 0.1
  done
  rm -f "$dir"/run/*.spid
}

answers() { # PORT → 0 when a Ceph Object Gateway answers an anonymous ListBuckets there
  local out
  out=$(curl -s -i -m 2 "http://127.0.0.1:$1/" 2>/dev/null | tr -d '\r') || return 1
  case "$out" in "HTTP/1.1 200"*x-amz-request-id:*ListAllMyBucketsResult*) return 0 ;; esac
  return 1
}

listening() { # PORT → 0 when something accepts TCP connections on 127.0.0.1:PORT
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

wait_for() { # DESCRIPTION DAEMON COMMAND... → retries COMMAND every 0.1 s while DAEMON (a name
  # under DIR/run) lives, for S3_TEST_TIMEOUT seconds at most
  local what=$1 name=$2; shift 2
  local deadline=$(( $(date +%s) + ${S3_TEST_TIMEOUT:-60} ))
  until "$@" >/dev/null 2>&1; do
    kill -0 "$(cat "$DIR/run/$name.spid" 2>/dev/null || echo 0)" 2>/dev/null ||
      die "$name exited before $what answered (see $DIR/log/$name.log, $DIR/log/$name.out)"
    [ "$(date +%s)" -lt "$deadline" ] || die "timed out waiting for $what (logs in $DIR/log)"
    sleep 0.1
  done
}

random_key() { # LENGTH ALPHABET
  local s=''
  while [ ${#s} -lt "$1" ]; do s+=$(head -c 256 /dev/urandom | tr -dc "$2"); done
  printf '%s' "${s:0:$1}"
}

# NAME COMMAND... → runs a daemon in the foreground mode, in the background, in its own session,
# its pid in DIR/run/NAME.spid (not NAME.pid, which the daemon writes and removes itself).
daemon() {
  local name=$1; shift
  setsid "$@" </dev/null >>"$DIR/log/$name.out" 2>&1 &
  echo $! > "$DIR/run/$name.spid"
}

cmd_stop() {
  local dir
  [ -n "${1:-}" ] || usage
  [ -d "$1" ] || return 0
  dir=$(cd "$1" && pwd)
  [ -f "$dir/$MARK" ] || die "$dir was not made by this script (no $MARK); not touching it"
  stop_daemons "$dir"
  rm -rf "$dir"
}

cmd_status() {
  local dir
  [ -n "${1:-}" ] && [ -f "$1/s3.env" ] || return 1
  dir=$(cd "$1" && pwd)
  # shellcheck disable=SC1091
  (. "$dir/s3.env" && answers "${S3_ENDPOINT##*:}")
}

cmd_start() {
  [ $# -eq 2 ] || usage
  local port=$2
  [[ "$port" =~ ^[0-9]+$ ]] && [ "$port" -gt 0 ] && [ "$port" -lt 65535 ] || die "bad port: $port"
  for b in ceph-mon ceph-osd radosgw radosgw-admin monmaptool ceph; do
    command -v "$b" >/dev/null || die "$b not found: apt-get install -y --no-install-recommends ceph-mon ceph-osd radosgw"
  done

  # Already running here and answering: print what it has and stop.
  if [ -f "$1/$MARK" ] && cmd_status "$1"; then cat "$1/s3.env"; return 0; fi
  # Left over from an earlier run (killed, crashed): clear it first.
  if [ -d "$1" ] && [ -f "$1/$MARK" ]; then cmd_stop "$1"; fi
  if [ -d "$1" ] && [ -n "$(ls -A "$1")" ]; then die "$1 exists and is not empty"; fi

  local mon_port=${S3_TEST_MON_PORT:-$((port + 1))}
  for p in "$port" "$mon_port"; do
    ! listening "$p" || die "127.0.0.1:$p is in use"
  done

  DIR=$(abs_dir "$1")
  touch "$DIR/$MARK"
  # a start that fails half-way ends what it began (the directory stays, for its logs)
  trap 'rc=$?; if [ $rc != 0 ]; then stop_daemons "$DIR"; echo "s3-test-server: start failed; logs in $DIR/log" >&2; fi' EXIT
  local store=${S3_TEST_OSD_STORE:-memstore}
  local bytes=${S3_TEST_STORE_BYTES:-4294967296}
  local fsid; fsid=$(uuidgen)
  local t0; t0=$(date +%s.%N)
  mkdir -p "$DIR"/{run,log,mon/a,osd/0,rgw}
  export CEPH_CONF="$DIR/ceph.conf"

  cat > "$CEPH_CONF" <<EOF
[global]
fsid = $fsid
mon host = v2:127.0.0.1:$mon_port
public addr = 127.0.0.1
cluster addr = 127.0.0.1
ms bind ipv6 = false
ms bind msgr1 = false
auth cluster required = none
auth service required = none
auth client required = none
# without authentication there is no "secure" connection mode; a client (the gateway) asks for it
ms mon client mode = crc
ms client mode = crc
run dir = $DIR/run
admin socket = $DIR/run/\$name.asok
pid file = $DIR/run/\$name.pid
log file = $DIR/log/\$name.log
log to stderr = false
err to stderr = true
mon cluster log file = $DIR/log/cluster.log
keyring = $DIR/keyring
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 1
osd pool default pgp num = 1
osd pool default pg autoscale mode = off
osd crush chooseleaf type = 0
mon allow pool size one = true
mon allow pool delete = true
mon max pg per osd = 1000
mon data avail warn = 2
mon data avail crit = 1
# one monitor: commit map changes (each pool the gateway creates) without batching delays
paxos propose interval = 0.01
paxos min wait = 0.01

[mon]
mon data = $DIR/mon/\$id

[osd]
osd data = $DIR/osd/\$id
osd objectstore = $store
memstore device bytes = $bytes
bluestore block path = $DIR/osd/\$id.block
bluestore block create = true
bluestore block size = $bytes
bluestore fsck on mkfs = false
bluestore fsck on mount = false
bluestore cache autotune = false
bluestore cache size = 268435456
osd memory target = 1073741824
osd op num shards = 1
osd op num threads per shard = 2

[client.rgw.a]
rgw frontends = beast endpoint=127.0.0.1:$port
rgw data = $DIR/rgw
rgw enable usage log = false
rgw lc debug interval = 10
# deleted objects' data goes after seconds, not hours (memstore keeps it in memory until then)
rgw gc obj min wait = 5
rgw gc processor period = 10
rgw init timeout = ${S3_TEST_TIMEOUT:-60}
EOF
  [ -z "${S3_TEST_CEPH_CONF:-}" ] || printf '%s\n' "$S3_TEST_CEPH_CONF" >> "$CEPH_CONF"

  # Monitor
  monmaptool --create --fsid "$fsid" --addv a "[v2:127.0.0.1:$mon_port]" "$DIR/monmap" >/dev/null
  ceph-mon --mkfs -i a --monmap "$DIR/monmap" >"$DIR/log/mkfs-mon.log" 2>&1
  daemon mon.a ceph-mon -f -i a
  wait_for "the monitor on 127.0.0.1:$mon_port" mon.a listening "$mon_port"

  # OSD
  local osd_uuid; osd_uuid=$(uuidgen)
  local id; id=$(ceph osd new "$osd_uuid")
  [ "$id" = 0 ] || die "unexpected OSD id $id"
  ceph-osd -i 0 --mkfs --osd-uuid "$osd_uuid" >"$DIR/log/mkfs-osd.log" 2>&1
  daemon osd.0 ceph-osd -f -i 0

  # The gateway waits for the OSD itself (it creates its pools when the OSD is up).
  # Gateway
  daemon client.rgw.a radosgw -f -n client.rgw.a
  wait_for "the gateway on 127.0.0.1:$port" client.rgw.a answers "$port"

  local ak=${S3_TEST_ACCESS_KEY:-$(random_key 20 'A-Z0-9')}
  local sk=${S3_TEST_SECRET_KEY:-$(random_key 40 'A-Za-z0-9')}
  radosgw-admin user create --uid=test --display-name="test user" \
    --access-key="$ak" --secret-key="$sk" >"$DIR/log/user.json"

  cat > "$DIR/s3.env" <<EOF
S3_ENDPOINT=http://127.0.0.1:$port
AWS_ACCESS_KEY_ID=$ak
AWS_SECRET_ACCESS_KEY=$sk
AWS_REGION=us-east-1
S3_FORCE_PATH_STYLE=true
EOF
  local t1; t1=$(date +%s.%N)
  echo "s3-test-server: Ceph Object Gateway ($store) on 127.0.0.1:$port in $(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.1f", b-a}') s" >&2
  cat "$DIR/s3.env"
}

cmd_gateway_kill() {
  [ -n "${1:-}" ] && [ -f "$1/$MARK" ] || usage
  local f="$1/run/client.rgw.a.spid" pid
  [ -f "$f" ] || return 0
  pid=$(cat "$f"); kill -KILL "$pid" 2>/dev/null || true
  while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done
  # Only if it still names the gateway just killed (a gateway-start may have begun meanwhile).
  [ "$(cat "$f" 2>/dev/null)" != "$pid" ] || rm -f "$f"
}

cmd_gateway_start() {
  [ -n "${1:-}" ] && [ -f "$1/$MARK" ] && [ -f "$1/s3.env" ] || usage
  DIR=$(cd "$1" && pwd)
  export CEPH_CONF="$DIR/ceph.conf"
  local port; port=$(sed -n 's/^S3_ENDPOINT=.*:\([0-9]*\)$/\1/p' "$DIR/s3.env")
  if answers "$port"; then return 0; fi
  rm -f "$DIR/run/client.rgw.a.asok"
  daemon client.rgw.a radosgw -f -n client.rgw.a
  wait_for "the gateway on 127.0.0.1:$port" client.rgw.a answers "$port"
}

case "${1:-}" in
  start) shift; cmd_start "$@" ;;
  stop) shift; cmd_stop "$@" ;;
  status) shift; cmd_status "$@" ;;
  gateway-kill) shift; cmd_gateway_kill "$@" ;;
  gateway-start) shift; cmd_gateway_start "$@" ;;
  *) usage ;;
esac
