package dev.atrium.marketplace.control.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;

import javax.sql.DataSource;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.atrium.identity.control.login.AlertService;
import dev.atrium.identity.entity.SecurityAlert;
import dev.atrium.marketplace.control.AgentChanges;
import dev.atrium.marketplace.control.Requester;
import dev.atrium.marketplace.control.UsageRecorded;
import dev.atrium.marketplace.control.trust.Trusts;
import dev.atrium.marketplace.entity.Agent;
import dev.atrium.marketplace.entity.AgentCard;
import dev.atrium.marketplace.entity.AgentVersion;
import dev.atrium.marketplace.entity.Pricing;
import dev.atrium.marketplace.entity.SemanticVersion;
import dev.atrium.marketplace.entity.checks.SmokeStatus;
import dev.atrium.marketplace.entity.runtime.AgentRun;
import dev.atrium.marketplace.entity.runtime.AgentUsage;
import dev.atrium.marketplace.entity.runtime.RunStatus;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.events.ApplicationEvent;
import dev.atrium.platform.persistence.TestDatabases;
import dev.atrium.platform.query.ListQuery;
import dev.atrium.platform.time.MovableClock;

/**
 * The usage recorder and the run reads on the JPA provider the server uses, over H2 in PostgreSQL mode (V21 on a
 * second database; {@code -Datrium.test.postgres-url=...} runs it against an empty PostgreSQL): one transaction
 * writes the run, the priced usage record and its event, and counts the call without touching the agent's version.
 */
class UsageRecorderPersistenceTest {

    private static final Instant T0 = Instant.parse("2026-11-23T10:00:00Z");
    private static final long AUTHOR = 7;
    private static final long CALLER = 42;

    private static EntityManagerFactory factory;

    private final MovableClock clock = new MovableClock(Clock.fixed(T0, ZoneOffset.UTC));
    private final List<ApplicationEvent> published = new ArrayList<>();

    @BeforeAll
    static void migrate() {
        DataSource dataSource = TestDatabases.dataSource("usage");
        TestDatabases.migrate(dataSource);
        factory = TestDatabases.entityManagers(dataSource);
    }


    @AfterAll
    static void close() {
        factory.close();
    }

    private record Services(EntityManager em, UsageRecorder recorder, RunService runs) {
    }

    private <T> T inTransaction(Function<Services, T> work) {
        return TestDatabases.inTransaction(factory, em -> work.apply(services(em)));
    }

    /** The services wired over one persistence context. */
    private Services services(EntityManager em) {
        var trust = Trusts.service(em, clock, new AgentChanges() {
            @Override
            public void changed(Agent agent) {
                // the search index is not part of this test
            }
        }, new AlertService() {
            @Override
            public Optional<SecurityAlert> raise(String kind, String subject, String details) {
                return Optional.empty();
            }
        });
        var recorder = new UsageRecorder();
        recorder.em = em;
        recorder.clock = clock;
        recorder.trust = trust;
        recorder.events = published::add;
        var runs = new RunService();
        runs.em = em;
        return new Services(em, recorder, runs);
    }

    private UUID listed() {
        UUID id = UUID.randomUUID();
        var card = new AgentCard("{}", "agent-" + id, "Agent", SemanticVersion.parse("1.0.0"), "Does things",
                "tools", List.of(), List.of("things"), "{}", "{}", null, null, List.of("python3", "main.py"), 256, 30,
                false, 3.0, null, 0);
        inTransaction(s -> {
            Agent agent = Agent.submitted(id, AUTHOR, card, SmokeStatus.NOT_RUN, clock.instant());
            s.em().persist(agent);
            s.em().flush();
            var version = new AgentVersion(id, AUTHOR, card, null, SmokeStatus.NOT_RUN, null, null, null,
                    Duration.ofHours(24), clock.instant());
            s.em().persist(version);
            s.em().flush();
            version.approve(AUTHOR, null, clock.instant());
            agent.approve(version, card, clock.instant());
            return null;
        });
        return id;
    }

    private AgentUsage record(UUID agent, boolean succeeded, Pricing pricing) {
        return record(agent, succeeded, pricing.decide(false, false));
    }

    private AgentUsage record(UUID agent, boolean succeeded, Pricing.Charge charge) {
        UUID runId = UUID.randomUUID();
        var run = new AgentRun.Facts(runId, agent, "1.0.0", CALLER, succeeded ? RunStatus.SUCCEEDED : RunStatus.FAILED,
                succeeded ? null : "The agent exited with code 3", succeeded ? 0 : 3, 1500, "{\"text\":\"[email]\"}",
                "{\"result\":\"ok\"}", "log [email]", List.of());
        var usage = new AgentUsage.Facts(runId, CALLER, agent, "1.0.0", 300, 700, 1.5, new BigDecimal("0.0004"),
                UsageRecorder.computeCost(1.5, new BigDecimal("0.00002")), succeeded, null, charge, null, null);
        return inTransaction(s -> s.recorder().record(run, usage));
    }

