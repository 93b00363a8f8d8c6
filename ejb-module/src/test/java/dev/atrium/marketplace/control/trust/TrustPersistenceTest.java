package dev.atrium.marketplace.control.trust;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Function;

import javax.sql.DataSource;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.atrium.identity.control.UserService;
import dev.atrium.identity.control.login.AlertService;
import dev.atrium.identity.entity.SecurityAlert;
import dev.atrium.marketplace.control.AgentChanges;
import dev.atrium.marketplace.control.AgentRepositories;
import dev.atrium.marketplace.control.MarketplaceConfig;
import dev.atrium.marketplace.control.submission.ReviewService;
import dev.atrium.marketplace.control.submission.Reviews;
import dev.atrium.marketplace.entity.Agent;
import dev.atrium.marketplace.entity.AgentAction;
import dev.atrium.marketplace.entity.AgentCard;
import dev.atrium.marketplace.entity.AgentEvent;
import dev.atrium.marketplace.entity.AgentStatus;
import dev.atrium.marketplace.entity.AgentVersion;
import dev.atrium.marketplace.entity.SemanticVersion;
import dev.atrium.marketplace.entity.TrustLevel;
import dev.atrium.marketplace.entity.checks.SmokeStatus;
import dev.atrium.marketplace.entity.trust.AgentIncident;
import dev.atrium.marketplace.entity.trust.ReportReason;
import dev.atrium.marketplace.entity.trust.TakedownReason;
import dev.atrium.platform.config.ConfigDefaults;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;
import dev.atrium.platform.http.RateLimiter;
import dev.atrium.platform.persistence.TestDatabases;
import dev.atrium.platform.time.MovableClock;

/**
 * The trust service's promotion, incidents, the reports' takedown and the reinstatement on the JPA provider the server
 * uses, over H2 in PostgreSQL mode ({@code -Datrium.test.postgres-url=jdbc:postgresql://...} runs it against an empty
 * PostgreSQL). Calls are usage rows plus the agent's counter raised by a bulk UPDATE, as the gateway leaves them;
 * identity's answer (who is verified) and the rate limiter are stand-ins.
 */
class TrustPersistenceTest {

    private static final Instant T0 = Instant.parse("2026-11-23T10:00:00Z");
    private static final long AUTHOR = 7;
    private static final long REVIEWER = 1;
    /** A user whose e-mail address was never verified, or whose account was deactivated. */
    private static final long UNVERIFIED = 666;

    private static EntityManagerFactory factory;

    private final MovableClock clock = new MovableClock(Clock.fixed(T0, ZoneOffset.UTC));
    private final List<String> alerts = new ArrayList<>();
    private final List<UUID> announced = new ArrayList<>();
    private final Map<String, Integer> hits = new HashMap<>();

    @BeforeAll
    static void migrate() throws SQLException {
        DataSource dataSource = TestDatabases.dataSource("trust");
        TestDatabases.migrate(dataSource);
        factory = TestDatabases.entityManagers(dataSource);
    }


    @AfterAll
    static void close() {
        factory.close();
    }

    /** The services wired as the container would, with the alert and the index announcement captured. */
    private record Services(EntityManager em, TrustService trust, ReportService reports, ReviewService reviews) {
    }

    private <T> T inTransaction(Function<Services, T> work) {
        return TestDatabases.inTransaction(factory, em -> work.apply(services(em)));
    }

