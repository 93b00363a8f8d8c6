package dev.atrium.identity.entity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.UUID;

import javax.sql.DataSource;

import org.flywaydb.core.Flyway;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

import dev.atrium.platform.error.BusinessException;

/**
 * Verification and deactivation are two facts: the rules of the entity, and the V10 migration that splits the old
 * single flag (on H2 in PostgreSQL mode; {@code -Datrium.test.postgres-url=…} runs it on an empty PostgreSQL).
 */
class AccountStatesTest {

    private static final Instant T0 = Instant.parse("2026-11-23T10:00:00Z");
    private static final Role USER = new Role();

    private static User registered() {
        return User.register(EmailAddress.of("states@example.test"), "states", "hash", USER, T0);
    }

    @Test
    void whenRegisteredThenUnverifiedAndInactiveUntilVerified() {
        var user = registered();
        assertThat(user.isActive()).isFalse();
        assertThat(user.isEmailVerified()).isFalse();
        assertThat(user.verifyEmail(T0.plusSeconds(5))).isTrue();
        assertThat(user.isActive()).isTrue();
        assertThat(user.emailVerifiedAt()).hasValue(T0.plusSeconds(5));
        assertThat(user.verifyEmail(T0.plusSeconds(9))).as("once").isFalse();
        assertThat(user.emailVerifiedAt()).hasValue(T0.plusSeconds(5));
    }

    @Test
    void whenDeactivatedThenVerifyingOrAProviderNeverReactivates() {
        var user = registered();
        user.verifyEmail(T0);
        assertThat(user.deactivate(7L, "  spam  ", T0.plusSeconds(60))).isTrue();
        assertThat(user.isActive()).isFalse();
        assertThat(user.deactivatedBy()).hasValue(7L);
        assertThat(user.deactivationReason()).hasValue("spam");
        assertThat(user.accepts(T0.plusSeconds(59))).as("earlier credentials end").isFalse();

        user.verifyEmail(T0.plusSeconds(61));
        user.confirmEmailThroughProvider(T0.plusSeconds(62));
        assertThat(user.isActive()).isFalse();
        assertThat(user.deactivate(8L, "again", T0.plusSeconds(63))).as("the first record stays").isFalse();
        assertThat(user.deactivatedBy()).hasValue(7L);

        user.reactivate(T0.plusSeconds(90));
        assertThat(user.isActive()).isTrue();
        assertThat(user.deactivatedAt()).isEmpty();
        assertThat(user.deactivationReason()).isEmpty();
    }

    @Test
    void whenAnUnverifiedUserIsDeactivatedThenVerifyingLeavesItInactiveAndReactivationVerifies() {
        var user = registered();
        user.deactivate(7L, null, T0);
        assertThat(user.deactivationReason()).isEmpty();
        user.verifyEmail(T0.plusSeconds(1));
        assertThat(user.isEmailVerified()).isTrue();
        assertThat(user.isActive()).isFalse();

        var other = registered();
        other.deactivate(7L, "", T0);
        other.reactivate(T0.plusSeconds(2));
        assertThat(other.isEmailVerified()).as("the administrator vouches for the address").isTrue();
        assertThat(other.isActive()).isTrue();
    }

    @Test
    void whenAProviderConfirmsAnUnverifiedAddressThenVerifiedAndThePasswordDropped() {
        var user = registered();
        user.confirmEmailThroughProvider(T0);
        assertThat(user.isActive()).isTrue();
        assertThat(user.hashedPassword()).isEmpty();
    }

    @Test
    void whenTheReasonIsTooLongThenRefused() {
        var user = registered();
        assertThatThrownBy(() -> user.deactivate(1L, "x".repeat(201), T0)).isInstanceOf(BusinessException.class);
        assertThat(user.isDeactivated()).isFalse();
    }

    @Test
    void whenANewVerificationIsIssuedThenOnlyItsHashIsCurrent() {
        var user = registered();
        assertThat(user.isCurrentVerification("any")).as("accounts from before the hash").isTrue();
        user.verificationIssued("first", T0);
        user.verificationIssued("second", T0);
        assertThat(user.isCurrentVerification("first")).isFalse();
        assertThat(user.isCurrentVerification("second")).isTrue();
    }

