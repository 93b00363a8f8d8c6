package dev.atrium.marketplace.entity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;

/** The record's status moves, trust moves, versions, trust spellings and the ranking score. */
class AgentRulesTest {

    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

    private static AgentCard card(String version) {
        return new AgentCard("{}", "pdf-summarizer", "PDF Summarizer", SemanticVersion.parse(version),
                "Summarizes PDFs", "documents", List.of("pdf"), List.of("summarize"), "{}", "{}", null, null,
                List.of("python3", "main.py"), 256, 30, false, 4.0, null, 0);
    }

    private static Agent agent() {
        return Agent.submitted(UUID.randomUUID(), 7, card("1.0.0"), null, SmokeStatus.NOT_RUN, new float[] {1, 0},
                "m", NOW);
    }

    @Test
    void whenSubmittedThenPendingUnverifiedAndNotTested() {
        Agent agent = agent();

        assertThat(agent.status()).isEqualTo(AgentStatus.PENDING);
        assertThat(agent.trustLevel()).isEqualTo(TrustLevel.UNVERIFIED);
        assertThat(agent.smokeStatus()).isEqualTo(SmokeStatus.NOT_RUN);
        assertThat(agent.embedding()).containsExactly(1, 0);
        assertThat(agent.capabilitiesJson()).isEqualTo("[\"summarize\"]");
    }

    @Test
    void whenApprovedThenActiveAndStillUnverified() {
        Agent agent = agent();
        agent.approve(NOW);

        assertThat(agent.status()).isEqualTo(AgentStatus.ACTIVE);
        assertThat(agent.trustLevel()).isEqualTo(TrustLevel.UNVERIFIED);
    }

    @Test
    void whenCommunityIsEarnedThenOnlyAnUnverifiedAgentMovesAndAgainChangesNothing() {
        Agent agent = agent();
        agent.approve(NOW);

        assertThat(agent.earnCommunity()).isTrue();
        assertThat(agent.trustLevel()).isEqualTo(TrustLevel.COMMUNITY);
        assertThat(agent.earnCommunity()).isFalse();
        agent.changeTrust(TrustLevel.OFFICIAL);
        assertThat(agent.earnCommunity()).isFalse();
        assertThat(agent.trustLevel()).isEqualTo(TrustLevel.OFFICIAL);
    }

    @Test
    void whenAnAdministratorMovesTrustThenOneStepUpOrAnyStepDown() {
        for (TrustLevel from : TrustLevel.values()) {
            for (TrustLevel to : TrustLevel.values()) {
                Agent agent = agent();
                while (agent.trustLevel() != from) {
                    agent.changeTrust(TrustLevel.values()[agent.trustLevel().ordinal() + 1]);
                }
                boolean allowed = to != from && to.ordinal() <= from.ordinal() + 1;
                if (allowed) {
                    assertThat(agent.changeTrust(to)).as(from + " → " + to).isEqualTo(from);
                    assertThat(agent.trustLevel()).isEqualTo(to);
                } else {
                    assertThatThrownBy(() -> agent.changeTrust(to)).as(from + " → " + to)
                            .isInstanceOf(BusinessException.class)
                            .extracting(e -> ((BusinessException) e).problem()).isEqualTo(Problem.CONFLICT);
                    assertThat(agent.trustLevel()).isEqualTo(from);
                }
            }
        }
    }

    @Test
    void whenUnverifiedIsMadeOfficialThenRefusedNamingTheWayThroughCommunity() {
        Agent agent = agent();

        assertThatThrownBy(() -> agent.changeTrust(TrustLevel.OFFICIAL)).hasMessageContaining("community first");
        assertThatThrownBy(() -> agent.changeTrust(null)).isInstanceOf(BusinessException.class);
        assertThat(agent.trustLevel()).isEqualTo(TrustLevel.UNVERIFIED);
    }