    /** The services wired over one persistence context. */
    private Services services(EntityManager em) {
        var changes = new AgentChanges() {
            @Override
            public void changed(Agent agent) {
                announced.add(agent.id());
            }
        };
        var users = new UserService() {
            @Override
            public Set<Long> verified(Collection<Long> ids) {
                var verified = new HashSet<>(ids);
                verified.remove(UNVERIFIED);
                return verified;
            }
        };
        var trust = new TrustService();
        trust.em = em;
        trust.users = users;
        trust.clock = clock;
        trust.changes = changes;
        trust.config = ConfigDefaults.of(MarketplaceConfig.class);
        var alertService = new AlertService() {
            @Override
            public Optional<SecurityAlert> raise(String kind, String subject, String details) {
                alerts.add(kind + " " + subject + " " + details);
                return Optional.empty();
            }
        };
        trust.alerts = alertService;
        var repository = AgentRepositories.of(em);
        var reviews = Reviews.service(em, repository, changes, clock);
        var reports = new ReportService();
        reports.em = em;
        reports.reviews = reviews;
        reports.users = users;
        reports.alerts = alertService;
        reports.limiter = new RateLimiter() {
            @Override
            public Decision hit(String bucket, int limit, Duration window) {
                int count = hits.merge(bucket, 1, Integer::sum);
                return new Decision(limit, Math.max(0, limit - count), 0, count <= limit, 60);
            }
        };
        reports.clock = clock;
        reports.config = ConfigDefaults.of(MarketplaceConfig.class);
        return new Services(em, trust, reports, reviews);
    }

    private void run(Consumer<Services> work) {
        inTransaction(s -> {
            work.accept(s);
            return null;
        });
    }

    private UUID listed() {
        UUID id = UUID.randomUUID();
        var card = new AgentCard("{}", "agent-" + id, "Agent", SemanticVersion.parse("1.0.0"), "Does things",
                "tools", List.of(), List.of("things"), "{}", "{}", null, null, List.of("python3", "main.py"), 256, 30,
                false, 3.0, null, 0);
        run(s -> {
            Agent agent = Agent.submitted(id, AUTHOR, card, SmokeStatus.NOT_RUN, clock.instant());
            s.em().persist(agent);
            s.em().flush();
            var version = new AgentVersion(id, AUTHOR, card, null, SmokeStatus.NOT_RUN, null, null, null,
                    Duration.ofHours(24), clock.instant());
            s.em().persist(version);
            s.em().flush();
            version.approve(AUTHOR, null, clock.instant());
            agent.approve(version, card, clock.instant());
            s.em().persist(new AgentEvent(agent, AgentAction.APPROVED, AgentStatus.PENDING, REVIEWER, null, null,
                    clock.instant()));
        });
        return id;
    }

    /** Reviews as reviewers leave them: {@code reviews} ratings averaging {@code rating}. */
    private void reviews(UUID id, int reviews, double rating) {
        run(s -> s.em().createQuery("UPDATE Agent a SET a.avgRatingExact = :rating, a.reviewCount = :reviews "
                        + "WHERE a.id = :id")
                .setParameter("rating", rating).setParameter("reviews", reviews).setParameter("id", id)
                .executeUpdate());
    }

    /** {@code count} calls of the agent by {@code caller}, as the gateway records them: usage rows and the counter. */
    private void calls(UUID id, long caller, int count, boolean succeeded) {
        run(s -> {
            for (int i = 0; i < count; i++) {
                s.em().createNativeQuery("INSERT INTO agent_usage_records (id, run_id, user_id, agent_id, "
                                + "agent_version, recorded_at, tokens_input, tokens_output, execution_time_s, cost_llm, "
                                + "cost_compute, price_charged, developer_share, pricing_model, succeeded) "
                                + "VALUES (?, ?, ?, ?, '1.0.0', ?, 0, 0, 0, 0, 0, 0, 0, 'free', ?)")
                        .setParameter(1, UUID.randomUUID()).setParameter(2, UUID.randomUUID())
                        .setParameter(3, caller).setParameter(4, id)
                        .setParameter(5, java.sql.Timestamp.from(clock.instant())).setParameter(6, succeeded)
                        .executeUpdate();
            }
            s.em().createNativeQuery("UPDATE agents SET total_calls = total_calls + ? WHERE id = ?")
                    .setParameter(1, count).setParameter(2, id).executeUpdate();
        });
    }

    /** {@code each} successful calls by each of {@code callers} distinct verified strangers, ids from 101. */
    private void strangersCall(UUID id, int callers, int each) {
        for (int c = 0; c < callers; c++) {
            calls(id, 101 + c, each, true);
        }
    }