    @Test
    void whenMigratingThenActiveUsersAreVerifiedAndOnlyDeactivatedOnesStayDeactivated() throws SQLException {
        DataSource data = dataSource();
        Flyway.configure().dataSource(data).locations("classpath:db/migration").target("9").load().migrate();
        try (Connection c = data.getConnection(); var s = c.createStatement()) {
            s.execute("INSERT INTO users (id, email, username, is_active, role, created_at, updated_at) VALUES "
                    + "(1001, 'active@x.test', 'a', TRUE, 'user', TIMESTAMP '2026-01-01 00:00:00', "
                    + "TIMESTAMP '2026-01-05 00:00:00'), "
                    + "(1002, 'pending@x.test', 'p', FALSE, 'user', TIMESTAMP '2026-01-01 00:00:00', "
                    + "TIMESTAMP '2026-01-01 00:00:00'), "
                    + "(1003, 'banned@x.test', 'b', FALSE, 'user', TIMESTAMP '2026-01-01 00:00:00', "
                    + "TIMESTAMP '2026-01-01 00:00:00'), "
                    + "(1004, 'back@x.test', 'r', TRUE, 'user', TIMESTAMP '2026-01-01 00:00:00', "
                    + "TIMESTAMP '2026-01-01 00:00:00')");
            s.execute("INSERT INTO audit_logs (id, user_id, actor_id, action, ip_address, user_agent, success, "
                    + "created_at) VALUES "
                    + "(1, 1001, NULL, 'verify_email', '1.1.1.1', '', TRUE, TIMESTAMP '2026-01-02 00:00:00'), "
                    + "(2, 1003, NULL, 'verify_email', '1.1.1.1', '', TRUE, TIMESTAMP '2026-01-03 00:00:00'), "
                    + "(3, 1003, 9, 'user_deactivate', '1.1.1.1', '', TRUE, TIMESTAMP '2026-01-04 00:00:00'), "
                    + "(4, 1004, 9, 'user_deactivate', '1.1.1.1', '', TRUE, TIMESTAMP '2026-01-04 00:00:00'), "
                    + "(5, 1004, 9, 'user_activate', '1.1.1.1', '', TRUE, TIMESTAMP '2026-01-06 00:00:00')");
        }
        Flyway.configure().dataSource(data).locations("classpath:db/migration").outOfOrder(true).load().migrate();
        try (Connection c = data.getConnection(); var s = c.createStatement();
             var rows = s.executeQuery("SELECT id, is_active, email_verified_at, deactivated_at, deactivated_by, "
                     + "deactivation_reason FROM users WHERE id > 1000 ORDER BY id")) {
            assertThat(rows.next()).isTrue();
            assertThat(rows.getBoolean(2)).isTrue();
            assertThat(rows.getTimestamp(3).toInstant()).as("from the audit log")
                    .isEqualTo(Instant.parse("2026-01-02T00:00:00Z"));
            assertThat(rows.getTimestamp(4)).isNull();

            assertThat(rows.next()).isTrue();
            assertThat(rows.getLong(1)).isEqualTo(1002);
            assertThat(rows.getBoolean(2)).isFalse();
            assertThat(rows.getTimestamp(3)).as("never verified").isNull();
            assertThat(rows.getTimestamp(4)).isNull();

            assertThat(rows.next()).isTrue();
            assertThat(rows.getLong(1)).isEqualTo(1003);
            assertThat(rows.getBoolean(2)).isFalse();
            assertThat(rows.getTimestamp(3).toInstant()).isEqualTo(Instant.parse("2026-01-03T00:00:00Z"));
            assertThat(rows.getTimestamp(4).toInstant()).isEqualTo(Instant.parse("2026-01-04T00:00:00Z"));
            assertThat(rows.getLong(5)).isEqualTo(9);
            assertThat(rows.getString(6)).isNotBlank();

            assertThat(rows.next()).isTrue();
            assertThat(rows.getLong(1)).isEqualTo(1004);
            assertThat(rows.getBoolean(2)).isTrue();
            assertThat(rows.getTimestamp(3).toInstant()).as("no verification recorded: registration")
                    .isEqualTo(Instant.parse("2026-01-01T00:00:00Z"));
            assertThat(rows.getTimestamp(4)).as("reactivated later").isNull();
        }
    }

    private static DataSource dataSource() {
        var postgres = System.getProperty("atrium.test.postgres-url");
        if (postgres != null) {
            var pg = new PGSimpleDataSource();
            pg.setUrl(postgres);
            return pg;
        }
        var h2 = new JdbcDataSource();
        h2.setURL("jdbc:h2:mem:states-" + UUID.randomUUID()
                + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH;DB_CLOSE_DELAY=-1");
        return h2;
    }
}
