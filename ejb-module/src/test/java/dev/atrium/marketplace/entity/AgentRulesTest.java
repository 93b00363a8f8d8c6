package dev.atrium.marketplace.entity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

import dev.atrium.marketplace.entity.checks.SmokeStatus;
import dev.atrium.marketplace.entity.quality.RankingScore;
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
        return Agent.submitted(UUID.randomUUID(), 7, card("1.0.0"), SmokeStatus.NOT_RUN, NOW);
    }

    private static AgentVersion version(Agent agent, String version) {
        return new AgentVersion(agent.id(), 7, card(version), null, SmokeStatus.PASSED, null, new float[] {1, 0}, "m",
                Duration.ofHours(24), NOW);
    }

    /** Approves a new version of the agent, as review does. */
    private static Agent.Approval approve(Agent agent, String version) {
        AgentVersion v = version(agent, version);
        v.approve(1, null, NOW);
        return agent.approve(v, card(version), NOW);
    }

    private static Agent listed() {
        Agent agent = agent();
        approve(agent, "1.0.0");
        return agent;
    }

    @Test
    void whenSubmittedThenPendingUnverifiedAndNotTested() {
        Agent agent = agent();

        assertThat(agent.status()).isEqualTo(AgentStatus.PENDING);
        assertThat(agent.trustLevel()).isEqualTo(TrustLevel.UNVERIFIED);
        assertThat(agent.smokeStatus()).isEqualTo(SmokeStatus.NOT_RUN);
        assertThat(agent.capabilitiesJson()).isEqualTo("[\"summarize\"]");
        assertThat(agent.currentVersionId()).isNull();
        assertThat(agent.rolloutState()).isEqualTo(RolloutState.NONE);
    }

    @Test
    void whenApprovedThenActiveServingThatVersionAndStillUnverified() {
        Agent agent = agent();
        AgentVersion first = version(agent, "1.0.0");

        assertThat(agent.approve(first, card("1.0.0"), NOW)).isEqualTo(Agent.Approval.LISTED);

        assertThat(agent.status()).isEqualTo(AgentStatus.ACTIVE);
        assertThat(agent.currentVersionId()).isEqualTo(first.id());
        assertThat(agent.smokeStatus()).isEqualTo(SmokeStatus.PASSED);
        assertThat(agent.trustLevel()).isEqualTo(TrustLevel.UNVERIFIED);
    }

    @Test
    void whenCommunityIsEarnedThenOnlyAnUnverifiedAgentMovesAndAgainChangesNothing() {
        Agent agent = listed();

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
            Agent agent = listed();
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
        approve(agent, "1.0.0");
        agent.takeDown(NOW);
        assertThatThrownBy(() -> approve(agent, "1.0.1")).isInstanceOf(BusinessException.class);
        assertThatThrownBy(() -> agent.versionRejected(NOW)).isInstanceOf(BusinessException.class);
    }

    @Test
    void whenAVersionOfAnotherAgentIsApprovedThenRefused() {
        Agent agent = agent();
        AgentVersion foreign = version(agent(), "1.0.0");

        assertThatThrownBy(() -> agent.approve(foreign, card("1.0.0"), NOW))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void whenTakenDownAndResubmittedThenPendingAgainShowingTheNewVersion() {
        Agent agent = listed();
        agent.takeDown(NOW);

        AgentStatus before = agent.newVersion(card("1.0.1"), SmokeStatus.NOT_RUN, NOW);

        assertThat(before).isEqualTo(AgentStatus.SUSPENDED);
        assertThat(agent.status()).isEqualTo(AgentStatus.PENDING);
        assertThat(agent.version()).isEqualTo(new SemanticVersion(1, 0, 1));
    }

    @Test
    void whenAListedAgentGetsANewVersionThenItKeepsServingAndShowingTheCurrentOne() {
        Agent agent = listed();
        UUID current = agent.currentVersionId();

        AgentStatus before = agent.newVersion(card("1.1.0"), SmokeStatus.NOT_RUN, NOW);

        assertThat(before).isEqualTo(AgentStatus.ACTIVE);
        assertThat(agent.status()).isEqualTo(AgentStatus.ACTIVE);
        assertThat(agent.version()).isEqualTo(new SemanticVersion(1, 0, 0));
        assertThat(agent.currentVersionId()).isEqualTo(current);
    }

    @Test
    void whenAListedAgentsNewVersionIsRejectedThenTheAgentStaysListed() {
        Agent agent = listed();

        assertThat(agent.versionRejected(NOW)).isEqualTo(AgentStatus.ACTIVE);
        assertThat(agent.status()).isEqualTo(AgentStatus.ACTIVE);
    }

    @Test
    void whenAListedAgentsNewVersionIsApprovedThenItRollsOutToTenPercentThenFiftyThenAll() {
        Agent agent = listed();
        UUID first = agent.currentVersionId();
        AgentVersion second = version(agent, "1.1.0");
        second.approve(1, null, NOW);

        assertThat(agent.approve(second, card("1.1.0"), NOW)).isEqualTo(Agent.Approval.ROLLOUT_STARTED);
        assertThat(agent.rolloutState()).isEqualTo(RolloutState.ROLLING_OUT);
        assertThat(agent.rolloutPercent()).isEqualTo(10);
        assertThat(agent.candidateVersionId()).isEqualTo(second.id());
        assertThat(agent.currentVersionId()).isEqualTo(first);
        assertThat(agent.version()).isEqualTo(new SemanticVersion(1, 0, 0));

        Instant later = NOW.plus(Duration.ofHours(24));
        agent.advanceRollout(later);
        assertThat(agent.rolloutPercent()).isEqualTo(50);
        assertThat(agent.rolloutStepAt()).isEqualTo(later);
        assertThatThrownBy(() -> agent.advanceRollout(later)).isInstanceOf(BusinessException.class);

        agent.completeRollout(second, card("1.1.0"), later.plus(Duration.ofHours(24)));
        assertThat(agent.currentVersionId()).isEqualTo(second.id());
        assertThat(agent.candidateVersionId()).isNull();
        assertThat(agent.rolloutState()).isEqualTo(RolloutState.NONE);
        assertThat(agent.rolloutPercent()).isZero();
        assertThat(agent.version()).isEqualTo(new SemanticVersion(1, 1, 0));
    }

    @Test
    void whenARolloutIsRolledBackThenTheCurrentVersionServesEveryoneAgain() {
        Agent agent = listed();
        UUID first = agent.currentVersionId();
        approve(agent, "2.0.0");
        UUID candidate = agent.candidateVersionId();

        assertThat(agent.rollBack(NOW)).isEqualTo(candidate);
        assertThat(agent.currentVersionId()).isEqualTo(first);
        assertThat(agent.rolloutState()).isEqualTo(RolloutState.NONE);
        assertThatThrownBy(() -> agent.rollBack(NOW)).isInstanceOf(BusinessException.class);
    }

    @Test
    void whenARolloutIsPausedThenItNeitherAdvancesNorPausesAgainUntilResumedWithAFreshStep() {
        Agent agent = listed();
        approve(agent, "1.1.0");
        agent.pauseRollout(NOW);

        assertThat(agent.rolloutState()).isEqualTo(RolloutState.PAUSED);
        assertThatThrownBy(() -> agent.advanceRollout(NOW)).isInstanceOf(BusinessException.class);
        assertThatThrownBy(() -> agent.pauseRollout(NOW)).isInstanceOf(BusinessException.class);
        Instant later = NOW.plus(Duration.ofHours(5));
        agent.resumeRollout(later);
        assertThat(agent.rolloutState()).isEqualTo(RolloutState.ROLLING_OUT);
        assertThat(agent.rolloutStepAt()).isEqualTo(later);
        assertThatThrownBy(() -> agent.resumeRollout(later)).isInstanceOf(BusinessException.class);
    }

    @Test
    void whenANewerVersionIsApprovedDuringARolloutThenItReplacesTheCandidateFromTheFirstStep() {
        Agent agent = listed();
        approve(agent, "1.1.0");
        agent.advanceRollout(NOW);
        AgentVersion third = version(agent, "1.2.0");
        third.approve(1, null, NOW);

        agent.approve(third, card("1.2.0"), NOW);

        assertThat(agent.candidateVersionId()).isEqualTo(third.id());
        assertThat(agent.rolloutPercent()).isEqualTo(10);
    }

    @Test
    void whenResubmittedWithoutAHigherVersionThenConflict() {
        Agent agent = agent();

        assertThatThrownBy(() -> agent.newVersion(card("1.0.0"), SmokeStatus.NOT_RUN, NOW))
                .hasMessageContaining("must be higher");
        assertThatThrownBy(() -> agent.newVersion(card("0.9.9"), SmokeStatus.NOT_RUN, NOW))
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

    @Test
    void whenRatedThenTheSpecsIntegerIsTheMeanRoundedHalfUpAndRankingUsesTheExactMean() {
        Agent agent = listed();
        double before = agent.rankingScore();

        agent.rated(3.5, 2, NOW);
        assertThat(agent.avgRating()).isEqualTo(4);
        assertThat(agent.avgRatingExact()).isEqualTo(3.5);
        assertThat(agent.reviewCount()).isEqualTo(2);
        assertThat(agent.rankingScore()).isCloseTo(before + 0.3 * 3.5 / 5, Offset.offset(1e-9));
        agent.rated(4.49, 100, NOW);
        assertThat(agent.avgRating()).isEqualTo(4);
        agent.rated(1, 1, NOW);
        assertThat(agent.avgRating()).isEqualTo(1);
        agent.rated(0, 0, NOW);
        assertThat(agent.avgRating()).isZero();
        assertThatThrownBy(() -> agent.rated(0.5, 1, NOW)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> agent.rated(5.1, 1, NOW)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> agent.rated(3, 0, NOW)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void whenCapabilityEmbeddingsAreStoredThenTheyReadBackPerCapabilityOnlyForTheSameModelAndCount() {
        AgentVersion v = version(agent(), "1.0.0");
        assertThat(v.capabilityEmbeddings(List.of("summarize"), "m")).isEmpty();

        v.embedCapabilities(List.of(new float[] {1, 2, 3}, new float[] {4, 5, 6}));

        var read = v.capabilityEmbeddings(List.of("summarize", "translate"), "m").orElseThrow();
        assertThat(read.keySet()).containsExactly("summarize", "translate");
        assertThat(read.get("translate")).containsExactly(4, 5, 6);
        assertThat(v.capabilityEmbeddings(List.of("summarize", "translate"), "other")).isEmpty();
        assertThat(v.capabilityEmbeddings(List.of("a", "b", "c", "d"), "m")).isEmpty();
        assertThatThrownBy(() -> v.embedCapabilities(List.of(new float[] {1}, new float[] {1, 2})))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
