package dev.atrium.identity.control.login;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import dev.atrium.identity.control.IdentityConfig;
import dev.atrium.identity.entity.SecurityAlert;
import dev.atrium.platform.config.ConfigDefaults;
import dev.atrium.platform.kv.InMemoryKeyValueStore;

class SecuritySignalsTest {

    private static final long SEED = Long.getLong("atrium.fuzz.seed", 20261123L);
    private static final int ROUNDS = Integer.getInteger("atrium.fuzz.rounds", 4000);

    /** Records what was raised; the once-per-episode rule is AlertService's and is proven by SecurityAlertsIT. */
    static final class RecordingAlerts extends AlertService {
        final List<String> raised = new ArrayList<>();
        final List<String> details = new ArrayList<>();

        @Override
        public Optional<SecurityAlert> raise(String kind, String subject, String details) {
            raised.add(kind + " " + subject);
            this.details.add(details);
            return Optional.empty();
        }
    }

    private final MutableClock clock = new MutableClock(Instant.parse("2026-11-23T10:00:00Z"));
    private final RecordingAlerts alerts = new RecordingAlerts();
    private final SecuritySignals signals = new SecuritySignals();

    @BeforeEach
    void setUp() {
        signals.config = ConfigDefaults.of(IdentityConfig.class);
        signals.store = new InMemoryKeyValueStore(clock);
        signals.clock = clock;
        signals.alerts = alerts;
        signals.locator = new PrefixNetworkLocator();
        signals.config.alertsRefreshMax = 30;
        signals.config.alertsRefreshWindowMinutes = 10;
        signals.config.alertsLocationWindowMinutes = 60;
        signals.config.alertsPasswordResetMax = 5;
        signals.config.alertsPasswordResetWindowMinutes = 60;
        signals.config.alertsRefreshTheftWindowMinutes = 10;
        signals.config.alertsRefreshTheftRevoke = "true";
    }

    @Test
    void whenAUserRefreshesMoreThanTheMaximumInAWindowThenTheSignalIsRaised() {
        for (int i = 0; i < 30; i++) {
            signals.refreshed(7, "jti-7", "10.1.2.3");
        }
        assertThat(alerts.raised).isEmpty();
        signals.refreshed(7, "jti-7", "10.1.2.3");
        assertThat(alerts.raised).containsExactly("refresh_frequency user:7");
    }

    @Test
    void whenRefreshesAreSpreadOverWindowsThenNoSignal() {
        for (int i = 0; i < 60; i++) {
            signals.refreshed(7, "jti-7", "10.1.2.3");
            clock.advance(Duration.ofSeconds(20));
        }
        assertThat(alerts.raised).isEmpty();
    }

    @Test
    void whenAUserLogsInFromAnotherPrefixWithinTheWindowThenTheSignalIsRaised() {
        signals.loggedIn(7, "10.1.2.3");
        clock.advance(Duration.ofMinutes(5));
        signals.loggedIn(7, "10.1.9.9");
        assertThat(alerts.raised).isEmpty();
        clock.advance(Duration.ofMinutes(5));
        signals.loggedIn(7, "10.2.0.1");
        assertThat(alerts.raised).containsExactly("location_change user:7");
    }

    @Test
    void whenTheOtherPrefixComesAfterTheWindowThenNoSignal() {
        signals.loggedIn(7, "2001:db8:1::1");
        clock.advance(Duration.ofMinutes(61));
        signals.loggedIn(7, "2001:db8:2::1");
        signals.loggedIn(8, "unknown");
        assertThat(alerts.raised).isEmpty();
    }

    @Test
    void whenResetsFloodFromOneAddressOrForOneAccountThenBothSignalsAreRaised() {
        for (int i = 0; i < 6; i++) {
            signals.resetRequested(null, "10.9.9.9");
        }
        assertThat(alerts.raised).containsExactly("password_reset_frequency address:10.9.9.9");
        alerts.raised.clear();
        for (int i = 0; i < 6; i++) {
            signals.resetRequested(7L, "10.8." + i + ".1");
        }
        assertThat(alerts.raised).containsExactly("password_reset_frequency user:7");
    }

