package dev.atrium.platform.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;

/**
 * The batch runtime's job repository on H2 (V71): Payara's runtime finds each of its tables the way it looks for them
 * ({@code DatabaseMetaData.getTables} under schema {@code PUBLIC}, the name in upper case), so it creates none, and
 * its statements (generated keys asked by upper-case column name, serialized objects as bytes) work on the tables
 * the migration made. On PostgreSQL ({@code -Datrium.test.postgres-url}) the migration leaves the runtime to create
 * them, as before.
 */
class BatchRepositoryMigrationTest {

    private static final List<String> TABLES = List.of("CHECKPOINTDATA", "JOBINSTANCEDATA",
            "EXECUTIONINSTANCEDATA", "STEPEXECUTIONINSTANCEDATA", "JOBSTATUS", "STEPSTATUS");

    private static boolean onH2(Connection c) throws SQLException {
        return "H2".equals(c.getMetaData().getDatabaseProductName());
    }

    @Test
    void whenMigratedOnH2ThenTheRuntimeFindsEachTableUnderTheNameItLooksFor() throws SQLException {
        DataSource ds = TestDatabases.dataSource("jbatch");
        TestDatabases.migrate(ds);
        try (var c = ds.getConnection()) {
            for (String table : TABLES) {
                // JBatchJDBCPersistenceManager.checkIfTableExists, with the schema setDefaultSchema picks on H2
                String schema = onH2(c) ? "PUBLIC" : "public";
                String name = onH2(c) ? "JBATCH" + table : "jbatch" + table.toLowerCase(java.util.Locale.ROOT);
                try (var found = c.getMetaData().getTables(null, schema, name, null)) {
                    assertThat(found.next()).as(table).isEqualTo(onH2(c));
                }
            }
        }
    }

    @Test
    void whenTheRuntimeIsConfiguredThenItsTablePrefixIsTheOneTheMigrationNames() throws Exception {
        var asadmin = java.nio.file.Files.readString(java.nio.file.Path.of("../server-config/payara/atrium.asadmin"));

        assertThat(asadmin).contains("batch-runtime-configuration.table-prefix=jbatch\n");
    }

    @Test
    void whenTheRuntimeWritesAndReadsItsRowsOnH2ThenItsStatementsWork() throws SQLException {
        DataSource ds = TestDatabases.dataSource("jbatch-rows");
        TestDatabases.migrate(ds);
        try (var c = ds.getConnection()) {
            if (!onH2(c)) {
                return;
            }
            try (var s = c.prepareStatement("SET SCHEMA PUBLIC")) {
                s.executeUpdate();
            }
            long instance;
            try (var s = c.prepareStatement("INSERT INTO jbatchJOBINSTANCEDATA (name, apptag) VALUES(?, ?)",
                    new String[] {"JOBINSTANCEID"})) {
                s.setString(1, "monthly-payout");
                s.setString(2, "atrium");
                s.executeUpdate();
                try (var keys = s.getGeneratedKeys()) {
                    assertThat(keys.next()).isTrue();
                    instance = keys.getLong(1);
                }
            }
            long execution;
            try (var s = c.prepareStatement("INSERT INTO jbatchEXECUTIONINSTANCEDATA (jobinstanceid, createtime, "
                    + "updatetime, batchstatus, parameters) VALUES(?, ?, ?, ?, ?)", new String[] {"JOBEXECID"})) {
                var now = Timestamp.from(Instant.now());
                s.setLong(1, instance);
                s.setTimestamp(2, now);
                s.setTimestamp(3, now);
                s.setString(4, "STARTING");
                s.setObject(5, new byte[] {1, 2, 3});
                s.executeUpdate();
                try (var keys = s.getGeneratedKeys()) {
                    assertThat(keys.next()).isTrue();
                    execution = keys.getLong(1);
                }
            }
            try (var s = c.prepareStatement("insert into jbatchCHECKPOINTDATA values(?, ?)")) {
                s.setObject(1, "key-" + execution);
                s.setBytes(2, new byte[] {4, 5, 6});
                s.executeUpdate();
            }
            try (var s = c.prepareStatement("select id, obj from jbatchCHECKPOINTDATA where id = ?")) {
                s.setObject(1, "key-" + execution);
                try (var rows = s.executeQuery()) {
                    assertThat(rows.next()).isTrue();
                    assertThat(rows.getBytes("obj")).containsExactly(4, 5, 6);
                }
            }
            try (var s = c.prepareStatement("select parameters from jbatchEXECUTIONINSTANCEDATA where jobexecid = ?")) {
                s.setLong(1, execution);
                try (var rows = s.executeQuery()) {
                    assertThat(rows.next()).isTrue();
                    assertThat(rows.getBytes("parameters")).containsExactly(1, 2, 3);
                }
            }
        }
    }
}