    /** An agent promoted by strangers: 10 callers, 100 calls, 3 reviews averaging 4.5. */
    private void promoted(UUID id) {
        reviews(id, 3, 4.5);
        strangersCall(id, 10, 10);
        run(s -> s.trust().reconsider(id));
        assertThat(agent(id).trustLevel()).isEqualTo(TrustLevel.COMMUNITY);
    }

    private Agent agent(UUID id) {
        return inTransaction(s -> s.em().find(Agent.class, id));
    }

    private List<AgentEvent> history(UUID id, AgentAction action) {
        return inTransaction(s -> s.em().createQuery("SELECT e FROM AgentEvent e WHERE e.agentId = :id "
                        + "AND e.action = :action ORDER BY e.id", AgentEvent.class)
                .setParameter("id", id).setParameter("action", action).getResultList());
    }

    @Test
    void whenTenVerifiedStrangersMakeTheHundredthCallThenPromotedOnceWithTheFiguresInTheHistory() {
        UUID id = listed();
        reviews(id, 3, 4.5);
        strangersCall(id, 9, 11);
        run(s -> s.trust().reconsider(id));
        assertThat(agent(id).trustLevel()).isEqualTo(TrustLevel.UNVERIFIED);

        calls(id, 110, 1, true);
        run(s -> s.trust().reconsider(id));
        run(s -> s.trust().reconsider(id));

        assertThat(agent(id).trustLevel()).isEqualTo(TrustLevel.COMMUNITY);
        var moves = history(id, AgentAction.TRUST_CHANGED);
        assertThat(moves).singleElement().satisfies(e -> {
            assertThat(e.reasonCode()).isEqualTo("unverified_to_community");
            assertThat(e.reason()).isEqualTo("unverified → community: 100 successful calls by 10 distinct verified "
                    + "callers other than the author, 3 reviews averaging 4.5, no security incident");
            assertThat(e.actorId()).isZero();
            assertThat(e.toStatus()).isEqualTo(AgentStatus.ACTIVE);
        });
        assertThat(announced).contains(id);
    }

    @Test
    void whenTheCallsAreTheAuthorsFailedOrByUnverifiedUsersThenTheyDoNotCount() {
        UUID id = listed();
        reviews(id, 5, 5);
        calls(id, AUTHOR, 500, true);
        calls(id, UNVERIFIED, 300, true);
        strangersCall(id, 9, 12);
        for (long failing = 201; failing <= 205; failing++) {
            calls(id, failing, 20, false);
        }
        run(s -> s.trust().reconsider(id));
        assertThat(agent(id).trustLevel()).isEqualTo(TrustLevel.UNVERIFIED);

        calls(id, 301, 1, true);
        run(s -> s.trust().reconsider(id));

        assertThat(agent(id).trustLevel()).isEqualTo(TrustLevel.COMMUNITY);
        assertThat(history(id, AgentAction.TRUST_CHANGED)).singleElement().satisfies(e -> assertThat(e.reason())
                .startsWith("unverified → community: 109 successful calls by 10 distinct verified callers"));
    }

    @Test
    void whenReviewsAreMissingTooFewOrBelowFourThenNoPromotion() {
        UUID id = listed();
        strangersCall(id, 20, 10);
        run(s -> s.trust().reconsider(id));
        assertThat(agent(id).trustLevel()).as("no reviews").isEqualTo(TrustLevel.UNVERIFIED);

        reviews(id, 2, 5);
        run(s -> s.trust().reconsider(id));
        assertThat(agent(id).trustLevel()).as("two reviews").isEqualTo(TrustLevel.UNVERIFIED);

        reviews(id, 3, 3.99);
        run(s -> s.trust().reconsider(id));
        assertThat(agent(id).trustLevel()).as("rated 3.99").isEqualTo(TrustLevel.UNVERIFIED);

        reviews(id, 3, 4);
        run(s -> s.trust().reconsider(id));
        assertThat(agent(id).trustLevel()).isEqualTo(TrustLevel.COMMUNITY);
    }

