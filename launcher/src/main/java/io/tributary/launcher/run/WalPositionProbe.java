package io.tributary.launcher.run;

import io.tributary.launcher.config.JdbcEndpoint;
import io.tributary.launcher.env.Environment;
import io.tributary.topics.messages.Lsn;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;

/** Reads the source's current WAL position over one kept connection, reconnecting after a failure. */
final class WalPositionProbe implements AutoCloseable {

    private final JdbcEndpoint source;
    private Optional<Connection> connection = Optional.empty();

    WalPositionProbe(JdbcEndpoint source) {
        this.source = source;
    }

    /** {@code pg_current_wal_lsn()} now. */
    synchronized Lsn read() throws SQLException {
        if (connection.isEmpty()) {
            connection = Optional.of(Environment.connect(source));
        }
        try (Statement statement = connection.get().createStatement();
             ResultSet rs = statement.executeQuery("SELECT pg_current_wal_lsn()::text")) {
            rs.next();
            return Lsn.parse(rs.getString(1));
        } catch (SQLException e) {
            close();
            throw e;
        }
    }

    @Override
    public synchronized void close() {
        connection.ifPresent(c -> {
            try {
                c.close();
            } catch (SQLException e) {
                // The connection is being dropped; nothing to hand back.
                connection = Optional.empty();
            }
        });
        connection = Optional.empty();
    }
}
