package dev.atrium.identity.control.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

import org.junit.jupiter.api.Test;

import dev.atrium.platform.kv.InMemoryKeyValueStore;
import dev.atrium.platform.time.MovableClock;

class AuthorizationStatesTest {

    private static final String REDIRECT = "https://atrium.example/auth/acme/callback";

    private final MovableClock clock = new MovableClock(Clock.fixed(Instant.parse("2026-11-22T10:00:00Z"),
            ZoneOffset.UTC));
    // the store keeps its own time, so expiry is seen to be the application clock's decision
    private final InMemoryKeyValueStore store = new InMemoryKeyValueStore(Clock.fixed(
            Instant.parse("2026-11-22T10:00:00Z"), ZoneOffset.UTC));
    private final AuthorizationStates states = new AuthorizationStates(store, clock);

    @Test
    void whenIssuedThenConsumedOnceWithItsVerifierNonceAndRedirect() {
        var issued = states.issue("acme", REDIRECT, null);

        var consumed = states.consume("acme", issued.state());

        assertThat(consumed).contains(issued);
        assertThat(consumed.get().linking()).isFalse();
        assertThat(issued.codeVerifier()).isNotEqualTo(issued.state()).isNotEqualTo(issued.nonce());
        assertThat(states.consume("acme", issued.state())).isEmpty();
    }

    @Test
    void whenStateIsUnknownBlankOrOverlongThenEmpty() {
        states.issue("acme", REDIRECT, null);

        assertThat(states.consume("acme", "not-a-state")).isEmpty();
        assertThat(states.consume("acme", "")).isEmpty();
        assertThat(states.consume("acme", null)).isEmpty();
        assertThat(states.consume("acme", "x".repeat(500))).isEmpty();
    }

    @Test
    void whenPresentedToAnotherProviderThenRefusedAndSpent() {
        var issued = states.issue("acme", REDIRECT, null);

        assertThat(states.consume("other", issued.state())).isEmpty();
        assertThat(states.consume("acme", issued.state())).isEmpty();
    }

    @Test
    void whenTenMinutesHavePassedByTheApplicationClockThenExpired() {
        var fresh = states.issue("acme", REDIRECT, null);
        var stale = states.issue("acme", REDIRECT, null);

        clock.advance(Duration.ofMinutes(10).minusSeconds(1));
        assertThat(states.consume("acme", fresh.state())).isPresent();
        clock.advance(Duration.ofSeconds(1));
        assertThat(states.consume("acme", stale.state())).isEmpty();
    }

    @Test
    void whenLinkingThenTheUserIsRemembered() {
        var issued = states.issue("acme", REDIRECT, 42L);

        var consumed = states.consume("acme", issued.state()).orElseThrow();

        assertThat(consumed.linking()).isTrue();
        assertThat(consumed.linkUserId()).isEqualTo(42L);
        assertThat(consumed.issuedAt()).isEqualTo(clock.instant());
    }

    @Test
    void whenStoredThenOnlyAHashOfTheStateNamesTheEntryAndTheStoreExpiresIt() {
        var issued = states.issue("acme", REDIRECT, null);

        assertThat(store.get("oauth-state:" + issued.state())).isEmpty();
        assertThat(store.ttl("oauth-state:" + dev.atrium.identity.control.Hashes.sha256(issued.state())))
                .hasValueSatisfying(ttl -> assertThat(ttl).isLessThanOrEqualTo(AuthorizationStates.LIFETIME));
    }
}