    @Test
    void whenTheDeploymentLowersTheFiguresThenTheyHold() {
        UUID id = listed();
        reviews(id, 1, 4);
        strangersCall(id, 2, 3);

        run(s -> {
            s.trust().config.trustMinCalls = 6;
            s.trust().config.trustMinDistinctCallers = 2;
            s.trust().config.trustMinReviews = 1;
            s.trust().reconsider(id);
        });

        assertThat(agent(id).trustLevel()).isEqualTo(TrustLevel.COMMUNITY);
    }

    @Test
    void whenAnIncidentIsOnRecordThenNoAutomaticPromotion() {
        UUID id = listed();
        run(s -> s.trust().incident(id, "high_risk_finding", "a private key in the bundle"));
        reviews(id, 5, 5);
        strangersCall(id, 12, 10);

        run(s -> s.trust().reconsider(id));

        assertThat(agent(id).trustLevel()).isEqualTo(TrustLevel.UNVERIFIED);
        assertThat(history(id, AgentAction.TRUST_CHANGED)).isEmpty();
        assertThat(history(id, AgentAction.INCIDENT)).singleElement()
                .satisfies(e -> assertThat(e.reasonCode()).isEqualTo("high_risk_finding"));
    }

    @Test
    void whenAPromotedAgentHasAnIncidentThenUnverifiedRecordedAndAlerted() {
        UUID id = listed();
        promoted(id);

        run(s -> s.trust().incident(id, "contained_hostile_behaviour", "tried to open a socket"));

        Agent agent = agent(id);
        assertThat(agent.trustLevel()).isEqualTo(TrustLevel.UNVERIFIED);
        assertThat(agent.status()).isEqualTo(AgentStatus.ACTIVE);
        assertThat(history(id, AgentAction.TRUST_CHANGED)).extracting(AgentEvent::reasonCode)
                .containsExactly("unverified_to_community", "community_to_unverified");
        List<AgentIncident> incidents = inTransaction(s -> s.em().createQuery(
                "SELECT i FROM AgentIncident i WHERE i.agentId = :id", AgentIncident.class)
                .setParameter("id", id).getResultList());
        assertThat(incidents).singleElement().satisfies(i -> {
            assertThat(i.code()).isEqualTo("contained_hostile_behaviour");
            assertThat(i.reason()).isEqualTo("tried to open a socket");
            assertThat(i.actorId()).isZero();
        });
        assertThat(alerts).singleElement().asString().startsWith(TrustService.ALERT_KIND + " agent:" + id)
                .contains("community → unverified");
    }

    @Test
    void whenTheAgentIsUnknownThenReconsiderIsQuietAndAnIncidentIsNotFound() {
        UUID unknown = UUID.randomUUID();
        run(s -> s.trust().reconsider(unknown));

        assertThatThrownBy(() -> run(s -> s.trust().incident(unknown, "x", "y")))
                .isInstanceOf(BusinessException.class)
                .extracting(e -> ((BusinessException) e).problem()).isEqualTo(Problem.NOT_FOUND);
    }

