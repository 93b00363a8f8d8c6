package dev.atrium.platform.persistence;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.logging.Logger;

import javax.sql.DataSource;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import org.h2.jdbcx.JdbcDataSource;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The one data source class the container pools. It reads {@code atrium.db.url} through MicroProfile Config
 * and hands out PostgreSQL connections when a URL is set, else connections to the embedded H2 file database,
 * so that a single {@code @DataSourceDefinition} serves both without a vendor-specific descriptor.
 */
public class AtriumDataSource implements DataSource {

    static final String H2_OPTIONS = ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH";
    /**
     * The embedded file database writes committed changes in the background at most a second after the commit (H2's
     * store's own default; the database's is half a second): its writer wakes ten times a second instead of twenty,
     * half of what an idle server spent on it. A crash of the process loses the commits of that last second either
     * way (docs/limitations.md); PostgreSQL does not.
     */
    static final String H2_FILE_OPTIONS = H2_OPTIONS + ";WRITE_DELAY=1000";

    private volatile DataSource delegate;
    private PrintWriter logWriter;
    private int loginTimeout;

    /** What the pool and the health check report: {@code postgresql} or {@code h2}. */
    public static String vendor(Config config) {
        return config.getOptionalValue("atrium.db.url", String.class)
                .filter(url -> url.startsWith("jdbc:postgresql:")).map(url -> "postgresql").orElse("h2");
    }

    static DataSource create(Config config) {
        var url = config.getOptionalValue("atrium.db.url", String.class).map(String::trim).filter(s -> !s.isEmpty());
        if (url.isPresent() && url.get().startsWith("jdbc:postgresql:")) {
            var pg = new PGSimpleDataSource();
            pg.setUrl(url.get());
            config.getOptionalValue("atrium.db.user", String.class).ifPresent(pg::setUser);
            config.getOptionalValue("atrium.db.password", String.class).ifPresent(pg::setPassword);
            pg.setApplicationName("atrium");
            // the driver sends a batch of inserts as multi-row statements: the billing queue's journal lines and
            // entries go in a few statements per batch instead of one each (a URL parameter still decides)
            if (!url.get().contains("reWriteBatchedInserts")) {
                pg.setReWriteBatchedInserts(true);
            }
            return pg;
        }
        var h2 = new JdbcDataSource();
        if (url.isPresent()) {
            if (!url.get().startsWith("jdbc:h2:")) {
                throw new IllegalStateException("atrium.db.url must be a jdbc:postgresql: or jdbc:h2: URL");
            }
            h2.setURL(url.get());
        } else {
            Path dir = Path.of(config.getOptionalValue("atrium.data-dir", String.class).orElse("./data"))
                    .toAbsolutePath().normalize().resolve("db");
            h2.setURL("jdbc:h2:file:" + dir.resolve("atrium") + H2_FILE_OPTIONS);
        }
        h2.setUser(config.getOptionalValue("atrium.db.user", String.class).orElse("atrium"));
        h2.setPassword(config.getOptionalValue("atrium.db.password", String.class).orElse(""));
        return h2;
    }

    private DataSource delegate() {
        var current = delegate;
        if (current == null) {
            synchronized (this) {
                if (delegate == null) {
                    // the pool may call us on a server thread: read the application's own configuration
                    delegate = create(ConfigProvider.getConfig(AtriumDataSource.class.getClassLoader()));
                }
                current = delegate;
            }
        }
        return current;
    }

    @Override
    public Connection getConnection() throws SQLException {
        return delegate().getConnection();
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        // credentials come from configuration, never from the pool definition
        return delegate().getConnection();
    }

    @Override
    public PrintWriter getLogWriter() {
        return logWriter;
    }

    @Override
    public void setLogWriter(PrintWriter out) {
        this.logWriter = out;
    }

    @Override
    public void setLoginTimeout(int seconds) {
        this.loginTimeout = seconds;
    }

    @Override
    public int getLoginTimeout() {
        return loginTimeout;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException();
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface.isInstance(this)) {
            return iface.cast(this);
        }
        return delegate().unwrap(iface);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) throws SQLException {
        return iface.isInstance(this) || delegate().isWrapperFor(iface);
    }
}
