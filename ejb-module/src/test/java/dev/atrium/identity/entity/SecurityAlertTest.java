package dev.atrium.identity.entity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;

import org.junit.jupiter.api.Test;

class SecurityAlertTest {

    private static final Instant T0 = Instant.parse("2026-11-23T10:00:00Z");

    @Test
    void whenRaisedThenOpenWithOneOccurrence() {
        var alert = new SecurityAlert("refresh_frequency", "user:7", "31 refreshes", T0);
        assertThat(alert.status()).isEqualTo(SecurityAlert.OPEN);
        assertThat(alert.count()).isEqualTo(1);
        assertThat(alert.firstSeen()).isEqualTo(T0).isEqualTo(alert.lastSeen());
    }

    @Test
    void whenSeenAgainThenCountedAndLastSeenMoves() {
        var alert = new SecurityAlert("k", "all", "d", T0);
        alert.seenAgain(T0.plusSeconds(60));
        alert.seenAgain(T0.plusSeconds(30));
        assertThat(alert.count()).isEqualTo(3);
        assertThat(alert.lastSeen()).isEqualTo(T0.plusSeconds(60));
        assertThat(alert.firstSeen()).isEqualTo(T0);
    }

    @Test
    void whenRepeatsAreFoldedInThenCountedAtOnceAndLastSeenKeepsTheLatest() {
        var alert = new SecurityAlert("k", "all", "d", T0);
        alert.seenAgain(T0.plusSeconds(90), 41);
        alert.seenAgain(T0.plusSeconds(10), 2);
        assertThat(alert.count()).isEqualTo(44);
        assertThat(alert.lastSeen()).isEqualTo(T0.plusSeconds(90));
        assertThatThrownBy(() -> alert.seenAgain(T0, 0)).isInstanceOf(IllegalArgumentException.class);
        alert.seenAgain(T0, Long.MAX_VALUE);
        assertThat(alert.count()).isEqualTo(Integer.MAX_VALUE);
    }

    @Test
    void whenAcknowledgedTwiceThenTheFirstAcknowledgementIsKept() {
        var alert = new SecurityAlert("k", "all", "d", T0);
        assertThat(alert.acknowledge(1L, T0.plusSeconds(5))).isTrue();
        assertThat(alert.acknowledge(2L, T0.plusSeconds(9))).isFalse();
        assertThat(alert.status()).isEqualTo(SecurityAlert.ACKNOWLEDGED);
        assertThat(alert.acknowledgedBy()).isEqualTo(1L);
        assertThat(alert.acknowledgedAt()).isEqualTo(T0.plusSeconds(5));
    }

    @Test
    void whenTextIsTooLongThenItIsCutToTheColumns() {
        var alert = new SecurityAlert("k".repeat(80), "s".repeat(300), "d".repeat(900), T0);
        assertThat(alert.kind()).hasSize(50);
        assertThat(alert.subject()).hasSize(100);
        assertThat(alert.details()).hasSize(SecurityAlert.DETAILS_MAX);
    }

    @Test
    void whenKindOrSubjectIsMissingThenRefused() {
        assertThatThrownBy(() -> new SecurityAlert(" ", "all", "d", T0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SecurityAlert("k", null, "d", T0)).isInstanceOf(IllegalArgumentException.class);
    }
}
