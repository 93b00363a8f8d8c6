package dev.atrium.identity.control.login;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class PrefixNetworkLocatorTest {

    private final PrefixNetworkLocator locator = new PrefixNetworkLocator();

    @ParameterizedTest
    @CsvSource({
            "10.1.2.3, 10.1.0.0/16",
            "10.1.255.254, 10.1.0.0/16",
            "203.0.113.9, 203.0.0.0/16",
            "2001:db8:1:2::1, 2001:db8:1::/48",
            "2001:0DB8:0001:ffff::9, 2001:db8:1::/48",
            "::1, 0:0:0::/48",
            "::ffff:10.1.2.3, 10.1.0.0/16",
            "0.0.0.0, 0.0.0.0/16",
            "255.255.255.255, 255.255.0.0/16",
            "10.0.0.1, 10.0.0.0/16"})
    void whenAddressIsALiteralThenItsPrefixIsTheLocation(String address, String prefix) {
        assertThat(locator.locate(address)).contains(prefix);
    }

    /** Hostile or malformed addresses: never a location, never a DNS lookup, never an exception. */
    @ParameterizedTest
    @ValueSource(strings = {"", " ", "localhost", "example.com", "cafe.be", "10.1.2", "10.1.2.3.4", "999.1.2.3",
            "10.1.2.3 ", "1.2.3.4\n", "fe80::1%eth0", "::g", "1:2:3:4:5:6:7:8:9", ":::::", "unknown",
            "0x0a.1.2.3", "2001:db8::1/48", "abc.def", "256.1.2.3", "10.1.2.256", "10.300.2.3", "010.1.2.3",
            "10.01.2.3", "10.1.2.00", "::ffff:300.1.2.3", "1:2:3"})
    void whenAddressIsNotALiteralThenThereIsNoLocation(String address) {
        assertThat(locator.locate(address)).isEmpty();
    }

    @Test
    void whenAddressIsNullThenThereIsNoLocation() {
        assertThat(locator.locate(null)).isEmpty();
    }

    @Test
    void whenInputIsRandomThenTheLocatorAnswersWithoutThrowing() {
        var random = new Random(17);
        String alphabet = "0123456789abcdefABCDEF:.%/ xg-\u00e9\u0000";
        for (int i = 0; i < 20_000; i++) {
            var text = new StringBuilder();
            int length = random.nextInt(50);
            for (int j = 0; j < length; j++) {
                text.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            var location = locator.locate(text.toString());
            location.ifPresent(l -> assertThat(l).matches("(\\d{1,3}\\.\\d{1,3}\\.0\\.0/16|[0-9a-f:]+::/48)"));
        }
    }
}
