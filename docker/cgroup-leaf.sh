#!/bin/sh
# Runs the server from a leaf cgroup of its own. Under cgroup v2 in a private cgroup namespace (Docker's and
# Kubernetes' default) the server starts in the namespace's root group, and a group that holds processes cannot hand
# its controllers (memory, cpu, pids) to child groups ("no internal processes"): the sandbox could create no limited
# group for a run and would refuse untrusted agents. Moving every process of the root group into atrium-server first
# lets the sandbox's atrium-sandbox group sit beside it with the controllers enabled. Elsewhere (cgroup v1, a
# read-only cgroup file system, not at the namespace's root) it changes nothing: the sandbox then reports what it
# cannot enforce in /health.
cg=/sys/fs/cgroup
if [ -f "$cg/cgroup.controllers" ] && [ -w "$cg/cgroup.procs" ] && [ "$(cat /proc/self/cgroup)" = "0::/" ]; then
    mkdir -p "$cg/atrium-server"
    for pid in $(cat "$cg/cgroup.procs"); do
        echo "$pid" > "$cg/atrium-server/cgroup.procs" 2>/dev/null || true
    done
fi
# the pre-boot commands, which name the broker the container was given
preboot.sh
exec "$@"
