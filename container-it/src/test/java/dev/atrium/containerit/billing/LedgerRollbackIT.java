package dev.atrium.containerit.billing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import javax.sql.DataSource;

import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.ejb.EJBException;

import org.assertj.core.api.Assertions;
import org.flywaydb.core.Flyway;
import org.flywaydb.database.postgresql.PostgreSQLConfigurationExtension;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.EmptyAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.postgresql.Driver;
import org.slf4j.Logger;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.uuid.Generators;

import dev.atrium.billing.control.BillingConfig;
import dev.atrium.billing.control.Ledger;
import dev.atrium.billing.entity.AccountKind;
import dev.atrium.billing.entity.BillingAccount;
import dev.atrium.billing.entity.EntryKind;
import dev.atrium.billing.entity.Hold;
import dev.atrium.billing.entity.JournalEntry;
import dev.atrium.billing.entity.JournalLine;
import dev.atrium.billing.entity.Money;
import dev.atrium.containerit.Libraries;
import dev.atrium.containerit.TestDatabase;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;
import dev.atrium.platform.persistence.DatabaseMigrations;
import dev.atrium.platform.persistence.InstantConverter;
import dev.atrium.platform.time.ClockProducer;

/**
 * The real {@link Ledger#postAll} in a JTA transaction on PostgreSQL. It writes a batch's entries and lines by JDBC
 * batches on the transaction's connection and moves the balances last: when an entry of the batch is refused, the
 * transaction rolls back whole, and the rows it wrote outside the persistence context go with it.
 */
@ExtendWith(ArquillianExtension.class)
class LedgerRollbackIT {

    @Deployment
    static WebArchive deployment() {
        TestDatabase.recreate();
        var war = ShrinkWrap.create(WebArchive.class, "ledger.war")
                .addClasses(BillingTransactions.class, TestDatabase.class, Libraries.class)
                .addClasses(Ledger.class, BillingConfig.class, ClockProducer.class, DatabaseMigrations.class,
                        InstantConverter.class)
                .addClasses(BillingAccount.class, JournalEntry.class, JournalLine.class, Hold.class, Money.class,
                        EntryKind.class, AccountKind.class, BusinessException.class, Problem.class)
                .addClass("dev.atrium.billing.entity.LedgerIds")
                .addAsResource("billing/persistence.xml", "META-INF/persistence.xml")
                .addAsWebInfResource(EmptyAsset.INSTANCE, "beans.xml")
                .addAsLibraries(Libraries.jarsOf(Flyway.class, PostgreSQLConfigurationExtension.class, Driver.class,
                        ObjectMapper.class, JsonParser.class, JsonProperty.class, Generators.class,
                        Logger.class, Assertions.class));
        Libraries.resources(DatabaseMigrations.class, "db/migration").forEach(war::addAsResource);
        return war;
    }

    @EJB
    BillingTransactions transactions;

    @Resource(lookup = DatabaseMigrations.DATA_SOURCE)
    DataSource database;

    @Test
    void whenBatchOverdrawsAnAccountThenEntriesLinesHoldsAndBalancesAreRolledBackWhole() throws SQLException {
        long alice = 1001;
        long bob = 1002;
        transactions.topUp(alice, new BigDecimal("10.00"));
        transactions.topUp(bob, new BigDecimal("1.00"));
        UUID hold = transactions.hold(alice, new BigDecimal("2.00"));
        var before = ledgerState(alice, bob);
        // alice's usage is fine; bob's takes his balance below zero, which the balance update (the batch's last
        // statements, after the JDBC inserts of both entries and their lines) refuses
        var batch = List.of(
                usage("usage:alice:1", alice, "2.00"),
                usage("usage:bob:1", bob, "5.00"));

        assertThatThrownBy(() -> transactions.settleAndPost(hold, batch))
                .isInstanceOf(BusinessException.class).hasMessage("Insufficient balance");

        assertThat(ledgerState(alice, bob)).isEqualTo(before);
        assertThat(count("SELECT count(*) FROM journal_entries WHERE reference IN ('usage:alice:1', 'usage:bob:1')"))
                .isZero();
        assertThat(count("SELECT count(*) FROM billing_holds WHERE status = 'OPEN' AND id = '" + hold + "'"))
                .isOne();
    }

    @Test
    void whenBatchHoldsAnUnbalancedEntryThenNothingOfItRemainsNotEvenItsNewAccounts() throws SQLException {
        long carol = 1003;
        var before = ledgerState(carol);
        // carol's account and the platform's revenue account do not exist yet: the batch creates them (by SQL, in
        // its transaction) before it composes the entries and finds the second one unbalanced
        var batch = List.of(
                new Ledger.Request(EntryKind.TOP_UP, "top-up:carol:1", null, "balanced", List.of(
                        new Ledger.Line(AccountKind.EXTERNAL_PAYMENTS, BillingAccount.PLATFORM,
                                new BigDecimal("-3.00")),
                        new Ledger.Line(AccountKind.USER_BALANCE, carol, new BigDecimal("3.00"))), null),
                new Ledger.Request(EntryKind.USAGE, "usage:carol:2", carol, "unbalanced", List.of(
                        new Ledger.Line(AccountKind.USER_BALANCE, carol, new BigDecimal("-1.00")),
                        new Ledger.Line(AccountKind.PLATFORM_REVENUE, BillingAccount.PLATFORM,
                                new BigDecimal("0.50"))), null));

        assertThatThrownBy(() -> transactions.postAll(batch)).isInstanceOf(EJBException.class)
                .hasRootCauseInstanceOf(IllegalArgumentException.class);

        assertThat(ledgerState(carol)).isEqualTo(before);
        assertThat(count("SELECT count(*) FROM billing_accounts WHERE owner_id = " + carol)).isZero();
    }

    private static Ledger.Request usage(String reference, long user, String amount) {
        var value = new BigDecimal(amount);
        return new Ledger.Request(EntryKind.USAGE, reference, user, "test usage", List.of(
                new Ledger.Line(AccountKind.USER_BALANCE, user, value.negate()),
                new Ledger.Line(AccountKind.PLATFORM_REVENUE, BillingAccount.PLATFORM, value)), null);
    }

    /** Every row count of the ledger's tables, and the users' balances, held amounts and holds. */
    private Map<String, Object> ledgerState(long... users) throws SQLException {
        var state = new LinkedHashMap<String, Object>();
        for (var table : List.of("billing_accounts", "journal_entries", "journal_lines", "billing_holds")) {
            state.put(table, count("SELECT count(*) FROM " + table));
        }
        state.put("platform balances", text("SELECT coalesce(sum(balance), 0) FROM billing_accounts"));
        for (long user : users) {
            state.put("balance " + user, text("SELECT balance || '/' || held FROM billing_accounts "
                    + "WHERE kind = 'USER_BALANCE' AND owner_id = " + user));
            state.put("holds " + user, text("SELECT string_agg(h.status || ' ' || h.amount, ',') FROM billing_holds h "
                    + "JOIN billing_accounts a ON a.id = h.account_id WHERE a.owner_id = " + user));
        }
        return state;
    }

    private long count(String sql) throws SQLException {
        return Long.parseLong(text(sql));
    }

    private String text(String sql) throws SQLException {
        try (var connection = database.getConnection(); var statement = connection.createStatement();
             var rows = statement.executeQuery(sql)) {
            return rows.next() ? String.valueOf(rows.getObject(1)) : "none";
        }
    }
}
