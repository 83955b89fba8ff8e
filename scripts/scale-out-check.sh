#!/usr/bin/env bash
# The scale-out check (issue 27, docs/operations.md): the conformance suite through a round-robin
# balancer in front of two portal instances, each with its own data directory, sharing one
# PostgreSQL and an S3-compatible object store — as an operator runs them on separate machines.
#
#   DATABASE_URL=postgres://postgres@127.0.0.1:54329/portal_test npm run test:scale-out
#
# Starts a throwaway Ceph Object Gateway on a free loopback port (scripts/s3-test-server.sh; stopped
# on exit, whatever happens), creates a bucket, and runs `vitest run --project conformance` with
# PORTAL_SCALE_OUT=2 (test/support/scaleOut.ts). Each test file gets its own instances, database
# schema and object prefix. Extra arguments go to vitest (e.g. a test file).
#
# Needs: DATABASE_URL (a PostgreSQL the instances share), and Debian's ceph-mon, ceph-osd and
# radosgw (docs/object-store-testing.md). PORTAL_SCALE_OUT may name more instances than 2.
set -euo pipefail
cd "$(dirname "$0")/.."

die() { echo "scale-out-check: $*" >&2; exit 1; }

[ -n "${DATABASE_URL:-}" ] || die "DATABASE_URL must name a PostgreSQL (the instances share it), e.g. postgres://postgres@127.0.0.1:54329/portal_test"
[ -x /usr/bin/radosgw ] || die "the S3 test server needs Ceph: apt-get install -y --no-install-recommends ceph-mon ceph-osd radosgw"

# A free loopback port whose successor is free too (the Ceph monitor takes PORT+1).
free_port() {
  node -e '
    const net = require("node:net");
    const tryPort = (p) => new Promise((ok) => { const s = net.createServer(); s.once("error", () => ok(false)); s.listen(p, "127.0.0.1", () => s.close(() => ok(true))); });
    (async () => {
      for (let i = 0; i < 50; i++) {
        const p = 20000 + Math.floor(Math.random() * 30000);
        if ((await tryPort(p)) && (await tryPort(p + 1))) { console.log(p); return; }
      }
      process.exit(1);
    })();'
}

s3_dir=$(mktemp -d -t scale-out-s3.XXXXXX)
stop_s3() { scripts/s3-test-server.sh stop "$s3_dir" >/dev/null 2>&1 || rm -rf "$s3_dir"; }
trap stop_s3 EXIT
trap 'exit 130' INT TERM

started=$(date +%s)
port=$(free_port) || die "no free loopback port found"
echo "== S3 test server (Ceph Object Gateway) on 127.0.0.1:$port"
scripts/s3-test-server.sh start "$s3_dir" "$port" >/dev/null
set -a
# shellcheck disable=SC1091
. "$s3_dir/s3.env"
set +a
bucket="scale-out-$(date +%s)"
# The AWS SDK's notice that its 2027 releases need Node 22 would repeat in every worker and
# instance; the SDK's own switch turns it off.
export AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED=true
node --import tsx scripts/s3-bucket.ts create "$bucket"

export BLOB_STORE="s3://$bucket/conformance"
export PORTAL_SCALE_OUT="${PORTAL_SCALE_OUT:-2}"
echo "== conformance suite through a balancer in front of $PORTAL_SCALE_OUT instances (BLOB_STORE=$BLOB_STORE)"
status=0
# A portal start under load can take longer than the suite's 60 s hook timeout (several instances per file).
npx vitest run --project conformance --hookTimeout=120000 "$@" || status=$?
echo "== scale-out check: $([ $status -eq 0 ] && echo passed || echo FAILED) in $(($(date +%s) - started)) s"
exit $status