    @Test
    void whenThreeDistinctCallersReportThenSuspendedPendingReviewWithTrustKept() {
        UUID id = listed();
        promoted(id);
        run(s -> s.reports().report(id, 101, ReportReason.MALICIOUS_CODE, "reads ~/.ssh"));
        run(s -> s.reports().report(id, 102, ReportReason.DATA_EXFILTRATION, "posts my input elsewhere"));
        assertThat(agent(id).status()).isEqualTo(AgentStatus.ACTIVE);

        run(s -> s.reports().report(id, 103, ReportReason.OTHER, "odd traffic"));

        Agent agent = agent(id);
        assertThat(agent.status()).isEqualTo(AgentStatus.SUSPENDED);
        assertThat(agent.trustLevel()).isEqualTo(TrustLevel.COMMUNITY);
        assertThat(history(id, AgentAction.TAKEN_DOWN)).singleElement().satisfies(e -> {
            assertThat(e.reasonCode()).isEqualTo("security_reports");
            assertThat(e.actorId()).isZero();
            assertThat(e.reason()).contains("pending review");
        });
        assertThat(history(id, AgentAction.INCIDENT)).isEmpty();
        assertThat(history(id, AgentAction.TRUST_CHANGED)).extracting(AgentEvent::reasonCode)
                .containsExactly("unverified_to_community");
        assertThat(alerts).singleElement().asString().startsWith(ReportService.ALERT_KIND + " agent:" + id)
                .contains("trust community kept");
        assertThatThrownBy(() -> run(s -> s.reports().report(id, 104, ReportReason.OTHER, "late")))
                .extracting(e -> ((BusinessException) e).problem()).isEqualTo(Problem.NOT_FOUND);
    }

    @Test
    void whenTheReporterNeverCalledTheAgentOrIsUnverifiedThenRefusedAndNothingCounts() {
        UUID id = listed();
        calls(id, UNVERIFIED, 3, true);
        calls(id, 150, 3, false);

        for (long stranger : new long[] {401, 402, 403, 150, UNVERIFIED}) {
            assertThatThrownBy(() -> run(s -> s.reports().report(id, stranger, ReportReason.MALICIOUS_CODE, "x")))
                    .as("reporter %d", stranger)
                    .extracting(e -> ((BusinessException) e).problem()).isEqualTo(Problem.FORBIDDEN);
        }

        assertThat(agent(id).status()).isEqualTo(AgentStatus.ACTIVE);
        long reports = inTransaction(s -> s.em().createQuery("SELECT COUNT(r) FROM AgentReport r "
                + "WHERE r.agentId = :id", Long.class).setParameter("id", id).getSingleResult());
        assertThat(reports).isZero();
    }

    @Test
    void whenAReporterReportsTooOftenThenRateLimited() {
        List<UUID> agents = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            UUID id = listed();
            calls(id, 101, 1, true);
            agents.add(id);
        }
        for (int i = 0; i < 5; i++) {
            UUID id = agents.get(i);
            run(s -> s.reports().report(id, 101, ReportReason.OTHER, "one of many"));
        }

