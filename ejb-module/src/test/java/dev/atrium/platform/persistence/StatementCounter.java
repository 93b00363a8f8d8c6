package dev.atrium.platform.persistence;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import javax.sql.DataSource;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;

/**
 * A data source that counts the statements sent to the database, for the query-count tests of the hot paths: it
 * wraps the connections and statements it hands out and records the SQL of every execution, so a test can say
 * "one list, three statements, whatever the page size" and fail when an N+1 comes back.
 */
public final class StatementCounter {

    private static final Pattern SEQUENCE = Pattern.compile("(?i)next value for|nextval\\(");

    private final List<String> executed = Collections.synchronizedList(new ArrayList<>());
    private final DataSource dataSource;
    private EntityManagerFactory entityManagers;

    /** A new database of {@link TestDatabases}, migrated, whose statements are counted. */
    public static StatementCounter database(String name) {
        var target = TestDatabases.dataSource(name);
        TestDatabases.migrate(target);
        return new StatementCounter(target);
    }

    public StatementCounter(DataSource target) {
        this.dataSource = (DataSource) Proxy.newProxyInstance(StatementCounter.class.getClassLoader(),
                new Class<?>[] {DataSource.class}, (proxy, method, args) -> {
                    Object result = invoke(target, method, args);
                    return result instanceof Connection c ? connection(c) : result;
                });
    }

    public DataSource dataSource() {
        return dataSource;
    }

    /** The application's persistence unit over the counted data source, made once. */
    public synchronized EntityManagerFactory entityManagers() {
        if (entityManagers == null) {
            entityManagers = TestDatabases.entityManagers(dataSource);
        }
        return entityManagers;
    }

    /** Runs {@code work} in a resource-local transaction and persistence context of its own. */
    public <T> T inTransaction(Function<EntityManager, T> work) {
        return TestDatabases.inTransaction(entityManagers(), work);
    }

    /**
     * One request as a container-managed call makes it, on {@code em}: a fresh persistence context and a transaction of
     * its own; only its statements are counted.
     */
    public <T> T request(EntityManager em, Supplier<T> work) {
        em.clear();
        reset();
        em.getTransaction().begin();
        try {
            return work.get();
        } finally {
            em.getTransaction().commit();
        }
    }

    public synchronized void close() {
        if (entityManagers != null) {
            entityManagers.close();
        }
    }

    /** The statements executed since the last {@link #reset()}, their SQL in order. */
    public List<String> statements() {
        synchronized (executed) {
            return List.copyOf(executed);
        }
    }

    /**
     * The statements but the identifier pre-allocations (one sequence call per 50 inserts of an entity, whichever
     * request happens to need the next block).
     */
    public List<String> statementsButSequences() {
        return statements().stream().filter(sql -> !SEQUENCE.matcher(sql).find()).toList();
    }

    public int count() {
        return executed.size();
    }

    public void reset() {
        executed.clear();
    }

    private Connection connection(Connection target) {
        return (Connection) Proxy.newProxyInstance(StatementCounter.class.getClassLoader(),
                new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                    Object result = invoke(target, method, args);
                    if (result instanceof Statement s) {
                        String sql = method.getName().startsWith("prepare") && args != null && args[0] instanceof String q
                                ? q : null;
                        return statement(s, sql);
                    }
                    return result;
                });
    }

    private Object statement(Statement target, String preparedSql) {
        var interfaces = new ArrayList<Class<?>>();
        for (Class<?> type = target.getClass(); type != null; type = type.getSuperclass()) {
            for (Class<?> i : type.getInterfaces()) {
                if (Statement.class.isAssignableFrom(i) && !interfaces.contains(i)) {
                    interfaces.add(i);
                }
            }
        }
        InvocationHandler handler = (proxy, method, args) -> {
            if (method.getName().startsWith("execute")) {
                executed.add(preparedSql != null ? preparedSql
                        : args != null && args.length > 0 && args[0] instanceof String sql ? sql : method.getName());
            }
            return invoke(target, method, args);
        };
        return Proxy.newProxyInstance(StatementCounter.class.getClassLoader(), interfaces.toArray(Class<?>[]::new),
                handler);
    }

    private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
