package db.migration;

import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;

/**
 * The outbox relay's query for due rows ({@code WHERE sent_at IS NULL ORDER BY created_at LIMIT n}) by a partial index
 * that holds pending rows only, on PostgreSQL. With the whole {@code (sent_at, created_at)} index alone the planner
 * could read every pending entry, and every entry of rows sent since the last vacuum, by a bitmap scan and sort them
 * on each round; the partial index is read in order and stops after {@code n}. A Java migration because H2, the
 * embedded database, has no partial indexes (the whole index serves there).
 */
public class V61__outbox_pending_index extends BaseJavaMigration {

    @Override
    public void migrate(Context context) throws Exception {
        var connection = context.getConnection();
        if (!"PostgreSQL".equals(connection.getMetaData().getDatabaseProductName())) {
            return;
        }
        try (var statement = connection.createStatement()) {
            statement.execute("CREATE INDEX ix_outbox_events_pending ON outbox_events (created_at)"
                    + " WHERE sent_at IS NULL");
        }
    }
}