        assertThatThrownBy(() -> run(s -> s.reports().report(agents.get(5), 101, ReportReason.OTHER, "sixth")))
                .satisfies(e -> {
                    assertThat(((BusinessException) e).problem()).isEqualTo(Problem.RATE_LIMITED);
                    assertThat(((BusinessException) e).headers()).containsKey("Retry-After");
                });
    }

    @Test
    void whenReinstatedThenActiveWithItsTrustAndReportsCountAfresh() {
        UUID id = listed();
        promoted(id);
        for (long reporter = 101; reporter <= 103; reporter++) {
            long by = reporter;
            run(s -> s.reports().report(id, by, ReportReason.MALICIOUS_CODE, "reads ~/.ssh"));
        }
        assertThat(agent(id).status()).isEqualTo(AgentStatus.SUSPENDED);
        clock.advance(Duration.ofHours(2));

        run(s -> s.reviews().reinstate(id, REVIEWER, "reports unfounded: the agent reads its own files only"));

        Agent agent = agent(id);
        assertThat(agent.status()).isEqualTo(AgentStatus.ACTIVE);
        assertThat(agent.trustLevel()).isEqualTo(TrustLevel.COMMUNITY);
        assertThat(history(id, AgentAction.REINSTATED)).singleElement().satisfies(e -> {
            assertThat(e.actorId()).isEqualTo(REVIEWER);
            assertThat(e.reasonCode()).isEqualTo("security_reports");
            assertThat(e.fromStatus()).isEqualTo(AgentStatus.SUSPENDED);
            assertThat(e.toStatus()).isEqualTo(AgentStatus.ACTIVE);
            assertThat(e.reason()).contains("trust community").contains("reports unfounded");
        });
        clock.advance(Duration.ofMinutes(1));
        run(s -> s.reports().report(id, 104, ReportReason.OTHER, "a fourth report"));
        run(s -> s.reports().report(id, 101, ReportReason.OTHER, "the first reporter again"));
        assertThat(agent(id).status()).isEqualTo(AgentStatus.ACTIVE);
        assertThatThrownBy(() -> run(s -> s.reports().report(id, 104, ReportReason.OTHER, "twice")))
                .extracting(e -> ((BusinessException) e).problem()).isEqualTo(Problem.CONFLICT);
        assertThatThrownBy(() -> run(s -> s.reviews().reinstate(id, REVIEWER, "again")))
                .extracting(e -> ((BusinessException) e).problem()).isEqualTo(Problem.CONFLICT);

        run(s -> s.reports().report(id, 105, ReportReason.OTHER, "the third since"));

        assertThat(agent(id).status()).isEqualTo(AgentStatus.SUSPENDED);
        assertThat(agent(id).trustLevel()).isEqualTo(TrustLevel.COMMUNITY);
    }

    @Test
    void whenTheTakedownWasAHighRiskFindingThenNoReinstatementAndApproveNamesTheWay() {
        UUID id = listed();
        run(s -> s.reviews().takeDown(id, 0, TakedownReason.HIGH_RISK_FINDING,
                "a private key"));

        assertThatThrownBy(() -> run(s -> s.reviews().reinstate(id, REVIEWER, "looks fine")))
                .satisfies(e -> assertThat(e.getMessage()).contains("high_risk_finding"))
                .extracting(e -> ((BusinessException) e).problem()).isEqualTo(Problem.CONFLICT);
        assertThatThrownBy(() -> run(s -> s.reviews().approve(id, REVIEWER, "ok")))
                .satisfies(e -> assertThat(e.getMessage()).contains("/reinstate"))
                .extracting(e -> ((BusinessException) e).problem()).isEqualTo(Problem.CONFLICT);
        assertThat(agent(id).status()).isEqualTo(AgentStatus.SUSPENDED);
    }

    @Test
    void whenTheSameUserReportsTwiceOrTheAuthorReportsThenRefused() {
        UUID id = listed();
        calls(id, 101, 1, true);
        calls(id, AUTHOR, 1, true);
        run(s -> s.reports().report(id, 101, ReportReason.MALICIOUS_CODE, "reads ~/.ssh"));

        assertThatThrownBy(() -> run(s -> s.reports().report(id, 101, ReportReason.OTHER, "again")))
                .extracting(e -> ((BusinessException) e).problem()).isEqualTo(Problem.CONFLICT);
        assertThatThrownBy(() -> run(s -> s.reports().report(id, AUTHOR, ReportReason.OTHER, "mine")))
                .extracting(e -> ((BusinessException) e).problem()).isEqualTo(Problem.FORBIDDEN);
        assertThat(agent(id).status()).isEqualTo(AgentStatus.ACTIVE);
    }

    @Test
    void whenReportsPredateTheLastApprovalThenTheyDoNotCountTowardsTheTakedown() {
        UUID id = listed();
        strangersCall(id, 3, 1);
        run(s -> s.reports().report(id, 101, ReportReason.MALICIOUS_CODE, "v1 reads ~/.ssh"));
        run(s -> s.reports().report(id, 102, ReportReason.MALICIOUS_CODE, "v1 again"));
        clock.advance(Duration.ofDays(1));
        run(s -> s.em().persist(new AgentEvent(s.em().find(Agent.class, id), AgentAction.APPROVED,
                AgentStatus.PENDING, REVIEWER, null, "fixed", clock.instant())));
        clock.advance(Duration.ofMinutes(1));

        run(s -> s.reports().report(id, 103, ReportReason.OTHER, "one new report"));

        assertThat(agent(id).status()).isEqualTo(AgentStatus.ACTIVE);
    }
}
