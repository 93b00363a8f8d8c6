package dev.atrium.marketplace.control.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** dpkg's order, checked on the cases of its own test suite and on hostile strings. */
class DebianVersionOrderTest {

    @ParameterizedTest(name = "{0} < {1}")
    @CsvSource({
        "1.0~rc1, 1.0", "1.0, 1.0-1", "1.0-1, 1.0-2", "1.0-1, 1.0+b1", "1.35.0-4+deb12u1, 1.35.0-4+deb12u2",
        "2.36-9, 2.36-9+deb12u4", "9.9, 1:0.1", "1.2a, 1.2+", "1.0~~, 1.0~", "1.9, 1.10", "1.0-1~bpo1, 1.0-1",
        "0.9, 1.0~beta"})
    void whenDebianVersionsAreComparedThenDpkgsOrderHolds(String lower, String higher) {
        assertThat(DebianVersionOrder.INSTANCE.compare(lower, higher)).isNegative();
        assertThat(DebianVersionOrder.INSTANCE.compare(higher, lower)).isPositive();
    }

    @Test
    void whenVersionsAreEqualOrPaddedThenTheyCompareEqual() {
        assertThat(DebianVersionOrder.INSTANCE.compare("1.01", "1.1")).isZero();
        assertThat(DebianVersionOrder.INSTANCE.compare("0:1.0-1", "1.0-1")).isZero();
    }

    @Test
    void whenDebianAdvisoriesAreReadThenTheirRangesUseDpkgsOrder() {
        var advisories = Advisories.parse("[{\"id\":\"DSA-1\",\"affected\":[{\"package\":{\"ecosystem\":\"Debian:12\","
                + "\"name\":\"busybox\"},\"ranges\":[{\"type\":\"ECOSYSTEM\",\"events\":[{\"introduced\":\"0\"},"
                + "{\"fixed\":\"1:1.35.0-4+deb12u2\"}]}]}]}]");
        assertThat(advisories.affecting(new Manifests.Dependency("Debian", "busybox", "1:1.35.0-4+deb12u1", "s", 1)))
                .hasSize(1);
        assertThat(advisories.affecting(new Manifests.Dependency("Debian", "busybox", "1:1.35.0-4+deb12u2", "s", 1)))
                .isEmpty();
        assertThat(advisories.affecting(new Manifests.Dependency("Debian", "busybox", "1.99", "s", 1)))
                .as("a lower epoch").hasSize(1);
    }

    @Test
    void whenStringsAreRandomThenTheOrderNeverThrowsAndIsAntisymmetric() {
        var random = new Random(20261129L);
        String alphabet = "0123456789.:-~+abcZ ";
        for (int i = 0; i < 5000; i++) {
            String a = randomString(random, alphabet);
            String b = randomString(random, alphabet);
            assertThat(Integer.signum(DebianVersionOrder.INSTANCE.compare(a, b)))
                    .as(a + " vs " + b).isEqualTo(-Integer.signum(DebianVersionOrder.INSTANCE.compare(b, a)));
        }
    }

    private static String randomString(Random random, String alphabet) {
        var s = new StringBuilder();
        for (int i = random.nextInt(12); i > 0; i--) {
            s.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return s.toString();
    }
}
