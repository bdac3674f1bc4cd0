#!/usr/bin/env bash
# The whole test suite on a fresh machine (the README's test command; CI runs exactly this):
# make the venv and install the project with its dev extra, install what the tests drive from
# Debian's packages when it is missing (redis-server, haproxy, chromium), make sure a Redis >= 7
# answers on 127.0.0.1:6379, start a local three-master Redis Cluster, then run pytest with any
# arguments given. On a machine without apt-get it names what to install and stops.
set -euo pipefail
cd "$(dirname "$0")/.."

# Playwright drives /usr/bin/chromium from Debian's packages; it must never fetch a browser.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1

python=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    "$python" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
# --no-compile: pip would compile every module of every package to bytecode up front (about half
# of the install's time, most of it for modules no test imports); Python compiles what is
# imported on first import instead, and keeps it in __pycache__ as pip would have.
.venv/bin/python -m pip install --quiet --no-compile -e '.[dev]'

redis_version() {
    .venv/bin/python - <<'PY' 2>/dev/null
import redis
try:
    info = redis.Redis(host="127.0.0.1", port=6379, socket_timeout=2).info("server")
    print(info["redis_version"])
except Exception:
    pass
PY
}

# What the tests drive besides Python: private redis-server processes (restarts, durability) and
# redis-cli for the cluster, HAProxy in front of two servers (tests/server/test_balancer.py), and
# Debian's chromium at /usr/bin/chromium for the browser tests (tests/web/).
missing=()
command -v redis-server >/dev/null 2>&1 && command -v redis-cli >/dev/null 2>&1 || missing+=(redis-server)
command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ] || missing+=(haproxy)
[ -x /usr/bin/chromium ] || missing+=(chromium)
if [ ${#missing[@]} -gt 0 ]; then
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "The tests need: ${missing[*]} (Redis >= 7 with redis-cli, HAProxy, and Chromium at" >&2
        echo "/usr/bin/chromium). This machine has no apt-get: install them with its own package" >&2
        echo "manager, then run this again." >&2
        exit 1
    fi
    sudo=()
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null 2>&1; then
            sudo=(sudo)
        else
            echo "The tests need Debian's packages ${missing[*]}; run as root or install them:" >&2
            echo "  apt-get install -y ${missing[*]}" >&2
            exit 1
        fi
    fi
    echo "Installing ${missing[*]} from Debian's packages"
    export DEBIAN_FRONTEND=noninteractive
    "${sudo[@]}" apt-get update -qq
    "${sudo[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi

version=$(redis_version)
if [ -z "$version" ]; then
    echo "Starting redis-server on 127.0.0.1:6379"
    redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no \
        --dir /tmp --logfile /tmp/tabletale-ci-redis.log
    for _ in $(seq 1 100); do
        version=$(redis_version)
        [ -n "$version" ] && break
        sleep 0.1  # polling for the condition above, at most 10 s
    done
fi
major=${version%%.*}
if [ -z "$version" ] || [ "$major" -lt 7 ]; then
    echo "Need Redis >= 7 on 127.0.0.1:6379, found '${version:-nothing}'." >&2
    exit 1
fi
echo "Redis $version answers on 127.0.0.1:6379"

# A Redis Cluster of three masters on free loopback ports, for the tests that run the store, the
# change feed, two servers and the soak on a cluster; shut down when this script ends.
if [ -z "${TABLETALE_TEST_REDIS_CLUSTER_URL:-}" ]; then
    cluster_dir=$(mktemp -d /tmp/tabletale-ci-cluster.XXXXXX)
    read -r -a ports <<<"$(.venv/bin/python - <<'PY'
import socket
probes = [socket.socket() for _ in range(6)]
for probe in probes:
    probe.bind(("127.0.0.1", 0))
print(" ".join(str(probe.getsockname()[1]) for probe in probes))
for probe in probes:
    probe.close()
PY
)"
    stop_cluster() {
        for port in "${ports[@]:0:3}"; do
            redis-cli -p "$port" shutdown nosave >/dev/null 2>&1 || true
        done
        rm -rf "$cluster_dir"
    }
    trap stop_cluster EXIT
    for n in 0 1 2; do
        port=${ports[$n]}
        redis-server --port "$port" --bind 127.0.0.1 --cluster-enabled yes \
            --cluster-port "${ports[$((n + 3))]}" --cluster-config-file "nodes-$port.conf" \
            --save "" --appendonly no --dir "$cluster_dir" --daemonize yes \
            --logfile "$cluster_dir/$port.log"
    done
    for port in "${ports[@]:0:3}"; do
        for _ in $(seq 1 100); do
            redis-cli -p "$port" ping >/dev/null 2>&1 && break
            sleep 0.1  # polling for the node to answer, at most 10 s
        done
    done
    redis-cli --cluster create "127.0.0.1:${ports[0]}" "127.0.0.1:${ports[1]}" \
        "127.0.0.1:${ports[2]}" --cluster-replicas 0 --cluster-yes >/dev/null
    for _ in $(seq 1 100); do
        settled=yes
        for port in "${ports[@]:0:3}"; do
            redis-cli -p "$port" cluster info | grep -q '^cluster_state:ok' || settled=no
        done
        [ "$settled" = yes ] && break
        sleep 0.1  # polling for every node to see the cluster as ok, at most 10 s
    done
    if [ "$settled" != yes ]; then
        echo "The Redis Cluster on ports ${ports[*]:0:3} did not settle." >&2
        exit 1
    fi
    export TABLETALE_TEST_REDIS_CLUSTER_URL="redis+cluster://127.0.0.1:${ports[0]}"
    echo "Redis Cluster answers at $TABLETALE_TEST_REDIS_CLUSTER_URL"
fi

# Two phases: every test not marked `serial` on TABLETALE_TEST_WORKERS pytest-xdist workers (2
# by default: one test computes while another waits on a server, a socket or a browser; on two
# cores more workers only add their own start-up and browsers), then the tests marked `serial`
# (they measure time or load, or need the whole machine) in one process with nothing beside them.
# TABLETALE_TEST_WORKERS=0 runs the first phase in one process too (for --pdb). The run fails if
# either phase fails; a phase the arguments leave empty (pytest's status 5) is no failure unless
# both are empty.
workers=${TABLETALE_TEST_WORKERS:-2}
first=0
.venv/bin/python -m pytest -n "$workers" --dist worksteal --phase parallel "$@" || first=$?
second=0
.venv/bin/python -m pytest --phase serial "$@" || second=$?
if [ "$first" -eq 5 ] && [ "$second" -eq 5 ]; then
    exit 5
fi
for status in "$first" "$second"; do
    if [ "$status" -ne 0 ] && [ "$status" -ne 5 ]; then
        exit "$status"
    fi
done
