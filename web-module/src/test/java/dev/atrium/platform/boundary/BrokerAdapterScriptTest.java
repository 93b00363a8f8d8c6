package dev.atrium.platform.boundary;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code scripts/broker-adapter}: the pre-boot command that points the message-driven beans' resource adapter at
 * {@code ATRIUM_BROKER_URL}'s broker, as scripts/run and the image run it.
 */
class BrokerAdapterScriptTest {

    private static final Path SCRIPT = Path.of("..", "scripts", "broker-adapter").toAbsolutePath().normalize();
    private static final String FACTORY = "ConnectorClassName=org.apache.activemq.artemis.core.remoting.impl.netty."
            + "NettyConnectorFactory";

    record Run(int exit, String out, String err) {
    }

    private static Run run(String url) throws Exception {
        var builder = new ProcessBuilder("sh", SCRIPT.toString());
        builder.environment().remove("ATRIUM_BROKER_URL");
        if (url != null) {
            builder.environment().put("ATRIUM_BROKER_URL", url);
        }
        Process process = builder.start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(10, TimeUnit.SECONDS)).isTrue();
        return new Run(process.exitValue(), out, err);
    }

    @Test
    void whenNoBrokerIsConfiguredThenTheEmbeddedOneIsLeftAsItIs() throws Exception {
        assertThat(run(null)).isEqualTo(new Run(0, "", ""));
        assertThat(run("")).isEqualTo(new Run(0, "", ""));
        assertThat(run("vm://0")).isEqualTo(new Run(0, "", ""));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "tcp://artemis:61616 | host\\=artemis;port\\=61616",
            "tcp://10.0.0.7:5445?ha=true | host\\=10.0.0.7;port\\=5445",
            "tcp://artemis:61616?user=atrium&password=atrium | host\\=artemis;port\\=61616:UserName=atrium:"
                    + "Password=atrium",
            "tcp://b:1?password=p:a=s\\s&user=u:1 | host\\=b;port\\=1:Password=p\\:a\\=s\\\\s:UserName=u\\:1"})
    void whenARemoteBrokerIsConfiguredThenTheAdapterIsPointedAtItWithItsCredentials(String url, String expected)
            throws Exception {
        var run = run(url);
        assertThat(run.exit()).isZero();
        assertThat(run.out()).isEqualTo("create-resource-adapter-config --property " + FACTORY
                + ":ConnectionParameters=" + expected + " artemis-rar\n");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"tcp://artemis", "tcp://artemis:", "tcp://artemis:port", "tcp://artemis:61616x", "tcp://:"})
    void whenTheAddressHasNoNumericPortThenTheStartIsRefusedWithAReason(String url) throws Exception {
        var run = run(url);
        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).contains("ATRIUM_BROKER_URL must be tcp://host:port");
    }

    @Test
    void whenCredentialsHoldAnyPrintableCharactersThenEachSeparatorIsEscapedAndTheCommandStaysOneLine()
            throws Exception {
        var random = new Random(51);
        String alphabet = "abcXYZ019:=;\\&?@/ !#$%'\"`*()[]{}|<>,.~^-_+";
        for (int i = 0; i < 40; i++) {
            var password = new StringBuilder();
            for (int c = 1 + random.nextInt(20); c > 0; c--) {
                char ch = alphabet.charAt(random.nextInt(alphabet.length()));
                if (ch != '&') {
                    password.append(ch);
                }
            }
            var run = run("tcp://artemis:61616?user=u&password=" + password);
            assertThat(run.exit()).as(password.toString()).isZero();
            assertThat(run.out().lines().count()).as(password.toString()).isEqualTo(1);
            String value = run.out().substring(run.out().indexOf(":Password=") + ":Password=".length(),
                    run.out().lastIndexOf(" artemis-rar"));
            // unescaped, the value is the password again; no bare ':' or '=' is left to split it
            assertThat(value.replaceAll("\\\\(.)", "$1")).as(password.toString()).isEqualTo(password.toString());
            assertThat(value.replaceAll("\\\\.", "")).as(password.toString()).doesNotContain(":", "=");
        }
    }
}
