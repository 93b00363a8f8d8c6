package dev.atrium.billing.control;

import javax.sql.DataSource;

import dev.atrium.platform.persistence.TestDatabases;

/**
 * {@link LedgerPersistenceTest} on a PostgreSQL database of its own, where a batch's accounts are moved by the
 * statements only PostgreSQL runs (locked in id order, then one update joined to arrays): skipped when no PostgreSQL
 * answers, unless {@code ATRIUM_TEST_REQUIRE_SERVICES=true} (as {@code scripts/test} sets it).
 */
class LedgerPersistenceOnPostgresTest extends LedgerPersistenceTest {

    private TestDatabases.OwnDatabase database;

    @Override
    DataSource database() {
        database = TestDatabases.postgresOfItsOwn("atrium_ledger");
        return database.dataSource();
    }

    @Override
    void dropDatabase() {
        if (database != null) {
            database.close();
        }
    }
}
