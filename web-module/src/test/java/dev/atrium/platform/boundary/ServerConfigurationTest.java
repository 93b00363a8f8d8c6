package dev.atrium.platform.boundary;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import jakarta.annotation.sql.DataSourceDefinition;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.atrium.platform.ServerResources;
import dev.atrium.platform.persistence.DatabaseMigrations;

/**
 * One configuration source, two launchers: Payara Micro and Payara Server take the same {@code atrium.asadmin}, and
 * what cannot be shared (the pool of the WAR on Micro, the server's pool) keeps the spec's limits on both.
 */
class ServerConfigurationTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path CONFIG = ROOT.resolve("server-config/payara");

    private static List<String> commands(String file) throws IOException {
        return Files.readAllLines(CONFIG.resolve(file)).stream().map(String::trim)
                .filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
    }

    private static Map<String, String> options(String command) {
        Matcher m = Pattern.compile("--([a-z-]+)=(\"[^\"]*\"|\\S+)").matcher(command);
        var found = new java.util.HashMap<String, String>();
        while (m.find()) {
            found.put(m.group(1), m.group(2));
        }
        return found;
    }

    @Test
    void whenAnyLauncherStartsTheJvmThenItKeepsAtMostTwentyIdleConnectionsToTheModelProvider() throws IOException {
        // the JDK reads it once, before its first HTTP client: a JVM option, never set by the application
        String option = "-Djdk.httpclient.connectionPoolSize=20";
        assertThat(Files.readString(ROOT.resolve("scripts/run"))).contains("java " + option + " ");
        String dockerfile = Files.readString(ROOT.resolve("docker/Dockerfile"));
        assertThat(dockerfile.substring(dockerfile.indexOf("ENTRYPOINT"))).contains("\"" + option + "\"");
        assertThat(Files.readString(CONFIG.resolve("server-domain.asadmin"))).contains("create-jvm-options " + option);
        assertThat(Files.readString(ROOT.resolve("web-module/src/test/java/dev/atrium/it/AtriumServer.java")))
                .contains("\"" + option + "\"");
    }

    @Test
    void whenAnyLauncherStartsTheJvmThenTheEmbeddingModelsLibraryStaysOfflineUnderTheDataDirectory()
            throws IOException {
        // DJL reads both once, from the environment: the application never sets them (MiniLmEmbedder)
        assertThat(Files.readString(ROOT.resolve("scripts/run"))).contains(
                "export ENGINE_CACHE_DIR=${ENGINE_CACHE_DIR:-$(cd \"$data\" && pwd)/native} DJL_OFFLINE=true");
        assertThat(Files.readString(ROOT.resolve("scripts/run-server")))
                .contains("export ENGINE_CACHE_DIR=${ENGINE_CACHE_DIR:-$data/native} DJL_OFFLINE=true");
        assertThat(Files.readString(ROOT.resolve("docker/Dockerfile")))
                .contains("ENV ATRIUM_DATA_DIR=/opt/atrium/data ENGINE_CACHE_DIR=/opt/atrium/data/native "
                        + "DJL_OFFLINE=true");
        assertThat(Files.readString(ROOT.resolve("web-module/src/test/java/dev/atrium/it/AtriumServer.java")))
                .contains("env.put(\"ENGINE_CACHE_DIR\", dataDir.resolve(\"native\")",
                        "env.put(\"DJL_OFFLINE\", \"true\")");
    }

    @Test
    void whenTheRunScriptStartsPayaraMicroThenItTakesTheLauncherTheIntegrationTestsStartFrom() throws IOException {
        // the embedded integration tests start from the same script's arguments and check the archive is used
        String run = Files.readString(ROOT.resolve("scripts/run"));
        assertThat(run).contains("launch_lines=$(scripts/launcher command \"$data/payara\")",
                "mapfile -t launch <<< \"$launch_lines\"",
                "deploy=$(scripts/launcher unpacked \"$war\")", "\"${launch[@]}\" \\\n  --deploy \"$deploy\"")
                .doesNotContain("-jar \"$runtime\"");
        assertThat(Files.readString(ROOT.resolve("scripts/build")))
                .endsWith("scripts/launcher\n# the WAR unpacked for scripts/run's deployment, once per build\n"
                        + "scripts/launcher unpacked \"$war\" > /dev/null\n");
        assertThat(Files.readString(ROOT.resolve("web-module/src/test/java/dev/atrium/it/AtriumServer.java")))
                .contains("\"../scripts/launcher\"", "\"command\"", "\"-Xshare:on\"", "\"unpacked\"");
    }

    private static Path unpack(Path war) throws Exception {
        Process process = new ProcessBuilder("bash", ROOT.resolve("scripts/launcher").toString(), "unpacked",
                war.toString()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String directory = new String(process.getInputStream().readAllBytes()).strip();
        assertThat(process.waitFor()).as("scripts/launcher unpacked " + war).isZero();
        return Path.of(directory);
    }

    private static void war(Path war, String webXml) throws IOException {
        Files.createDirectories(war.getParent());
        try (var zip = new java.util.zip.ZipOutputStream(Files.newOutputStream(war))) {
            zip.putNextEntry(new java.util.zip.ZipEntry("WEB-INF/web.xml"));
            zip.write(webXml.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            zip.closeEntry();
        }
    }

    @Test
    void whenAWarIsUnpackedForDeploymentThenOnceAndAgainOnlyWhenItChanges(@TempDir Path dir) throws Exception {
        Path war = dir.resolve("one/sample.war");
        war(war, "<web-app/>");
        Path unpacked = unpack(war);
        Path other = null;
        try {
            assertThat(unpacked).as("named as the WAR, which names the application").hasFileName("sample")
                    .startsWith(ROOT.resolve("web-module/target/launcher/deploy"));
            assertThat(unpacked.resolve("WEB-INF/web.xml")).hasContent("<web-app/>");
            Files.writeString(unpacked.resolve("marker"), "left from before");
            assertThat(unpack(war)).isEqualTo(unpacked);
            assertThat(unpacked.resolve("marker")).as("the same WAR is not unpacked again").exists();

            war(war, "<web-app version=\"6.0\"/>");
            Files.setLastModifiedTime(war, java.nio.file.attribute.FileTime.fromMillis(
                    Files.getLastModifiedTime(war).toMillis() + 10_000));
            assertThat(unpack(war)).isEqualTo(unpacked);
            assertThat(unpacked.resolve("marker")).as("a changed WAR is unpacked afresh").doesNotExist();
            assertThat(unpacked.resolve("WEB-INF/web.xml")).hasContent("<web-app version=\"6.0\"/>");

            Path same = dir.resolve("two/sample.war");
            war(same, "<web-app/>");
            other = unpack(same);
            assertThat(other).as("a WAR of the same name elsewhere has its own").isNotEqualTo(unpacked)
                    .hasFileName("sample");

            var missing = new ProcessBuilder("bash", ROOT.resolve("scripts/launcher").toString(), "unpacked",
                    dir.resolve("none.war").toString()).redirectErrorStream(true).start();
            assertThat(new String(missing.getInputStream().readAllBytes())).contains("Missing");
            assertThat(missing.waitFor()).isNotZero();
        } finally {
            for (Path made : new Path[] {unpacked, other}) {
                if (made != null) {
                    try (var files = Files.walk(made.getParent())) {
                        files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                    }
                }
            }
        }
    }

    /** What {@code scripts/launcher command} prints before the launcher's own arguments, with JAVA_OPTS as given. */
    private static List<String> launcherArguments(String javaOpts, Path runtimeDir) throws Exception {
        return launcherArguments(javaOpts, null, runtimeDir, 0);
    }

    private static List<String> launcherArguments(String javaOpts, String heap, Path runtimeDir, int exit)
            throws Exception {
        var builder = new ProcessBuilder("bash", ROOT.resolve("scripts/launcher").toString(), "command",
                runtimeDir.toString()).redirectError(ProcessBuilder.Redirect.DISCARD);
        builder.environment().put("JAVA_OPTS", javaOpts);
        builder.environment().remove("ATRIUM_HEAP");
        if (heap != null) {
            builder.environment().put("ATRIUM_HEAP", heap);
        }
        Process process = builder.start();
        List<String> lines = new String(process.getInputStream().readAllBytes()).lines().toList();
        if (exit == 0) {
            assertThat(process.waitFor()).isZero();
        } else {
            assertThat(process.waitFor()).isNotZero();
        }
        return lines;
    }

    /** The JVM's counters sampled once a second instead of every 50 ms: an idle server's wake-ups. */
    private static final String QUIET_SAMPLING = "-XX:PerfDataSamplingInterval=1000";
    private static final List<String> BOUNDS = List.of("-XX:MaxMetaspaceSize=512m", "-XX:MaxDirectMemorySize=256m",
            "-XX:ReservedCodeCacheSize=128m");

    @ParameterizedTest(name = "JAVA_OPTS \"{0}\", ATRIUM_HEAP \"{1}\"")
    @CsvSource(delimiter = '|', nullValues = "-", value = {
        "                                   | -     | -Xmx384m | true",
        "                                   | 2g    | -Xmx2g   | true",
        "                                   | 768M  | -Xmx768M | true",
        "                                   | off   | -        | false",
        "-Xmx3g                             | -     | -        | true",
        "-Xmx3g -XX:MaxMetaspaceSize=1g      | 1g    | -        | true"})
    void whenTheLauncherStartsTheJvmThenItsMemoryIsBoundedUnlessTheOperatorSaysOtherwise(String javaOpts, String heap,
            String expectedHeap, boolean bounded, @TempDir Path runtimeDir) throws Exception {
        List<String> arguments = launcherArguments(javaOpts == null ? "" : javaOpts, heap,
                runtimeDir.resolve("payara"), 0);
        var heaps = arguments.stream().filter(a -> a.startsWith("-Xmx")).toList();
        assertThat(heaps).isEqualTo(expectedHeap == null ? List.of() : List.of(expectedHeap));
        for (String bound : BOUNDS) {
            boolean named = javaOpts != null && javaOpts.contains(bound.substring(0, bound.indexOf('=') + 1));
            assertThat(arguments.contains(bound)).as(bound).isEqualTo(bounded && !named);
        }
    }

    @Test
    void whenAnyLauncherStartsTheJvmThenItsHeapMetaspaceDirectMemoryAndCodeCacheAreBounded() throws Exception {
        // the test harness takes scripts/launcher's defaults, as scripts/run does through "command"
        var defaults = new ProcessBuilder("bash", ROOT.resolve("scripts/launcher").toString(), "defaults")
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        defaults.environment().put("JAVA_OPTS", "");
        defaults.environment().remove("ATRIUM_HEAP");
        Process printed = defaults.start();
        List<String> options = new String(printed.getInputStream().readAllBytes()).lines().toList();
        assertThat(printed.waitFor()).isZero();
        assertThat(options).contains("-Xmx384m", "-XX:+UseParallelGC", QUIET_SAMPLING).containsAll(BOUNDS);
        assertThat(Files.readString(ROOT.resolve("web-module/src/test/java/dev/atrium/it/AtriumServer.java")))
                .contains("\"defaults\"", "command.addAll(jvmDefaults())").doesNotContain("\"-Xmx");
        // Payara Server's domain, with asadmin's escaped colons (doubled: the multimode file takes one backslash)
        String domain = Files.readString(CONFIG.resolve("server-domain.asadmin"));
        assertThat(domain).contains("create-jvm-options -Xmx1g", QUIET_SAMPLING.replace(":", "\\\\:"));
        for (String bound : BOUNDS) {
            assertThat(domain).contains(bound.replace(":", "\\\\:"));
        }
        // the Docker image: the heap in JDK_JAVA_OPTIONS (DockerImageTest), the bounds in its entry point
        String dockerfile = Files.readString(ROOT.resolve("docker/Dockerfile"));
        for (String bound : BOUNDS) {
            assertThat(dockerfile.substring(dockerfile.indexOf("ENTRYPOINT"))).contains("\"" + bound + "\"");
        }
        assertThat(dockerfile.substring(dockerfile.indexOf("ENTRYPOINT"))).contains("\"" + QUIET_SAMPLING + "\"");
    }

    @ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"lots", "512 m", "-1g", "1g;touch /tmp/x", "$(id)", "1t"})
    void whenTheHeapSettingIsNotASizeThenTheLauncherRefusesToStart(String heap, @TempDir Path runtimeDir)
            throws Exception {
        launcherArguments("", heap, runtimeDir.resolve("payara"), 1);
    }

    @ParameterizedTest(name = "JAVA_OPTS \"{0}\"")
    @CsvSource(delimiter = '|', value = {
        "                                  | true  | true",
        "-Xmx2g                            | true  | true",
        "-XX:+UseG1GC                      | false | true",
        "-Xmx1g -XX:+UseZGC -Xlog:gc       | false | true",
        "-XX:-UseParallelGC                | false | true",
        "-XX:+UseShenandoahGC              | false | true",
        "-XX:MetaspaceSize=64m             | true  | false",
        "-XX:+UseSerialGC -XX:MetaspaceSize=1g | false | false",
        "-XX:+UseG1GCTypo                  | true  | true",
        "-Dnote=-XX:+UseG1GC               | true  | true",
        "-XX:MaxMetaspaceSize=512m         | true  | true"})
    void whenJavaOptsNameACollectorOrAMetadataThresholdThenTheLauncherLeavesItsOwnOut(String javaOpts,
            boolean parallel, boolean threshold, @TempDir Path runtimeDir) throws Exception {
        // scripts/run puts JAVA_OPTS before the launcher's arguments: the JVM refuses two collectors, and of two
        // thresholds the launcher's would win
        List<String> arguments = launcherArguments(javaOpts == null ? "" : javaOpts, runtimeDir.resolve("payara"));
        assertThat(arguments.contains("-XX:+UseParallelGC")).isEqualTo(parallel);
        assertThat(arguments.contains("-XX:MetaspaceSize=256m")).isEqualTo(threshold);
        assertThat(arguments).filteredOn(a -> a.matches("-XX:[+-]Use\\w+GC")).hasSizeLessThanOrEqualTo(1);
    }

    @Test
    void whenTheRunScriptOrTheStartUpBenchStartsTheJvmThenTheLauncherSetsItsCollector() throws IOException {
        assertThat(Files.readString(ROOT.resolve("scripts/run"))).contains("${JAVA_OPTS:-} \"${launch[@]}\"");
        String startup = Files.readString(ROOT.resolve("scripts/bench-startup"));
        assertThat(startup).contains("scripts/launcher command \"$data/payara\"",
                "ATRIUM_CDS=off scripts/launcher command \"$data/payara\"", "${JAVA_OPTS:-} \"${launch[@]}\"");
    }

    private static final List<String> MICRO_LAUNCHERS = List.of("scripts/run", "scripts/launcher",
            "scripts/bench-startup", "docker/Dockerfile", "web-module/src/test/java/dev/atrium/it/AtriumServer.java");

    @Test
    void whenAnyLauncherStartsPayaraMicroThenTheParsersRefusalsAnswerInTheEnvelope(@TempDir Path runtimeDir)
            throws Exception {
        // the filter's jar on the runtime's class path, and the listener switched to it after boot: without the jar,
        // the switched listener would refuse every connection (docs/operations.md, "Refusals of the HTTP parser")
        for (String launcher : MICRO_LAUNCHERS) {
            String text = Files.readString(ROOT.resolve(launcher)).replace("\"", "").replace(", ", " ");
            assertThat(text).as(launcher).contains("atrium.asadmin").contains("micro-envelope.asadmin")
                    .doesNotContain("--postbootcommandfile");
        }
        // with payara-micro.jar through --addlibs; the launcher (scripts/run, scripts/bench-startup) on its class path
        for (String launcher : List.of("docker/Dockerfile", "web-module/src/test/java/dev/atrium/it/AtriumServer.java",
                "scripts/launcher")) {
            String text = Files.readString(ROOT.resolve(launcher)).replace("\"", "").replace(", ", " ");
            assertThat(text).as(launcher).contains("--addlibs").contains("grizzly-envelope.jar");
        }
        List<String> arguments = launcherArguments("", runtimeDir.resolve("payara"));
        int cp = arguments.indexOf("-cp");
        if (cp >= 0) {
            assertThat(arguments.get(cp + 1)).endsWith(":" + ROOT.resolve("web-module/target/grizzly-envelope.jar"));
        } else {
            assertThat(arguments).containsSubsequence("-jar", ROOT.resolve("web-module/target/payara-micro.jar")
                    .toString(), "--addlibs", ROOT.resolve("web-module/target/grizzly-envelope.jar").toString());
        }
        var micro = commands("micro-envelope.asadmin");
        assertThat(micro).contains("set configs.config.server-config.network-config.network-listeners"
                + ".network-listener.http-listener.protocol=atrium-envelope");
        assertThat(String.join("\n", micro)).contains("--targetprotocol http-listener",
                "dev.atrium.platform.container.EveryConnection",
                "port-unification.classname=dev.atrium.platform.container.EnvelopePortUnification");
        // the HTTPS listener (--sslport) too, through a protocol of its own to the TLS protocol --sslcert sets
        assertThat(micro).contains("set configs.config.server-config.network-config.network-listeners"
                + ".network-listener.https-listener.protocol=atrium-envelope-tls",
                "set configs.config.server-config.network-config.protocols.protocol.atrium-envelope-tls"
                + ".port-unification.classname=dev.atrium.platform.container.EnvelopePortUnification");
        assertThat(String.join("\n", micro))
                .contains("--protocol atrium-envelope-tls --targetprotocol https-listener ");
    }

    @Test
    void whenPayaraServersDomainIsCreatedThenItsListenerGoesThroughTheEnvelopeWithTheJarInTheDomainsLib()
            throws IOException {
        // the same switch as Payara Micro's, on the server's listener; the jar in the domain's lib before its first
        // start (the EAR build copies it to server-lib, scripts/run-server copies server-lib to the domain's lib)
        var server = commands("server-domain.asadmin");
        assertThat(server).contains("set configs.config.server-config.network-config.network-listeners"
                + ".network-listener.http-listener-1.protocol=atrium-envelope");
        assertThat(String.join("\n", server)).contains("--targetprotocol http-listener ",
                "dev.atrium.platform.container.EveryConnection",
                "port-unification.classname=dev.atrium.platform.container.EnvelopePortUnification");
        assertThat(server).contains("set configs.config.server-config.network-config.network-listeners"
                + ".network-listener.http-listener-2.protocol=atrium-envelope-tls");
        assertThat(String.join("\n", server))
                .contains("--protocol atrium-envelope-tls --targetprotocol http-listener-2 ");
        assertThat(Files.readString(ROOT.resolve("ear/pom.xml"))).contains("<artifactId>grizzly-envelope</artifactId>",
                "<destFileName>grizzly-envelope.jar</destFileName>");
        String run = Files.readString(ROOT.resolve("scripts/run-server"));
        assertThat(run.indexOf("cp \"$root/ear/target/server-lib/\"*.jar \"$domains/$domain/lib/\""))
                .as("the jar in the domain's lib before the domain first starts").isPositive()
                .isLessThan(run.indexOf("start-domain"));
    }

    @Test
    void whenAnyLauncherStartsPayaraMicroThenItsDataGridStaysOff() throws IOException {
        // --nocluster would still start the grid (and wait a second for members), and Payara reads it before
        // --nohazelcast, which it then ignores
        for (String launcher : MICRO_LAUNCHERS) {
            assertThat(Files.readString(ROOT.resolve(launcher))).as(launcher).contains("nohazelcast")
                    .doesNotContain("nocluster");
        }
    }

    @Test
    void whenPayaraMicroRunsWithoutItsDataGridThenEveryTimerIsNonPersistent() throws IOException {
        // without the grid Payara Micro's timer service keeps non-persistent timers only
        Pattern schedule = Pattern.compile("@Schedules?\\(([^)]*)\\)");
        Pattern config = Pattern.compile("new TimerConfig\\(([^()]*)\\)");
        int timers = 0;
        // the schedules and the batch machinery's timers live in batch-jobs
        var sources = new ArrayList<Path>();
        for (String module : List.of("ejb-module", "batch-jobs")) {
            try (var files = Files.walk(ROOT.resolve(module).resolve("src/main/java"))) {
                files.filter(p -> p.toString().endsWith(".java")).forEach(sources::add);
            }
        }
        for (Path source : sources) {
            String code = Files.readString(source);
            // the TimerService's calls without a TimerConfig make persistent timers
            assertThat(code).as(source.getFileName().toString()).doesNotContain(".createTimer(")
                    .doesNotContainPattern("\\.createCalendarTimer\\([^,()]*\\)");
            for (Pattern timer : List.of(schedule, config)) {
                Matcher m = timer.matcher(code);
                while (m.find()) {
                    timers++;
                    assertThat(m.group(1).replace(" ", "")).as(source.getFileName() + ": " + m.group())
                            .satisfiesAnyOf(a -> assertThat(a).contains("persistent=false"),
                                    a -> assertThat(a).endsWith(",false"));
                }
            }
        }
        assertThat(timers).as("the timers found").isGreaterThanOrEqualTo(10);
    }

    @Test
    void whenEitherRuntimeIsLaunchedThenItAppliesTheSharedFile() throws IOException {
        // Payara Micro's launchers join it and micro-envelope.asadmin into their one file before boot
        assertThat(Files.readString(ROOT.resolve("scripts/run"))).contains(
                "cat server-config/payara/atrium.asadmin server-config/payara/micro-envelope.asadmin > \"$preboot\"",
                "--prebootcommandfile \"$preboot\"");
        assertThat(Files.readString(ROOT.resolve("docker/Dockerfile"))).contains("server-config/payara/atrium.asadmin");
        assertThat(Files.readString(ROOT.resolve("web-module/src/test/java/dev/atrium/it/AtriumServer.java")))
                .contains("server-config/payara/atrium.asadmin");
        String server = Files.readString(ROOT.resolve("scripts/run-server"));
        assertThat(server).contains("apply \"$config/server-domain.asadmin\"", "apply \"$config/atrium.asadmin\"");
        assertThat(server.indexOf("apply \"$config/server-domain.asadmin\""))
                .as("the server's own file first: it names the protocol the shared file configures")
                .isLessThan(server.indexOf("apply \"$config/atrium.asadmin\""));
        try (var files = Files.list(CONFIG)) {
            assertThat(files.map(p -> p.getFileName().toString()).sorted().toList())
                    .containsExactly("atrium.asadmin", "ear", "logging.properties", "micro-envelope.asadmin",
                            "server-domain.asadmin");
        }
        // ear/: what the EAR carries into Payara Server (its JMS resources on Artemis's resource adapter)
        assertThat(Files.readString(ROOT.resolve("ear/pom.xml")))
                .contains("<earSourceDirectory>${project.basedir}/../server-config/payara/ear</earSourceDirectory>");
        assertThat(CONFIG.resolve("ear/META-INF/glassfish-resources.xml")).isRegularFile();
    }

    @Test
    void whenTheSharedFileIsReadThenItCreatesTheResourcesTheApplicationLooksUp() throws IOException {
        var shared = commands("atrium.asadmin");
        assertThat(shared).anyMatch(c -> c.startsWith("create-managed-thread-factory ")
                && c.endsWith(" " + ServerResources.STREAMS));
        assertThat(shared).anyMatch(c -> c.startsWith("create-managed-thread-factory ")
                && c.endsWith(" " + ServerResources.WORKERS));
        assertThat(shared).contains("set configs.config.server-config.batch-runtime-configuration"
                + ".data-source-lookup-name=" + DatabaseMigrations.DATA_SOURCE);
        // names that exist on one runtime only do not belong here
        assertThat(String.join("\n", shared)).doesNotContain("http-listener-1", "jdbc/atrium-pool", "${");
        assertThat(Files.readString(ROOT.resolve("web-module/src/main/webapp/WEB-INF/web.xml")))
                .doesNotContain("<managed-executor>");
    }

    @Test
    void whenThePoolsAreComparedThenBothRuntimesHaveTheSpecsLimits() throws IOException {
        var server = commands("server-domain.asadmin");
        var pool = options(server.stream().filter(c -> c.startsWith("create-jdbc-connection-pool ")).findFirst()
                .orElseThrow());
        assertThat(pool).containsEntry("steadypoolsize", "20").containsEntry("maxpoolsize", "30")
                .containsEntry("maxwait", "30000").containsEntry("idletimeout", "3600");
        assertThat(server).contains("create-jdbc-resource --connectionpoolid=atrium-pool jdbc/atrium");

        var micro = EmbeddedDataSource.class.getAnnotation(DataSourceDefinition.class);
        assertThat(micro.name()).isEqualTo(DatabaseMigrations.DATA_SOURCE);
        assertThat(Integer.toString(micro.maxPoolSize())).isEqualTo(pool.get("maxpoolsize"));
        assertThat(Integer.toString(micro.maxIdleTime())).isEqualTo(pool.get("idletimeout"));
        Map<String, String> properties = Arrays.stream(micro.properties()).map(p -> p.split("=", 2))
                .collect(Collectors.toMap(p -> p[0], p -> p[1]));
        assertThat(properties).containsEntry("fish.payara.max-wait-time-in-millis", pool.get("maxwait"));
    }
}
