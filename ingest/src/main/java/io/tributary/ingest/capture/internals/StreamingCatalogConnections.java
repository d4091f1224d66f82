package io.tributary.ingest.capture.internals;

import io.debezium.jdbc.JdbcConfiguration;
import io.debezium.jdbc.JdbcConnection;
import io.debezium.jdbc.JdbcConnection.ConnectionFactory;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;

/**
 * Opens Debezium's JDBC connections to the source (set as the connector's {@code database.connection.factory.class}):
 * the same pgjdbc connections Debezium opens by itself (same URL, same properties), except that listing the catalog
 * answers nothing: {@link DatabaseMetaData#getTables} no tables, {@link DatabaseMetaData#getColumns} without a table
 * name no columns. The columns of a named table are listed as always.
 *
 * <p>Why: when streaming starts, Debezium reads the structure of every table of the database it may capture (one
 * primary key query and one replica identity query per table, on top of the column listing), whatever the snapshot
 * mode; with 10,000 tables that is 20,000 catalog queries at every start of ingest, more source CPU than the
 * snapshot's own reads of those tables. Ingest needs none of it: on pgoutput Debezium learns each table from the
 * relation message that precedes the table's first change in every streaming session (its columns, then its key
 * by its own per-table lookups, as for a table created while it runs), and ingest encodes rows and keys from its
 * own catalog reads ({@link TableEncoders}). Debezium's other uses of the table listing (its snapshots, incremental
 * snapshots, publication auto-creation, replica identity auto-set, guardrails) are disabled by
 * {@link EngineProperties}.
 *
 * <p>Every other call, {@code unwrap} to pgjdbc's own connection classes included, reaches the pgjdbc connection
 * unchanged. Stateless and thread-safe; Debezium instantiates it by its public no-argument constructor.
 */
public final class StreamingCatalogConnections implements ConnectionFactory {

    /** The connection URL Debezium's Postgres connector builds from its {@code database.*} settings. */
    private static final String URL_PATTERN = "jdbc:postgresql://${" + JdbcConfiguration.HOSTNAME + "}:${"
        + JdbcConfiguration.PORT + "}/${" + JdbcConfiguration.DATABASE + "}";

    /**
     * A relation name pattern no relation matches: longer than any name Postgres stores (63 bytes), with no
     * wildcard.
     */
    private static final String NO_RELATION = "x".repeat(64);

    private static final ConnectionFactory PGJDBC = JdbcConnection.patternBasedFactory(URL_PATTERN,
        org.postgresql.Driver.class.getName(), StreamingCatalogConnections.class.getClassLoader(),
        JdbcConfiguration.PORT.withDefault("5432"));

    /** For Debezium, which creates the factory from its class name. */
    public StreamingCatalogConnections() {
    }

    @Override
    public Connection connect(JdbcConfiguration config) throws SQLException {
        return wrap(PGJDBC.connect(config));
    }

    /** {@code connection}, whose metadata lists no tables and no columns but a named table's. */
    static Connection wrap(Connection connection) {
        return proxy(Connection.class, connection, (method, args) -> {
            if (method.getName().equals("getMetaData") && method.getParameterCount() == 0) {
                return metadata(connection.getMetaData());
            }
            return method.invoke(connection, args);
        });
    }

    private static DatabaseMetaData metadata(DatabaseMetaData metadata) {
        return proxy(DatabaseMetaData.class, metadata, (method, args) -> {
            if (method.getName().equals("getTables") && method.getParameterCount() == 4) {
                // No table type selects no relation: an empty result with pgjdbc's own columns.
                return metadata.getTables((String) args[0], (String) args[1], (String) args[2], new String[0]);
            }
            if (method.getName().equals("getColumns") && method.getParameterCount() == 4 && args[2] == null) {
                return metadata.getColumns((String) args[0], (String) args[1], NO_RELATION, (String) args[3]);
            }
            return method.invoke(metadata, args);
        });
    }

    private static <T> T proxy(Class<T> type, T target, Call call) {
        InvocationHandler handler = (proxy, method, args) -> {
            if (method.getDeclaringClass() == Object.class) {
                return switch (method.getName()) {
                    case "equals" -> proxy == args[0];
                    case "hashCode" -> System.identityHashCode(proxy);
                    default -> method.invoke(target, args);
                };
            }
            try {
                return call.invoke(method, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        };
        return type.cast(Proxy.newProxyInstance(StreamingCatalogConnections.class.getClassLoader(),
            new Class<?>[] {type}, handler));
    }

    @FunctionalInterface
    private interface Call {
        Object invoke(Method method, Object[] args) throws Exception;
    }
}
