package io.tributary.launcher.env;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Objects;

/**
 * Whether the source and the storage database are databases of one Postgres server. Logical decoding reads the
 * server's whole WAL, so ingest's replication slot then reads and drops every storage write and every vacuum of
 * bucket storage: Postgres CPU per op, and changes that wait behind each burst of storage WAL (the bench measured
 * a lag p99 of 4.5 s right after a 1M-change burst on one server, 0.7 s on two). A server is recognized by its
 * postmaster's start time, which any role may read and two servers do not share.
 */
public final class SharedServer {

    private static final String IDENTITY = "SELECT pg_postmaster_start_time()::text";

    private SharedServer() {
    }

    /** Whether {@code source} and {@code storage} are connections to the same server. */
    public static boolean shared(Connection source, Connection storage) throws SQLException {
        return Objects.equals(identity(source), identity(storage));
    }

    /** What the log says when they are. */
    public static String warning(String sourceUrl, String storageUrl) {
        return "The source (" + sourceUrl + ") and the storage database (" + storageUrl + ") are on one Postgres"
            + " server: its logical decoding reads every storage write too, which costs the server CPU and delays"
            + " changes behind bursts of storage writes. Put storage.url on another server in production.";
    }

    private static String identity(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rs = statement.executeQuery(IDENTITY)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
