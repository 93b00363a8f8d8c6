package dev.atrium.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import org.junit.jupiter.api.Test;

/**
 * The host of a proxy request, read from a run's request line: the plain spellings are read as what they are, every
 * spelling a lenient parser or resolver would turn into an address is refused before any lookup, and random targets
 * come out as a target whose literal is what its text says, or a refusal, never anything else.
 */
class ProxyTargetTest {

    private static final long SEED = Long.getLong("atrium.fuzz.seed", 20261128L);
    private static final int ROUNDS = Integer.getInteger("atrium.fuzz.rounds", 20000);

    @ParameterizedTest(name = "CONNECT {0}")
    @CsvSource({
            "example.com:443, example.com, -, 443",
            "API.Example.COM:8443, api.example.com, -, 8443",
            "example.com.:443, example.com, -, 443",
            "xn--bcher-kva.example:443, xn--bcher-kva.example, -, 443",
            "localhost:8080, localhost, -, 8080",
            "127.0.0.1:5432, -, 127.0.0.1, 5432",
            "255.255.255.255:1, -, 255.255.255.255, 1",
            "0.0.0.0:65535, -, 0.0.0.0, 65535",
            "[::1]:443, -, 0:0:0:0:0:0:0:1, 443",
            "[2001:DB8::1]:443, -, 2001:db8:0:0:0:0:0:1, 443",
            "[64:ff9b::7f00:1]:80, -, 64:ff9b:0:0:0:0:7f00:1, 80",
            "[fd00::2]:8080, -, fd00:0:0:0:0:0:0:2, 8080"})
    void whenTheTargetIsPlainThenItIsReadAsWritten(String target, String name, String literal, int port) {
        var read = ProxyTarget.connect(target);

        assertThat(read.name()).isEqualTo("-".equals(name) ? null : name);
        assertThat(read.literal() == null ? null : read.literal().getHostAddress())
                .isEqualTo("-".equals(literal) ? null : literal);
        assertThat(read.port()).isEqualTo(port);
    }