    @Test
    void whenDemotedThenUnverifiedFromAnyLevelAndTheStatusStays() {
        for (TrustLevel from : TrustLevel.values()) {
            Agent agent = agent();
            agent.approve(NOW);
            while (agent.trustLevel() != from) {
                agent.changeTrust(TrustLevel.values()[agent.trustLevel().ordinal() + 1]);
            }

            assertThat(agent.demote()).isEqualTo(from);
            assertThat(agent.trustLevel()).isEqualTo(TrustLevel.UNVERIFIED);
            assertThat(agent.status()).isEqualTo(AgentStatus.ACTIVE);
        }
    }

    @Test
    void whenAMoveDoesNotFitTheStatusThenConflict() {
        Agent agent = agent();

        assertThatThrownBy(() -> agent.takeDown(NOW)).isInstanceOf(BusinessException.class)
                .extracting(e -> ((BusinessException) e).problem()).isEqualTo(Problem.CONFLICT);
        agent.approve(NOW);
        assertThatThrownBy(() -> agent.approve(NOW)).isInstanceOf(BusinessException.class);
        assertThatThrownBy(() -> agent.reject(NOW)).isInstanceOf(BusinessException.class);
    }

    @Test
    void whenTakenDownAndResubmittedThenPendingAgainWithTheNewVersion() {
        Agent agent = agent();
        agent.approve(NOW);
        agent.takeDown(NOW);

        AgentStatus before = agent.resubmit(card("1.0.1"), null, SmokeStatus.NOT_RUN, new float[] {0, 1}, "m", NOW);

        assertThat(before).isEqualTo(AgentStatus.SUSPENDED);
        assertThat(agent.status()).isEqualTo(AgentStatus.PENDING);
        assertThat(agent.version()).isEqualTo(new SemanticVersion(1, 0, 1));
    }

    @Test
    void whenResubmittedWithoutAHigherVersionThenConflict() {
        Agent agent = agent();

        assertThatThrownBy(() -> agent.resubmit(card("1.0.0"), null, SmokeStatus.NOT_RUN, null, "m", NOW))
                .hasMessageContaining("must be higher");
        assertThatThrownBy(() -> agent.resubmit(card("0.9.9"), null, SmokeStatus.NOT_RUN, null, "m", NOW))
                .isInstanceOf(BusinessException.class);
    }

    @Test
    void whenVersionsAreComparedThenNumericallyNotAsText() {
        assertThat(SemanticVersion.parse("1.10.0")).isGreaterThan(SemanticVersion.parse("1.9.9"));
        assertThat(SemanticVersion.parse("2.0.0")).isGreaterThan(SemanticVersion.parse("1.99.99"));
        assertThatThrownBy(() -> SemanticVersion.parse("1.0")).isInstanceOf(BusinessException.class);
        assertThatThrownBy(() -> SemanticVersion.parse("01.0.0")).isInstanceOf(BusinessException.class);
        assertThatThrownBy(() -> SemanticVersion.parse("1.0.0-beta")).isInstanceOf(BusinessException.class);
    }

    @Test
    void whenTheCardSaysCommunityVerifiedThenTheRecordSaysCommunity() {
        assertThat(TrustLevel.of("community_verified")).isEqualTo(TrustLevel.COMMUNITY);
        assertThat(TrustLevel.of("community")).isEqualTo(TrustLevel.COMMUNITY);
        assertThat(TrustLevel.COMMUNITY.cardValue()).isEqualTo("community_verified");
        assertThat(TrustLevel.OFFICIAL.value()).isEqualTo("official");
    }

    @Test
    void whenRankingThenTheSpecWeightsWithFreshnessHalvingEveryThirtyDays() {
        assertThat(RankingScore.of(5, 1000, 5, NOW, NOW)).isCloseTo(1.0, Offset.offset(1e-9));
        assertThat(RankingScore.of(0, 0, 0, NOW, NOW)).isCloseTo(0.1, Offset.offset(1e-9));
        assertThat(RankingScore.of(2.5, 500, 4, NOW.minus(Duration.ofDays(30)), NOW))
                .isCloseTo(0.4 * 0.5 + 0.2 * 0.5 + 0.3 * 0.8 + 0.1 * 0.5, Offset.offset(1e-9));
        assertThat(RankingScore.of(5, 5000, 5, NOW.minus(Duration.ofDays(3650)), NOW))
                .isCloseTo(0.9, Offset.offset(1e-6));
    }
}
