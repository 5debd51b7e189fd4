#!/usr/bin/env bash
# Starts a single-node Ceph (one monitor, one memstore OSD) and one RADOS gateway on loopback,
# without systemd, cephx or a manager. Usage: start-rgw.sh DIR MON_PORT S3_PORT ACCESS SECRET
# Prints "ready" when the S3 endpoint answers; the daemons' pids are in DIR/pids (monitor, OSD,
# gateway, in that order). RGW_MEMSTORE_BYTES caps what the in-memory OSD holds (default 2 GiB;
# the objects live in RAM, so this is also about what it may use). RGW_BEAST_OPTS are appended to
# the beast frontend's options (e.g. tcp_nodelay=1).
# Facts this relies on: ../shared/reference/s3-servers.md.
set -euo pipefail
dir=$1 mon_port=$2 s3_port=$3 access=$4 secret=$5
memstore_bytes=${RGW_MEMSTORE_BYTES:-2147483648}
beast_opts=${RGW_BEAST_OPTS:-}
[[ $memstore_bytes =~ ^[0-9]+$ ]] || { echo "RGW_MEMSTORE_BYTES must be a number of bytes" >&2; exit 2; }
mkdir -p "$dir"/{mon,osd,run,log}
export CEPH_CONF=$dir/ceph.conf
cat > "$CEPH_CONF" <<CONF
[global]
fsid = $(cat /proc/sys/kernel/random/uuid)
mon host = v2:127.0.0.1:$mon_port
public addr = 127.0.0.1
cluster addr = 127.0.0.1
auth cluster required = none
auth service required = none
auth client required = none
ms mon client mode = crc secure
run dir = $dir/run
log file = $dir/log/\$name.log
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd crush chooseleaf type = 0
mon max pg per osd = 1000
mon allow pool size one = true
mon data avail crit = 1
paxos propose interval = 0.05
paxos min wait = 0.01
osd objectstore = memstore
memstore device bytes = $memstore_bytes
[mon.a]
mon data = $dir/mon
public addr = v2:127.0.0.1:$mon_port
[osd.0]
osd data = $dir/osd
[client.rgw.a]
rgw frontends = beast endpoint=127.0.0.1:$s3_port${beast_opts:+ $beast_opts}
rgw data = $dir/rgw
CONF

wait_for() { # wait_for SECONDS DESCRIPTION COMMAND...
  local deadline=$((SECONDS + $1)) what=$2; shift 2
  until "$@" >/dev/null 2>&1; do
    if ((SECONDS > deadline)); then echo "timed out waiting for $what" >&2; exit 1; fi
    sleep 0.2
  done
}

ceph-mon --id a --mkfs --keyring /dev/null
ceph-mon --id a -f >"$dir/log/mon.out" 2>&1 &
echo $! >>"$dir/pids"
wait_for 60 "the monitor" ceph --connect-timeout 5 -s
ceph osd create >/dev/null
ceph osd crush add osd.0 1 root=default host="$(hostname)" >/dev/null 2>&1
ceph-osd --id 0 --mkfs >"$dir/log/osd-mkfs.out" 2>&1
ceph-osd --id 0 -f >"$dir/log/osd.out" 2>&1 &
echo $! >>"$dir/pids"
wait_for 60 "the OSD" bash -c 'ceph osd stat | grep -q "1 up"'
radosgw-admin user create --uid=stele --display-name=stele \
  --access-key="$access" --secret="$secret" >/dev/null
radosgw --id rgw.a -f >"$dir/log/rgw.out" 2>&1 &
echo $! >>"$dir/pids"
wait_for 60 "the gateway" bash -c "exec 3<>/dev/tcp/127.0.0.1/$s3_port"
echo ready
