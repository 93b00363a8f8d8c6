package dev.atrium.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * The Docker image and its compose file, read as text since no Docker engine runs here: the image installs the
 * Debian package of every program the sandbox runs ({@link BubblewrapExecutor#TOOLS}), its health check asks a
 * probe, and compose names a real payment processor and requires HTTPS behind its proxy.
 */
class DockerImageTest {

    private static final Path DOCKER = Path.of("..", "docker").toAbsolutePath().normalize();

    /** The Debian (and Ubuntu) package that ships each program at that path. */
    private static final Map<String, String> PACKAGES = Map.of(
            "/usr/bin/bwrap", "bubblewrap",
            "/usr/bin/setpriv", "util-linux",
            "/usr/bin/prlimit", "util-linux",
            "/usr/bin/strace", "strace",
            "/usr/bin/python3", "python3");

    private static final Pattern APT_INSTALL = Pattern.compile(
            "apt-get install -y --no-install-recommends ((?:[a-z0-9][a-z0-9.+-]* ?)+)");

    @Test
    void whenTheImageIsBuiltThenItInstallsThePackageOfEveryProgramTheSandboxRuns() throws IOException {
        var installed = installedPackages(Files.readString(DOCKER.resolve("Dockerfile")));
        assertThat(PACKAGES.keySet()).as("a package is known for every program the sandbox runs")
                .containsAll(BubblewrapExecutor.TOOLS);
        for (String tool : BubblewrapExecutor.TOOLS) {
            assertThat(installed).as(tool).contains(PACKAGES.get(tool));
        }
        assertThat(installed).as("the health check's client").contains("curl");
    }

    @Test
    void whenTheImageRunsThenItsHealthCheckAsksAProbe() throws IOException {
        String healthcheck = Files.readAllLines(DOCKER.resolve("Dockerfile")).stream()
                .filter(line -> line.startsWith("HEALTHCHECK")).findFirst().orElseThrow();
        assertThat(healthcheck).containsPattern("http://localhost:8080/health/(live|ready)\\b");
    }

    @Test
    void whenTheImageStartsThenTheJvmsMemoryIsBounded() throws IOException {
        String dockerfile = Files.readString(DOCKER.resolve("Dockerfile"));
        // the heap in JDK_JAVA_OPTIONS, which the operator may replace (docker run -e); the other bounds fixed
        assertThat(dockerfile).containsPattern("(?m)^ENV JDK_JAVA_OPTIONS=\"-Xmx\\d+[mg]\"");
        String entrypoint = dockerfile.substring(dockerfile.indexOf("ENTRYPOINT"));
        assertThat(entrypoint).contains("\"-XX:MaxMetaspaceSize=", "\"-XX:MaxDirectMemorySize=",
                "\"-XX:ReservedCodeCacheSize=").doesNotContain("-Xmx");
        // and it starts as quietly as scripts/run: Payara's logging settings, no bundled trust store to dump
        assertThat(entrypoint).contains("\"--logproperties\", \"logging.properties\"", "-Djavax.net.ssl.trustStore=");
    }

    @Test
    void whenTheImageStartsThenTheServerRunsFromALeafCgroupAsRoot() throws IOException {
        String dockerfile = Files.readString(DOCKER.resolve("Dockerfile"));
        assertThat(dockerfile).contains("ENTRYPOINT [\"cgroup-leaf.sh\", \"java\"")
                .doesNotContainPattern("(?m)^USER ");
        assertThat(Files.isExecutable(DOCKER.resolve("cgroup-leaf.sh"))).isTrue();
        assertThat(Files.readString(DOCKER.resolve("cgroup-leaf.sh"))).contains("exec \"$@\"");
    }

    @Test
    void whenComposeStartsAtriumThenItNamesAPaymentProcessorAndRequiresHttpsBehindItsProxy() throws IOException {
        String compose = Files.readString(DOCKER.resolve("compose.yaml"));
        assertThat(compose).containsPattern("(?m)^\\s+ATRIUM_BILLING_PROCESSOR: (stripe|webhook)$");
        assertThat(compose).containsPattern("(?m)^\\s+ATRIUM_REQUIRE_HTTPS: \"true\"$");
        assertThat(compose).containsPattern("(?m)^\\s+ATRIUM_BASE_URL: https://");
        var proxy = Pattern.compile("(?m)^\\s+ipv4_address: (\\S+)$").matcher(compose);
        assertThat(proxy.find()).as("the proxy has a fixed address").isTrue();
        assertThat(compose).containsPattern("(?m)^\\s+ATRIUM_HTTP_TRUSTED_PROXIES: " + Pattern.quote(proxy.group(1))
                + "$");
        assertThat(compose).contains("./Caddyfile:/etc/caddy/Caddyfile");
        assertThat(Files.readString(DOCKER.resolve("Caddyfile"))).contains("reverse_proxy atrium:8080");
        assertThat(compose).as("Atrium's own port is not published").doesNotContain("\"8080:8080\"");
    }

    private static Set<String> installedPackages(String dockerfile) {
        var m = APT_INSTALL.matcher(dockerfile);
        assertThat(m.find()).as("an apt-get install line").isTrue();
        return new HashSet<>(Arrays.asList(m.group(1).trim().split(" ")));
    }
}
