package dev.atrium.sandbox;

import static dev.atrium.sandbox.BubblewrapExecutor.BWRAP;
import static dev.atrium.sandbox.BubblewrapExecutor.PRLIMIT;
import static dev.atrium.sandbox.BubblewrapExecutor.SANDBOX_ID;
import static dev.atrium.sandbox.BubblewrapExecutor.SETPRIV;
import static dev.atrium.sandbox.BubblewrapExecutor.STRACE;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The command line of a run (launcher, audit, setpriv, bwrap) and bwrap's options, which it reads from fd 5. */
final class BwrapArguments {

    /**
     * Joins the cgroups before anything else runs, then hands the generated passwd/group over as fds 3 and 4 and
     * bwrap's own options as fd 5, so that no host path shows in the sandbox's {@code /proc/1/cmdline}.
     */
    private static final String LAUNCHER = """
            for f in $ATRIUM_CGROUP_PROCS; do
              echo $$ > "$f" || { echo "atrium-sandbox: cannot join the cgroup $f" >&2; exit 125; }
            done
            options=$ATRIUM_BWRAP_OPTIONS
            unset ATRIUM_CGROUP_PROCS ATRIUM_BWRAP_OPTIONS
            exec "$@" 3<<'PASSWD' 4<<'GROUP' 5<"$options"
            nobody:x:65534:65534:nobody:/tmp:/usr/sbin/nologin
            PASSWD
            nobody:x:65534:
            GROUP
            """;

    /** Whether the machine's cgroups hold the process count; without, prlimit does. */
    private final boolean pidsController;
    private final List<String> hostMounts = hostMounts();

    BwrapArguments(boolean pidsController) {
        this.pidsController = pidsController;
    }

    /** Network granted, or the invoke gateway to reach: the run goes out only through the egress proxy. */
    static boolean proxied(RunSpec spec) {
        return spec.network().allowed() || spec.network().gateway();
    }

    /** The launcher, the optional audit, the drop to nobody and bwrap (its options on fd 5), then the command. */
    List<String> command(RunSpec spec, Path audit, boolean egress) {
        List<String> c = new ArrayList<>(List.of("/bin/sh", "-c", LAUNCHER, "atrium-sandbox"));
        if (spec.auditNetwork()) {
            // strace runs outside the sandbox and writes where the agent cannot reach
            c.addAll(List.of(STRACE, "-f", "-qq", "--seccomp-bpf", "-e", "trace=network", "-o", audit.toString()));
        }
        c.addAll(List.of(SETPRIV, "--reuid=" + SANDBOX_ID, "--regid=" + SANDBOX_ID, "--clear-groups",
                "--inh-caps=-all", "--bounding-set=-all", "--"));
        c.addAll(List.of(BWRAP, "--args", "5", "--"));
        if (egress) {
            c.addAll(List.of("/bin/sh", "-c", EgressProxy.WRAPPER, "agent"));
        }
        if (!pidsController && !spec.rootFileSystem()) {
            // no pids controller: the process count is held by RLIMIT_NPROC, counted inside the fresh user namespace
            c.addAll(List.of(PRLIMIT, "--nproc=" + spec.limits().maxProcesses()));
        }
        c.addAll(spec.command());
        return c;
    }

    static byte[] nulSeparated(List<String> args) {
        var out = new ByteArrayOutputStream();
        for (String a : args) {
            out.writeBytes(a.getBytes(StandardCharsets.UTF_8));
            out.write(0);
        }
        return out.toByteArray();
    }

    /** bwrap's namespaces, mounts and environment, read by bwrap from fd 5 rather than its command line. */
    List<String> bwrapOptions(RunSpec spec, Path egress) {
        List<String> c = new ArrayList<>();
        c.addAll(List.of("--unshare-user", "--disable-userns", "--uid", "" + SANDBOX_ID, "--gid", "" + SANDBOX_ID,
                "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup"));
        if (proxied(spec) && egress == null) {
            throw new IllegalArgumentException("Network is reached only through the egress proxy");
        }
        // the run's own empty network namespace, whatever its trust and network: the proxy is its only way out
        c.add("--unshare-net");
        c.addAll(List.of("--die-with-parent", "--new-session", "--cap-drop", "ALL", "--hostname", "agent"));
        if (spec.rootFileSystem()) {
            // the image's root, made by ImageArchive with every mount point below in place
            c.addAll(List.of("--ro-bind", spec.bundleDir().toAbsolutePath().toString(), "/"));
        } else {
            c.addAll(hostMounts);
        }
        c.addAll(List.of("--ro-bind-data", "3", "/etc/passwd", "--ro-bind-data", "4", "/etc/group"));
        c.addAll(List.of("--proc", "/proc", "--dev", "/dev"));
        c.addAll(List.of("--size", "" + spec.limits().tmpBytes(), "--perms", "1777", "--tmpfs", "/tmp"));
        if (spec.scratch()) {
            // a bounded tmpfs rather than a host directory: the agent cannot fill the host's disk
            c.addAll(List.of("--size", "" + spec.limits().tmpBytes(), "--perms", "0700", "--tmpfs", "/scratch"));
        }
        if (!spec.rootFileSystem()) {
            c.addAll(List.of("--ro-bind", spec.bundleDir().toAbsolutePath().toString(), "/agent"));
        }
        if (egress != null) {
            c.addAll(List.of("--ro-bind", egress.toString(), "/run/atrium"));
        }
        c.addAll(List.of("--remount-ro", "/", "--chdir", spec.workingDir(), "--clearenv"));
        for (Map.Entry<String, String> e : spec.environment().entrySet()) {
            if (e.getKey().isEmpty() || e.getKey().contains("=") || e.getKey().indexOf('\0') >= 0
                    || e.getValue().indexOf('\0') >= 0) {
                throw new IllegalArgumentException("An environment variable that cannot be set: " + e.getKey());
            }
            c.addAll(List.of("--setenv", e.getKey(), e.getValue()));
        }
        for (var d : Map.of("PATH", "/usr/local/bin:/usr/bin:/bin", "HOME", "/tmp", "LANG", "C.UTF-8").entrySet()) {
            // an image's own Env (passed in the environment) keeps its PATH; a bundle always gets the host's
            if (!spec.rootFileSystem() || !spec.environment().containsKey(d.getKey())) {
                c.addAll(List.of("--setenv", d.getKey(), d.getValue()));
            }
        }
        if (spec.scratch()) {
            c.addAll(List.of("--setenv", "SCRATCH", "/scratch"));
        }
        if (egress != null) {
            String proxy = "http://127.0.0.1:" + EgressProxy.PORT;
            for (String name : List.of("HTTPS_PROXY", "HTTP_PROXY", "https_proxy", "http_proxy")) {
                c.addAll(List.of("--setenv", name, proxy));
            }
        }
        return c;
    }

    /** Read-only host interpreters and libraries, merged-usr links kept as links; nothing else of the host. */
    private static List<String> hostMounts() {
        List<String> args = new ArrayList<>();
        for (String p : List.of("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc/alternatives",
                "/etc/ssl")) {
            Path path = Path.of(p);
            try {
                if (Files.isSymbolicLink(path)) {
                    args.addAll(List.of("--symlink", Files.readSymbolicLink(path).toString(), p));
                } else if (Files.isDirectory(path)) {
                    args.addAll(List.of("--ro-bind", p, p));
                }
            } catch (IOException ignored) {
                // unreadable: not mounted
            }
        }
        return args;
    }
}
