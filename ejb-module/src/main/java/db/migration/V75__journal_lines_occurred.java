package db.migration;

import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;

/**
 * Each journal line carries when its entry's cause happened (the entry's {@code occurred_at}), so that what an account
 * held from causes before a time (the monthly payout's question) is its cached balance less the few lines caused
 * after it, found without reading the account's history: a line caused at or after a time was posted at or after it,
 * unless it was caused later than it was posted (a payout of a month not over yet, clocks apart by a moment), and on
 * PostgreSQL a partial index holds exactly those lines (and lines written without the time), so both kinds are read
 * by index ranges. Every other line leaves that index untouched, so the billing queue's inserts pay nothing for it.
 * H2, the embedded database, has no partial indexes: the lines' (account, posted) index serves there.
 */
public class V75__journal_lines_occurred extends BaseJavaMigration {

    @Override
    public void migrate(Context context) throws Exception {
        var connection = context.getConnection();
        try (var statement = connection.createStatement()) {
            statement.execute("ALTER TABLE journal_lines ADD COLUMN occurred_at TIMESTAMP WITH TIME ZONE");
            statement.execute("UPDATE journal_lines SET occurred_at = (SELECT e.occurred_at FROM journal_entries e "
                    + "WHERE e.id = journal_lines.entry_id)");
            if ("PostgreSQL".equals(connection.getMetaData().getDatabaseProductName())) {
                statement.execute("CREATE INDEX journal_lines_caused_later ON journal_lines (account_id)"
                        + " WHERE occurred_at IS NULL OR occurred_at > posted_at");
            }
        }
    }
}
