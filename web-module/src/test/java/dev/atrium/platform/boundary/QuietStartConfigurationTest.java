package dev.atrium.platform.boundary;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.Collections;
import java.util.Date;
import java.util.List;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The quiet start's two settings (docs/operations.md, "A quiet start"): every launcher of Payara Micro the tests and
 * {@code scripts/run} use takes {@code logging.properties}, and {@code scripts/launcher} names a trust store made
 * from the JDK's without an expired certificate, unless JAVA_OPTS names one.
 */
class QuietStartConfigurationTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final String LOGGING = "server-config/payara/logging.properties";

    @Test
    void whenScriptsRunOrTheRecordingStartOrTheEmbeddedTestServerStartsPayaraMicroThenItTakesTheQuietLogging()
            throws Exception {
        assertThat(Files.readString(ROOT.resolve("scripts/run"))).contains("--logproperties " + LOGGING);
        assertThat(Files.readString(ROOT.resolve("scripts/launcher"))).contains("--logproperties " + LOGGING);
        assertThat(Files.readString(ROOT.resolve("web-module/src/test/java/dev/atrium/it/AtriumServer.java")))
                .contains("\"--logproperties\"", "\"../" + LOGGING + "\"");
    }

    @Test
    void whenTheLoggingFileIsReadThenPayaraKeepsItsFormatAndTheRepeatedLoggersAreAtWarning() throws Exception {
        var properties = new Properties();
        try (InputStream in = Files.newInputStream(ROOT.resolve(LOGGING))) {
            properties.load(in);
        }
        assertThat(properties).containsEntry("handlers", "java.util.logging.ConsoleHandler")
                .containsEntry("java.util.logging.ConsoleHandler.formatter",
                        "com.sun.enterprise.server.logging.ODLLogFormatter")
                .containsEntry(".level", "INFO");
        for (String logger : List.of("PayaraMicro", "fish.payara.boot.runtime.BootCommand",
                "jakarta.enterprise.ejb.container", "org.flywaydb", "org.apache.activemq.artemis")) {
            assertThat(properties).containsEntry(logger + ".level", "WARNING");
        }
        assertThat(properties.stringPropertyNames()).as("the application's own lines stay at INFO")
                .noneMatch(name -> name.startsWith("dev.atrium"));
    }

    @Test
    void whenTheLauncherPrintsItsArgumentsThenTheTrustStoreIsTheJdksWithoutExpiredCertificates(@TempDir Path dir)
            throws Exception {
        List<String> arguments = launcherArguments("", dir.resolve("payara"));
        String option = arguments.stream().filter(a -> a.startsWith("-Djavax.net.ssl.trustStore=")).findFirst()
                .orElseThrow();
        Path store = Path.of(option.substring(option.indexOf('=') + 1));
        assertThat(store.getFileName().toString()).matches("truststore-\\d{4}-\\d{2}-\\d{2}\\.p12");

        var trusted = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            trusted.load(in, "changeit".toCharArray());
        }
        var jdk = KeyStore.getInstance(Path.of(System.getProperty("java.home"), "lib/security/cacerts").toFile(),
                "changeit".toCharArray());
        Date now = new Date();
        List<String> aliases = Collections.list(trusted.aliases());
        assertThat(aliases).hasSizeGreaterThan(50);
        for (String alias : aliases) {
            var certificate = (X509Certificate) trusted.getCertificate(alias);
            assertThat(certificate.getNotAfter()).as(alias).isAfter(now);
        }
        long current = Collections.list(jdk.aliases()).stream()
                .filter(a -> ((X509Certificate) getCertificate(jdk, a)).getNotAfter().after(now)).count();
        assertThat(aliases).as("every certificate of the JDK's that has not expired").hasSize((int) current);
    }

    @Test
    void whenJavaOptsNameATrustStoreThenTheLauncherLeavesItsOwnOut(@TempDir Path dir) throws Exception {
        assertThat(launcherArguments("-Djavax.net.ssl.trustStore=/etc/mine.p12", dir.resolve("payara")))
                .noneMatch(a -> a.startsWith("-Djavax.net.ssl.trustStore="));
    }

    private static java.security.cert.Certificate getCertificate(KeyStore store, String alias) {
        try {
            return store.getCertificate(alias);
        } catch (java.security.KeyStoreException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<String> launcherArguments(String javaOpts, Path runtimeDir) throws Exception {
        var builder = new ProcessBuilder("bash", ROOT.resolve("scripts/launcher").toString(), "command",
                runtimeDir.toString()).redirectError(ProcessBuilder.Redirect.DISCARD);
        builder.environment().put("JAVA_OPTS", javaOpts);
        Process process = builder.start();
        List<String> lines = new String(process.getInputStream().readAllBytes()).lines().toList();
        assertThat(process.waitFor()).isZero();
        return lines;
    }
}
