package dev.atrium.identity.entity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.UUID;
import java.util.function.Consumer;

import javax.sql.DataSource;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.persistence.Constraints;
import dev.atrium.platform.persistence.TestDatabases;

/**
 * The binding entity and its migration on the JPA provider the server uses, over H2 in the embedded default's
 * PostgreSQL mode ({@code -Datrium.test.postgres-url=jdbc:postgresql://...} runs it on an empty PostgreSQL
 * database instead): unique external account, bindings deleted with their user.
 */
class OAuthAccountPersistenceTest {

    private static final Instant NOW = Instant.parse("2026-11-22T10:15:30.123456Z");

    private static DataSource dataSource;
    private static EntityManagerFactory factory;

    @BeforeAll
    static void migrate() {
        dataSource = TestDatabases.dataSource("oauth");
        TestDatabases.migrate(dataSource);
        factory = TestDatabases.entityManagers(dataSource);
    }


    @AfterAll
    static void close() {
        factory.close();
    }

    private static void inTransaction(Consumer<EntityManager> work) {
        EntityManager em = factory.createEntityManager();
        try {
            em.getTransaction().begin();
            work.accept(em);
            if (em.getTransaction().getRollbackOnly()) {
                em.getTransaction().rollback();
            } else {
                em.getTransaction().commit();
            }
        } finally {
            if (em.getTransaction().isActive()) {
                em.getTransaction().rollback();
            }
            em.close();
        }
    }

    private static long user() {
        var id = new long[1];
        inTransaction(em -> {
            Role role = em.createQuery("select r from Role r where r.name = 'user'", Role.class).getSingleResult();
            var user = User.external(EmailAddress.of("ext-" + UUID.randomUUID() + "@example.org"), "ext", role, NOW);
            em.persist(user);
            em.flush();
            id[0] = user.id();
        });
        return id[0];
    }

    @Test
    void whenBoundThenItReadsBackUnchanged() {
        long userId = user();
        var account = new OAuthAccount(userId, "google", "1234567890", NOW);
        inTransaction(em -> em.persist(account));

        inTransaction(em -> {
            var read = em.find(OAuthAccount.class, account.id());
            assertThat(read.userId()).isEqualTo(userId);
            assertThat(read.provider()).isEqualTo("google");
            assertThat(read.providerUserId()).isEqualTo("1234567890");
            assertThat(read.createdAt()).isEqualTo(NOW);
        });
        assertThat(account.id()).isPositive();
    }

    @Test
    void whenTheExternalAccountIsAlreadyBoundThenTheSecondBindingIsAUniqueViolation() {
        long first = user();
        long second = user();
        inTransaction(em -> em.persist(new OAuthAccount(first, "github", "octocat-1", NOW)));

        var added = new boolean[2];
        inTransaction(em -> added[0] = Constraints.persistUnique(em, new OAuthAccount(second, "github", "octocat-1",
                NOW)));
        inTransaction(em -> added[1] = Constraints.persistUnique(em, new OAuthAccount(second, "gitlab", "octocat-1",
                NOW)));

        assertThat(added).containsExactly(false, true);
    }

    @Test
    void whenTheUserIsDeletedThenItsBindingsGoToo() {
        long userId = user();
        var account = new OAuthAccount(userId, "google", "deleted-" + userId, NOW);
        inTransaction(em -> em.persist(account));

        inTransaction(em -> em.remove(em.find(User.class, userId)));

        inTransaction(em -> assertThat(em.find(OAuthAccount.class, account.id())).isNull());
    }

    @Test
    void whenTheSubjectIsBlankOrTooLongOrTheProviderMalformedThenRefused() {
        assertThatThrownBy(() -> new OAuthAccount(1, "google", " ", NOW)).isInstanceOf(BusinessException.class);
        assertThatThrownBy(() -> new OAuthAccount(1, "google", "x".repeat(101), NOW))
                .isInstanceOf(BusinessException.class);
        assertThatThrownBy(() -> new OAuthAccount(1, "Google", "1", NOW)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new OAuthAccount(1, "a-provider-name-too-long", "1", NOW))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
