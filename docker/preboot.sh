#!/bin/sh
# Writes the pre-boot commands: the shared settings, Payara Micro's own, and the resource adapter pointed at
# ATRIUM_BROKER_URL's broker when it is not the embedded one (broker-adapter). Run at every start (cgroup-leaf.sh),
# since the broker's address is known only when the container starts.
set -e
cat /opt/atrium/atrium.asadmin /opt/atrium/micro-envelope.asadmin > /opt/atrium/preboot.asadmin
broker-adapter >> /opt/atrium/preboot.asadmin
