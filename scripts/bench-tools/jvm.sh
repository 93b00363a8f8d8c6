# Sourced by the bench scripts: the server's JVM on this machine, found by the port it listens on.

# the pid of the JVM listening on port $1 (nothing when none listens here)
server_jvm() {
  ss -ltnpH "sport = :$1" 2>/dev/null | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2
}

# the seconds that JVM's JIT has spent compiling so far (jstat; nothing when it cannot be read)
jit_seconds() {
  local jvm
  jvm=$(server_jvm "$1")
  [[ -n $jvm ]] && command -v jstat > /dev/null || return 0
  jstat -compiler "$jvm" 2>/dev/null | awk 'NR == 2 {print $4}'
}
