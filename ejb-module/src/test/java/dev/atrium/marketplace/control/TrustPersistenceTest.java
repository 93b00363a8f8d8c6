package dev.atrium.marketplace.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Function;

import javax.sql.DataSource;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.atrium.identity.control.AlertService;
import dev.atrium.identity.entity.SecurityAlert;
import dev.atrium.marketplace.entity.Agent;
import dev.atrium.marketplace.entity.AgentAction;
import dev.atrium.marketplace.entity.AgentCard;
import dev.atrium.marketplace.entity.AgentEvent;
import dev.atrium.marketplace.entity.AgentIncident;
import dev.atrium.marketplace.entity.AgentStatus;
import dev.atrium.marketplace.entity.AgentVersion;
import dev.atrium.marketplace.entity.ReportReason;
import dev.atrium.marketplace.entity.SemanticVersion;
import dev.atrium.marketplace.entity.SmokeStatus;
import dev.atrium.marketplace.entity.TrustLevel;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;
import dev.atrium.platform.persistence.TestDatabases;
import dev.atrium.platform.time.MovableClock;

/**
 * The trust service's promotion, incidents and the reports' takedown on the JPA provider the server uses, over H2 in
 * PostgreSQL mode ({@code -Datrium.test.postgres-url=jdbc:postgresql://...} runs it against an empty PostgreSQL).
 * Calls are raised by a bulk UPDATE, as a gateway counting usage may do, so the promotion must see them.
 */
class TrustPersistenceTest {

    private static final Instant T0 = Instant.parse("2026-11-23T10:00:00Z");
    private static final long AUTHOR = 7;
    private static final long REVIEWER = 1;

    private static EntityManagerFactory factory;

    private final MovableClock clock = new MovableClock(Clock.fixed(T0, ZoneOffset.UTC));
    private final List<String> alerts = new ArrayList<>();
    private final List<UUID> announced = new ArrayList<>();

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
    private record Services(EntityManager em, TrustService trust, ReportService reports) {
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
        var trust = new TrustService();
        trust.em = em;
        trust.clock = clock;
        trust.changes = changes;
        trust.alerts = new AlertService() {
            @Override
            public Optional<SecurityAlert> raise(String kind, String subject, String details) {
                alerts.add(kind + " " + subject + " " + details);
                return Optional.empty();
            }
        };
        var repository = new AgentRepository();
        repository.em = em;
        var reviews = new ReviewService();
        reviews.em = em;
        reviews.agents = repository;
        reviews.changes = changes;
        reviews.clock = clock;
        var reports = new ReportService();
        reports.em = em;
        reports.reviews = reviews;
        reports.trust = trust;
        reports.clock = clock;
        return new Services(em, trust, reports);
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

    /** Calls and reviews as a gateway and reviewers leave them: {@code rating} 0 means no reviews. */
    private void figures(UUID id, long calls, double rating) {
        run(s -> s.em().createQuery("UPDATE Agent a SET a.totalCalls = :calls, a.avgRatingExact = :rating, "
                        + "a.reviewCount = :reviews WHERE a.id = :id")
                .setParameter("calls", calls).setParameter("rating", rating)
                .setParameter("reviews", rating > 0 ? 2 : 0).setParameter("id", id).executeUpdate());
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
    void whenCallsReachOneHundredThenPromotedToCommunityOnceWithTheMoveInTheHistory() {
        UUID id = listed();
        figures(id, 99, 0);
        run(s -> s.trust().reconsider(id));
        assertThat(agent(id).trustLevel()).isEqualTo(TrustLevel.UNVERIFIED);

        figures(id, 100, 0);
        run(s -> s.trust().reconsider(id));
        run(s -> s.trust().reconsider(id));

        assertThat(agent(id).trustLevel()).isEqualTo(TrustLevel.COMMUNITY);
        var moves = history(id, AgentAction.TRUST_CHANGED);
        assertThat(moves).singleElement().satisfies(e -> {
            assertThat(e.reasonCode()).isEqualTo("unverified_to_community");
            assertThat(e.reason()).startsWith("unverified → community: 100 calls, no reviews yet");
            assertThat(e.actorId()).isZero();
            assertThat(e.toStatus()).isEqualTo(AgentStatus.ACTIVE);
        });
        assertThat(announced).contains(id);
    }

    @Test
    void whenTheAverageRatingIsBelowFourThenNoPromotionAtFourThereIs() {
        UUID id = listed();
        figures(id, 500, 3.99);
        run(s -> s.trust().reconsider(id));
        assertThat(agent(id).trustLevel()).isEqualTo(TrustLevel.UNVERIFIED);

        figures(id, 500, 4);
        run(s -> s.trust().reconsider(id));
        assertThat(agent(id).trustLevel()).isEqualTo(TrustLevel.COMMUNITY);
    }

    @Test
    void whenAnIncidentIsOnRecordThenNoAutomaticPromotion() {
        UUID id = listed();
        run(s -> s.trust().incident(id, "high_risk_finding", "a private key in the bundle"));
        figures(id, 1000, 5);

        run(s -> s.trust().reconsider(id));

        assertThat(agent(id).trustLevel()).isEqualTo(TrustLevel.UNVERIFIED);
        assertThat(history(id, AgentAction.TRUST_CHANGED)).isEmpty();
        assertThat(history(id, AgentAction.INCIDENT)).singleElement()
                .satisfies(e -> assertThat(e.reasonCode()).isEqualTo("high_risk_finding"));
    }

    @Test
    void whenAPromotedAgentHasAnIncidentThenUnverifiedRecordedAndAlerted() {
        UUID id = listed();
        figures(id, 100, 0);
        run(s -> s.trust().reconsider(id));

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
    void whenThreeDistinctUsersReportThenTakenDownAsAnIncident() {
        UUID id = listed();
        figures(id, 100, 0);
        run(s -> s.trust().reconsider(id));
        run(s -> s.reports().report(id, 101, ReportReason.MALICIOUS_CODE, "reads ~/.ssh"));
        run(s -> s.reports().report(id, 102, ReportReason.DATA_EXFILTRATION, "posts my input elsewhere"));
        assertThat(agent(id).status()).isEqualTo(AgentStatus.ACTIVE);

        run(s -> s.reports().report(id, 103, ReportReason.OTHER, "odd traffic"));

        Agent agent = agent(id);
        assertThat(agent.status()).isEqualTo(AgentStatus.SUSPENDED);
        assertThat(agent.trustLevel()).isEqualTo(TrustLevel.UNVERIFIED);
        assertThat(history(id, AgentAction.TAKEN_DOWN)).singleElement().satisfies(e -> {
            assertThat(e.reasonCode()).isEqualTo("security_reports");
            assertThat(e.actorId()).isZero();
        });
        assertThat(history(id, AgentAction.INCIDENT)).extracting(AgentEvent::reasonCode)
                .containsExactly("security_reports");
        assertThatThrownBy(() -> run(s -> s.reports().report(id, 104, ReportReason.OTHER, "late")))
                .extracting(e -> ((BusinessException) e).problem()).isEqualTo(Problem.NOT_FOUND);
    }

    @Test
    void whenTheSameUserReportsTwiceOrTheAuthorReportsThenRefused() {
        UUID id = listed();
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