    @Test
    void whenOneRefreshTokenIsUsedFromAnotherNetworkWithinTheWindowThenTheSignalIsRaisedAndItIsRevoked() {
        assertThat(signals.refreshed(7, "jti-a", "10.1.2.3")).isFalse();
        clock.advance(Duration.ofMinutes(9));
        assertThat(signals.refreshed(7, "jti-a", "192.0.2.44")).isTrue();
        assertThat(alerts.raised).containsExactly("refresh_token_two_addresses user:7");
        assertThat(alerts.details.get(0)).contains("10.1.2.3", "10.1.0.0/16", "192.0.2.44", "192.0.0.0/16",
                "540 seconds later", "revoked").doesNotContain("jti-a");
    }

    @Test
    void whenRevocationIsOffThenTheSignalIsRaisedAndTheLatestPlaceIsKept() {
        signals.config.alertsRefreshTheftRevoke = "false";
        assertThat(signals.refreshed(7, "jti-a", "10.1.2.3")).isFalse();
        assertThat(signals.refreshed(7, "jti-a", "10.2.2.3")).isFalse();
        assertThat(signals.refreshed(7, "jti-a", "10.2.9.9")).isFalse();
        assertThat(alerts.raised).containsExactly("refresh_token_two_addresses user:7");
        assertThat(alerts.details.get(0)).contains("was not revoked", AlertSettings.THEFT_REVOKE);
    }

    @Test
    void whenTheSameNetworkOrAnotherTokenOrAfterTheWindowThenNoSignal() {
        signals.refreshed(7, "jti-a", "10.1.2.3");
        signals.refreshed(7, "jti-a", "10.1.200.7");
        signals.refreshed(7, "jti-b", "172.16.0.1");
        signals.refreshed(8, "jti-c", "2001:db8:1:2::1");
        signals.refreshed(8, "jti-c", "2001:db8:1:ffff::9");
        clock.advance(Duration.ofMinutes(10).plusSeconds(1));
        assertThat(signals.refreshed(7, "jti-a", "192.0.2.1")).isFalse();
        assertThat(signals.refreshed(8, "jti-c", "::ffff:10.1.2.3")).isFalse();
        assertThat(alerts.raised).isEmpty();
    }

    @Test
    void whenTheWindowIsConfiguredThenItDecides() {
        signals.config.alertsRefreshTheftWindowMinutes = 1;
        signals.refreshed(7, "jti-a", "10.1.2.3");
        clock.advance(Duration.ofSeconds(61));
        assertThat(signals.refreshed(7, "jti-a", "10.2.2.3")).isFalse();
        clock.advance(Duration.ofSeconds(60));
        assertThat(signals.refreshed(7, "jti-a", "10.3.2.3")).isTrue();
        assertThat(alerts.raised).containsExactly("refresh_token_two_addresses user:7");
    }

