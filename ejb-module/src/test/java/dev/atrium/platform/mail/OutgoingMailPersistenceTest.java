package dev.atrium.platform.mail;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.TimeZone;
import java.util.UUID;
import java.util.function.Consumer;

import javax.sql.DataSource;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.atrium.platform.persistence.TestDatabases;
import dev.atrium.platform.time.MovableClock;

/**
 * The entity, its migration and the service's queries on the JPA provider the server uses, over H2 in the
 * embedded default's PostgreSQL mode. {@code -Datrium.test.postgres-url=jdbc:postgresql://...} runs the same
 * against an empty PostgreSQL database instead.
 */
class OutgoingMailPersistenceTest {

    private static final Instant CREATED = Instant.parse("2026-03-01T10:15:30.123456Z");

    private static TimeZone defaultZone;
    private static DataSource dataSource;
    private static EntityManagerFactory factory;

    private final MovableClock clock = new MovableClock(Clock.fixed(CREATED, ZoneOffset.UTC));

    @BeforeAll
    static void migrate() {
        // a server whose local time is not UTC must still store UTC instants
        defaultZone = TimeZone.getDefault();
        TimeZone.setDefault(TimeZone.getTimeZone("America/New_York"));
        dataSource = TestDatabases.dataSource("mail");
        TestDatabases.migrate(dataSource);
        factory = TestDatabases.entityManagers(dataSource);
    }


    @AfterAll
    static void close() {
        factory.close();
        TimeZone.setDefault(defaultZone);
    }

    private void inTransaction(Consumer<MailService> work) {
        EntityManager em = factory.createEntityManager();
        try {
            var service = new MailService();
            service.em = em;
            service.clock = clock;
            em.getTransaction().begin();
            work.accept(service);
            em.getTransaction().commit();
        } finally {
            em.close();
        }
    }

    private UUID store(String to, String subject, String body) {
        var mail = new OutgoingMail(to, subject, body, clock.instant());
        inTransaction(service -> service.em.persist(mail));
        return mail.id();
    }

    private OutgoingMail load(UUID id) {
        var found = new OutgoingMail[1];
        inTransaction(service -> found[0] = service.find(id).orElseThrow());
        return found[0];
    }

    @Test
    void whenMailIsStoredThenItReadsBackUnchanged() throws Exception {
        var body = "Grüße, Ada: " + "x".repeat(20_000);
        var id = store("ada@example.org", "Bestätigung", body);

        var mail = load(id);

        assertThat(mail.id()).isEqualTo(id);
        assertThat(mail.recipient()).isEqualTo("ada@example.org");
        assertThat(mail.subject()).isEqualTo("Bestätigung");
        assertThat(mail.body()).isEqualTo(body);
        assertThat(mail.status()).isEqualTo(OutgoingMail.Status.PENDING);
        assertThat(mail.attempts()).isZero();
        assertThat(mail.lastError()).isNull();
        assertThat(mail.createdAt()).isEqualTo(CREATED);
        assertThat(mail.sentAt()).isNull();
        try (var connection = dataSource.getConnection();
             var query = connection.prepareStatement("SELECT created_at, status FROM outgoing_mail WHERE id = ?")) {
            query.setObject(1, id);
            try (var row = query.executeQuery()) {
                assertThat(row.next()).isTrue();
                assertThat(row.getObject(1, OffsetDateTime.class).toInstant()).isEqualTo(CREATED);
                assertThat(row.getString(2)).isEqualTo("PENDING");
            }
        }
    }

    @Test
    void whenDeliveryIsRecordedThenItIsKept() {
        var failed = store("bob@example.org", "s", "b");
        var sent = store("bob@example.org", "s", "b");

        inTransaction(service -> service.recordFailure(failed, "SMTP delivery via mx:25 failed", true));
        clock.advance(Duration.ofSeconds(5));
        inTransaction(service -> service.markSent(sent));

        assertThat(load(failed).status()).isEqualTo(OutgoingMail.Status.FAILED);
        assertThat(load(failed).attempts()).isEqualTo(1);
        assertThat(load(failed).lastError()).isEqualTo("SMTP delivery via mx:25 failed");
        assertThat(load(sent).status()).isEqualTo(OutgoingMail.Status.SENT);
        assertThat(load(sent).sentAt()).isEqualTo(CREATED.plusSeconds(5));
    }

    @Test
    void whenSeveralMailsGoToOneAddressThenLatestIsTheNewest() {
        store("carol@example.org", "first", "b");
        clock.advance(Duration.ofMinutes(1));
        var newest = store("carol@example.org", "second", "b");
        store("dave@example.org", "other", "b");

        var latest = new OutgoingMail[1];
        inTransaction(service -> latest[0] = service.latestTo("carol@example.org").orElseThrow());

        assertThat(latest[0].id()).isEqualTo(newest);
        inTransaction(service -> assertThat(service.latestTo("nobody@example.org")).isEmpty());
    }
}
