package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * An agent cannot read the host's secrets: /etc/shadow, the server's data directory, the JWT secret (the file the
 * server generates when none is configured, and the configured value in the server's environment), nor any other
 * process's environment.
 */
class HostileAgentHostFilesIT extends HostileAgentCase {

    /** The secret the test server is configured with (AtriumServer). */
    private static final String JWT_SECRET = "integration-tests-secret-0123456789abcdef";

    @Test
    void whenAnAgentReadsHostSecretsThenItSeesNothing() {
        Path data = AtriumServer.get().dataDir().toAbsolutePath();
        List<String> files = new ArrayList<>(List.of("/etc/shadow", "/etc/gshadow", "/root/.bash_history",
                data.resolve("keys").resolve("jwt-secret").toString(), "/proc/1/root/etc/shadow"));
        String marker = data.toString();
        for (long pid : HostileAgents.hostProcessesWith(marker)) {
            files.add("/proc/" + pid + "/environ");
            files.add("/proc/" + pid + "/root/etc/shadow");
        }
        List<String> dirs = List.of(data.toString(), data.resolve("keys").toString(), data.getParent().toString(),
                "/work", "/root", "/home", "/var/lib/postgresql");
        var listing = HostileAgents.list(staff, HostileAgents.card("peek", 20, false), HostileAgents.python("""
                def attack(conf):
                    os = mod("o", "s")
                    out = {}
                    for p in conf["files"]:
                        try:
                            with open(p, "rb") as f:
                                out[p] = "read: " + f.read(300).decode("latin-1")
                        except Exception as e:
                            out[p] = "error: " + type(e).__name__
                    for d in conf["dirs"]:
                        try:
                            out[d] = "listed: " + ",".join(os.listdir(d)[:50])
                        except Exception as e:
                            out[d] = "error: " + type(e).__name__
                    env = getattr(os, "env" + "iron")
                    out["environment"] = " ".join(k + "=" + v for k, v in env.items())
                    seen = []
                    for pid in os.listdir("/proc"):
                        if pid.isdigit():
                            for part in ("environ", "cmdline"):
                                try:
                                    with open("/proc/" + pid + "/" + part, "rb") as f:
                                        seen.append(f.read(4000).decode("latin-1"))
                                except Exception:
                                    pass
                    out["processes"] = " ".join(seen)
                    return out
                """, Map.of("files", files, "dirs", dirs)));
        if (HostileAgents.refusedByScan(listing)) {
            HostileAgents.stillServing(caller, calm);
            return;
        }

        var reply = HostileAgents.invoke(caller, listing.id(), HostileAgents.ATTACK);
        var report = HostileAgents.report(reply);

        for (String p : files) {
            assertThat(report.get(p).asText()).as(p).startsWith("error");
        }
        for (String d : dirs) {
            assertThat(report.get(d).asText()).as(d).startsWith("error");
        }
        // pid 1 in there is the sandbox's own bwrap: it reads its options from a descriptor and starts in / with
        // an empty environment, so no host path, secret or server setting shows
        assertThat(report.get("processes").asText()).doesNotContain(JWT_SECRET).doesNotContain("ATRIUM_")
                .doesNotContain(data.toString()).doesNotContain("/work");
        assertThat(report.get("environment").asText()).doesNotContain("ATRIUM_").doesNotContain("/work");
        assertThat(reply.body()).doesNotContain(JWT_SECRET).doesNotContain("ATRIUM_").doesNotContain("root:*")
                .doesNotContain("root:$").doesNotContain("root:!");
        HostileAgents.stillServing(caller, calm);
    }
}