    @Test
    void whenARunIsRecordedThenTheUsageIsPricedAnnouncedAndCountedWithoutBumpingTheVersion() {
        UUID agent = listed();
        long versionBefore = inTransaction(s -> (Long) s.em().createNativeQuery(
                "SELECT row_version FROM agents WHERE id = ?").setParameter(1, agent).getSingleResult());

        var usage = record(agent, true, Pricing.of("{\"model\":\"per_token\",\"price_usd\":0.002}"));

        assertThat(usage.priceCharged()).isEqualByComparingTo("0.002000");
        assertThat(usage.developerShare()).isEqualByComparingTo("0.001400");
        assertThat(usage.costCompute()).isEqualByComparingTo("0.000030");
        assertThat(published).singleElement().isEqualTo(new UsageRecorded(usage.id()));
        var stored = inTransaction(s -> s.em().find(AgentUsage.class, usage.id()));
        assertThat(stored.priceCharged()).isEqualByComparingTo("0.002");
        assertThat(stored.costLlm()).isEqualByComparingTo("0.0004");
        assertThat(stored.pricingModel()).isEqualTo("per_token");
        var after = inTransaction(s -> s.em().find(Agent.class, agent));
        assertThat(after.totalCalls()).isEqualTo(1);
        long versionAfter = inTransaction(s -> (Long) s.em().createNativeQuery(
                "SELECT row_version FROM agents WHERE id = ?").setParameter(1, agent).getSingleResult());
        assertThat(versionAfter).isEqualTo(versionBefore);
    }

    @Test
    void whenAFreemiumAgentIsCalledThenItsFreeCallsAreTakenOncePerCalendarMonthAndGivenBack() {
        UUID agent = listed();
        var freemium = Pricing.of("{\"model\":\"freemium\",\"price_usd\":0.05,\"free_quota\":2}");
        var admissions = new Admissions();
        admissions.clock = clock;
        java.util.function.Supplier<Boolean> take = () -> inTransaction(s -> {
            admissions.em = s.em();
            return admissions.takeFreeSlot(CALLER, agent, admissions.month(), freemium.freeQuota());
        });

        assertThat(take.get()).isTrue();
        assertThat(take.get()).isTrue();
        assertThat(take.get()).as("the month's two free calls are taken").isFalse();
        inTransaction(s -> {
            admissions.em = s.em();
            admissions.giveFreeSlotBack(CALLER, agent, admissions.month());
            return null;
        });
        assertThat(take.get()).as("a refused or failed call gave its free call back").isTrue();
        assertThat(record(agent, true, freemium.decide(true, false)).priceCharged()).isZero();
        assertThat(record(agent, true, freemium.decide(false, false)).priceCharged()).isEqualByComparingTo("0.05");
        clock.advance(Duration.ofDays(8));
        assertThat(take.get()).as("December").isTrue();
    }

    @Test
    void whenTwoCallsClaimTheSameSubscriptionMonthThenOnePaysUntilItGivesTheMonthBack() {
        UUID agent = listed();
        var admissions = new Admissions();
        admissions.clock = clock;
        UUID first = UUID.randomUUID();
        UUID second = UUID.randomUUID();
        java.util.function.Function<UUID, Boolean> claim = run -> inTransaction(s -> {
            admissions.em = s.em();
            return admissions.claimFeeMonth(CALLER, agent, admissions.month(), run);
        });

        assertThat(claim.apply(first)).isTrue();
        assertThat(claim.apply(second)).as("the month is being paid by the first call").isFalse();
        inTransaction(s -> {
            admissions.em = s.em();
            admissions.releaseFeeMonth(CALLER, agent, admissions.month(), second);
            return null;
        });
        assertThat(claim.apply(second)).as("only the paying call gives the month back").isFalse();
        inTransaction(s -> {
            admissions.em = s.em();
            admissions.releaseFeeMonth(CALLER, agent, admissions.month(), first);
            return null;
        });
        assertThat(claim.apply(second)).isTrue();
    }

    @Test
    void whenAFailedRunIsRecordedThenItCostsNothing() {
        UUID agent = listed();

        var usage = record(agent, false, Pricing.of("{\"model\":\"per_call\",\"price_usd\":1}"));

        assertThat(usage.priceCharged()).isZero();
        assertThat(usage.developerShare()).isZero();
        assertThat(usage.succeeded()).isFalse();
    }

    @Test
    void whenRunsAreReadThenOnlyTheCallerSeesOneAndOnlyTheAuthorOrAReviewerListsThem() {
        UUID agent = listed();
        var usage = record(agent, true, Pricing.FREE);

        var mine = inTransaction(s -> s.runs().mine(usage.runId(), CALLER));
        assertThat(mine.inputJson()).contains("[email]");
        assertThatThrownBy(() -> inTransaction(s -> s.runs().mine(usage.runId(), AUTHOR)))
                .isInstanceOf(BusinessException.class);
        assertThat(inTransaction(s -> s.runs().ofAgent(agent, new Requester(AUTHOR, false), ListQuery.firstPage()))
                .items()).extracting(AgentRun::id).containsExactly(usage.runId());
        assertThat(inTransaction(s -> s.runs().ofAgent(agent, new Requester(1L, true), ListQuery.firstPage()))
                .items()).hasSize(1);
        assertThatThrownBy(() -> inTransaction(s -> s.runs().ofAgent(agent, new Requester(CALLER, false),
                ListQuery.firstPage()))).isInstanceOf(BusinessException.class);
    }
}