    @ParameterizedTest
    @CsvSource(nullValues = "null", value = {"unknown, jti-a", "'', jti-a", "null, jti-a", "10.9.9.9, ''",
            "10.9.9.9, null", "'10.9.9.9|x', jti-a", "host.example, jti-a"})
    void whenTheAddressIsNoLiteralOrTheTokenHasNoIdThenNothingIsComparedOrStored(String address, String id) {
        signals.refreshed(7, "jti-a", "10.1.2.3");
        assertThat(signals.refreshed(7, id, address)).isFalse();
        assertThat(alerts.raised).isEmpty();
        assertThat(signals.store.get("sig:refresh-place:jti-a")).contains("10.1.0.0/16|10.1.2.3|"
                + clock.instant().getEpochSecond());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "|", "x|", "|1", "10.2.0.0/16|", "10.2.0.0/16|x", "10.2.0.0/16|-5", "10.2.0.0/16|01",
            "10.2.0.0/16|99999999999999999999", "10.2.0.0/16", "10.2.0.0/16|1e3"})
    void whenAStoredLocationIsNotOneWeWroteThenTheLoginGoesOnWithoutSignal(String text) {
        signals.store.set("sig:location:7", text, Duration.ofMinutes(5));
        signals.loggedIn(7, "10.1.2.3");
        assertThat(alerts.raised).isEmpty();
        assertThat(signals.store.get("sig:location:7")).contains("10.1.0.0/16|" + clock.instant().getEpochSecond());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "|", "||", "|||", "a|b", "a|b|", "a||1", "|b|1", "a|b|c", "a|b|-1", "a|b|01",
            "a|b|1|", "a|b|1|2", "a|b|1e3", "a|b| 1", "a|b|99999999999999999999", "a|b|١٢", "a|b|0x10"})
    void whenAStoredSightingIsNotOneWeWroteThenItIsIgnored(String text) {
        assertThat(SecuritySignals.Sighting.parse(text)).isEmpty();
        signals.store.set("sig:refresh-place:jti-x", text, Duration.ofMinutes(5));
        assertThat(signals.refreshed(7, "jti-x", "10.1.2.3")).isFalse();
        assertThat(alerts.raised).isEmpty();
    }

    @Test
    void whenRandomTextIsReadAsASightingThenItIsEitherRejectedOrRoundTrips() {
        var random = new Random(SEED);
        String alphabet = "|0123456789abcdef.:/-x ";
        for (int round = 0; round < ROUNDS; round++) {
            var text = new StringBuilder();
            int length = random.nextInt(random.nextInt(8) == 0 ? 300 : 30);
            for (int i = 0; i < length; i++) {
                text.append(random.nextInt(20) == 0 ? (char) random.nextInt(0x3000)
                        : alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String input = text.toString();
            var parsed = SecuritySignals.Sighting.parse(input);
            int r = round;
            parsed.ifPresent(p -> assertThat(p.encode()).as("round %d of seed %d", r, SEED).isEqualTo(input));
        }
    }

    /**
     * Random pairs of addresses (IPv4, IPv6, IPv4-mapped, and text that is no address) used with one token: the
     * signal is raised exactly when both are addresses of different networks, as the locator draws them.
     */
    @Test
    void whenRandomAddressPairsRefreshOneTokenThenOnlyDifferentNetworksRaiseTheSignal() {
        var random = new Random(SEED);
        var locator = new PrefixNetworkLocator();
        for (int round = 0; round < ROUNDS; round++) {
            setUp();
            String first = address(random);
            String second = random.nextInt(3) == 0 ? neighbour(first, random) : address(random);
            boolean expected = locator.locate(first).isPresent() && locator.locate(second).isPresent()
                    && !locator.locate(first).equals(locator.locate(second));
            signals.refreshed(7, "jti", first);
            clock.advance(Duration.ofSeconds(random.nextInt(600)));
            boolean revoked = signals.refreshed(7, "jti", second);
            assertThat(revoked).as("round %d of seed %d: %s then %s", round, SEED, first, second)
                    .isEqualTo(expected);
            assertThat(alerts.raised).hasSize(expected ? 1 : 0);
            alerts.raised.clear();
            alerts.details.clear();
        }
    }

    private static String address(Random random) {
        return switch (random.nextInt(6)) {
            case 0, 1 -> octet(random, 4) + "." + octet(random, 4) + "." + octet(random, 256) + "."
                    + octet(random, 256);
            case 2 -> String.format("2001:db8:%x:%x::%x", random.nextInt(3), random.nextInt(0x10000),
                    random.nextInt(0x10000));
            case 3 -> "::ffff:" + octet(random, 4) + "." + octet(random, 4) + ".1.1";
            case 4 -> random.nextBoolean() ? "" : "unknown";
            default -> random.nextBoolean() ? "10.1.1" : "10.1.1.1|10.2.2.2";
        };
    }

    /** Another host in the same /16 or /48, written differently where the notation allows. */
    private static String neighbour(String address, Random random) {
        if (address.matches("\\d+\\.\\d+\\.\\d+\\.\\d+")) {
            String[] o = address.split("\\.");
            return o[0] + "." + o[1] + "." + random.nextInt(256) + "." + random.nextInt(256);
        }
        if (address.startsWith("2001:db8:")) {
            String[] w = address.split(":");
            return "2001:0db8:" + w[2] + ":" + Integer.toHexString(random.nextInt(0x10000)) + "::1";
        }
        return address;
    }

    private static int octet(Random random, int bound) {
        return random.nextInt(bound);
    }

    static final class MutableClock extends java.time.Clock {
        private Instant now;

        MutableClock(Instant now) {
            this.now = now;
        }

        void advance(Duration by) {
            now = now.plus(by);
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public java.time.Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
