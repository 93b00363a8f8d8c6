package dev.atrium.marketplace.control.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.atrium.platform.kv.InMemoryKeyValueStore;

/** Dependency tokens: what they grant, for how long, how often, and that nothing else passes for one. */
class DependencyTokensTest {

    private static final long SEED = Long.getLong("atrium.fuzz.seed", 20261124L);
    private static final int ROUNDS = Integer.getInteger("atrium.fuzz.rounds", 4000);
    private static final UUID A = new UUID(0, 1);
    private static final UUID B = new UUID(0, 2);

    private Instant now = Instant.parse("2026-11-24T00:00:00Z");
    private final DependencyTokens tokens = new DependencyTokens();

    DependencyTokensTest() {
        tokens.store = new InMemoryKeyValueStore(new Clock() {
            @Override
            public ZoneOffset getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(java.time.ZoneId zone) {
                return this;
            }

            @Override
            public Instant instant() {
                return now;
            }
        });
    }

    private final DependencyTokens.Grant grant = new DependencyTokens.Grant(42, List.of(A, B),
            Map.of("translator", "^1.2.0"), UUID.randomUUID(), UUID.randomUUID());

    @Test
    void whenATokenIsMintedThenItResolvesToItsGrantUntilItExpires() {
        String token = tokens.mint(grant, Duration.ofSeconds(35));

        assertThat(token).startsWith("atd_").hasSize(47);
        assertThat(tokens.resolve(token)).contains(grant);
        assertThat(tokens.resolve(token).orElseThrow().caller()).isEqualTo(B);
        now = now.plusSeconds(36);
        assertThat(tokens.resolve(token)).isEmpty();
    }

    @Test
    void whenATokenIsRevokedThenItResolvesToNothing() {
        String token = tokens.mint(grant, Duration.ofSeconds(35));

        tokens.revoke(token);

        assertThat(tokens.resolve(token)).isEmpty();
    }

    @Test
    void whenARunCallsMoreThanItsShareThenTheExtraCallsAreRefused() {
        String token = tokens.mint(grant, Duration.ofSeconds(35));

        for (int i = 0; i < 3; i++) {
            assertThat(tokens.countCall(token, 3, Duration.ofSeconds(60))).isTrue();
        }

        assertThat(tokens.countCall(token, 3, Duration.ofSeconds(60))).isFalse();
    }

    @Test
    void whenHostileTextIsPresentedThenNothingResolves() {
        String real = tokens.mint(grant, Duration.ofSeconds(35));
        var hostile = List.of("", "atd_", "atd_" + "A".repeat(42), "atd_" + "A".repeat(44), real + " ", " " + real,
                real.toUpperCase(), real.replace("atd_", "ATD_"), real.substring(0, 46) + "=", real + "\n",
                "sk-" + real.substring(4), "atd_" + "é".repeat(43), "atd_../../../../etc/passwd/aaaaaaaaaaaaaaaaa",
                "ey" + real, real.substring(0, 46) + "\u0000");
        for (String h : hostile) {
            assertThat(tokens.resolve(h)).as(h).isEmpty();
        }
        assertThat(tokens.resolve(null)).isEmpty();
        assertThat(tokens.resolve(real)).isPresent();
    }

    @Test
    void whenRandomTokensOfTheRightShapeArePresentedThenNoneResolves() {
        tokens.mint(grant, Duration.ofSeconds(35));
        var random = new Random(SEED);
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        for (int round = 0; round < ROUNDS; round++) {
            var token = new StringBuilder("atd_");
            for (int i = 0; i < 43; i++) {
                token.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            assertThat(tokens.resolve(token.toString())).as("seed " + SEED + " round " + round).isEmpty();
        }
    }
}
