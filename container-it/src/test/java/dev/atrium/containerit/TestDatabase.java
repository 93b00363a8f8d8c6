package dev.atrium.containerit;

import java.sql.DriverManager;
import java.sql.SQLException;

/**
 * The in-container tests' own PostgreSQL database on the local server that scripts/services starts (trust
 * authentication for postgres), made afresh for each deployment that uses it: the migrations then run on an empty
 * schema and the tests see only their own rows. Its name is {@value #NAME}; the data source a deployment defines
 * for the product's classes points at it.
 */
public final class TestDatabase {

    public static final String NAME = "atrium_arq";
    public static final String URL = "jdbc:postgresql://127.0.0.1:5432/" + NAME;

    private TestDatabase() {
    }

    /** Drops and creates the database; called while the deployment is built, before the server starts. */
    public static void recreate() {
        try (var connection = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:5432/postgres", "postgres", "");
             var statement = connection.createStatement()) {
            statement.execute("DROP DATABASE IF EXISTS " + NAME + " WITH (FORCE)");
            statement.execute("CREATE DATABASE " + NAME);
        } catch (SQLException e) {
            throw new IllegalStateException("The test database " + NAME + " could not be made on 127.0.0.1:5432 "
                    + "(is scripts/services running?)", e);
        }
    }
}