    @ParameterizedTest(name = "CONNECT {0}")
    @ValueSource(strings = {
            // numbers a resolver (inet_aton) or Java reads as 127.0.0.1
            "2130706433:80", "0x7f000001:80", "0x7f.0.0.1:80", "0x7F.1:80", "0177.0.0.1:80", "0177.1:80",
            "127.1:80", "127.0.1:80", "127.000.000.001:80", "017700000001:80", "127.0.0.1.:80", "1.2.3.4.5:80",
            "256.0.0.1:80", "0.0.0.0.0:80", "127.0.0.0x1:80", "a.0x7f:80", "a.1:80", "1e100:80",
            // IPv6 spellings
            "::1:443", "[::1%lo]:443", "[fe80::1%25eth0]:443", "[fe80::1%eth0]:443", "[::ffff:127.0.0.1]:443",
            "[::ffff:7f00:1]:443", "[0:0:0:0:0:ffff:7f00:1]:443", "[::127.0.0.1]:443", "[::1:443",
            "[::1]x:443", "[::1]]:443", "[]:443", "[:]:443", "[1::2::3]:443", "[12345::]:443", "[localhost]:443",
            "[::1]", "[::1]:", "[ ::1]:443",
            // names
            "-bad.example:443", "bad-.example:443", "under_score.example:443", "a..b:443", ".example.com:443",
            "example.com..:443", "exa mple.com:443", "exämple.com:443", "example.com\u0000.evil:443",
            "user@example.com:443", "example.com:443@127.0.0.1:80", "example.com:443:80",
            // ports
            "example.com", "example.com:", "example.com:0", "example.com:65536", "example.com:+443",
            "example.com:-1", "example.com:0x50", "example.com: 443", "example.com:443 ", "example.com:99999999999",
            ":443", ""})
    void whenTheTargetIsAnOddSpellingThenRefused(String target) {
        assertThatThrownBy(() -> ProxyTarget.connect(target)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void whenALabelIsLongerThanDnsAllowsThenRefused() {
        assertThat(ProxyTarget.connect("a".repeat(63) + ".example:443").name()).startsWith("aaa");
        assertThatThrownBy(() -> ProxyTarget.connect("a".repeat(64) + ".example:443"))
                .isInstanceOf(IllegalArgumentException.class);
        String long254 = ("a".repeat(62) + ".").repeat(4) + "ab";
        assertThatThrownBy(() -> ProxyTarget.connect(long254 + ":443")).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "http://example.com/path, example.com, 80",
            "HTTP://example.com:8080?q=1, example.com, 8080",
            "http://example.com#frag, example.com, 80",
            "http://example.com, example.com, 80",
            "http://127.0.0.1:6379/, 127.0.0.1, 6379",
            "http://[::1]:8080/health, 0:0:0:0:0:0:0:1, 8080",
            "http://gateway.atrium.internal/v1/agents/x/invoke, gateway.atrium.internal, 80"})
    void whenAnAbsoluteFormTargetIsPlainThenItsAuthorityIsRead(String target, String host, int port) {
        var read = ProxyTarget.absolute(target);

        assertThat(read.host()).isEqualTo(host);
        assertThat(read.port()).isEqualTo(port);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"/", "https://example.com/", "ftp://example.com/", "http:/example.com/", "http:///x",
            "http://x@127.0.0.1/", "http://2130706433/", "http://0x7f.1/", "http://[::1%lo]/", "http://example.com:0/",
            "http://[::ffff:127.0.0.1]/", "example.com:80", "http://a b/", "http://example.com:80:80/"})
    void whenAnAbsoluteFormTargetIsOddThenRefused(String target) {
        assertThatThrownBy(() -> ProxyTarget.absolute(target)).isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * Random targets built from the characters of hosts and ports (digits, dots, colons, brackets, x, %, @, letters)
     * and random bytes: each is refused, or read as a name that is a name (its last label starting with a letter) or
     * a literal whose plain spelling is the host written.
     */
    @Test
    void whenRandomTargetsAreReadThenEachIsAPlainHostOrRefused() {
        var random = new Random(SEED);
        String alphabet = "0123456789abcdefxX.:[]%@-_ lLoOcChHsStT/";
        int read = 0;
        for (int i = 0; i < ROUNDS; i++) {
            String target;
            if (random.nextInt(4) == 0) {
                byte[] bytes = new byte[random.nextInt(40)];
                random.nextBytes(bytes);
                target = new String(bytes, StandardCharsets.ISO_8859_1);
            } else {
                var b = new StringBuilder();
                int n = random.nextInt(30);
                for (int k = 0; k < n; k++) {
                    b.append(alphabet.charAt(random.nextInt(alphabet.length())));
                }
                if (random.nextBoolean()) {
                    b.append(':').append(random.nextInt(70000));
                }
                target = b.toString();
            }
            try {
                var t = ProxyTarget.connect(target);
                read++;
                assertThat(t.port()).as(target).isBetween(1, 65535);
                String host = target.substring(0, target.lastIndexOf(':')).toLowerCase(java.util.Locale.ROOT);
                if (t.name() != null) {
                    assertThat(t.name()).as(target).matches("([a-z0-9-]+\\.)*[a-z][a-z0-9-]*");
                    assertThat(host).as(target).isIn(t.name(), t.name() + ".");
                } else if (host.startsWith("[")) {
                    assertThat(t.literal().getAddress()).as(target).hasSize(16)
                            .isEqualTo(AddressPolicyTest.bytes(host.substring(1, host.length() - 1)));
                } else {
                    assertThat(t.literal().getHostAddress()).as(target).isEqualTo(host);
                }
            } catch (IllegalArgumentException refused) {
                // the expected answer for most
            } catch (RuntimeException e) {
                throw new AssertionError("round " + i + " (seed " + SEED + "): " + List.of(target), e);
            }
        }
        assertThat(read).as("some targets were read").isPositive();
    }
}
