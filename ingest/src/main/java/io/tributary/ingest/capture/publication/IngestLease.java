package io.tributary.ingest.capture.publication;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import java.util.OptionalInt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The right to start an engine run on one replication slot: a session-level advisory lock on the source, keyed by
 * the slot's name, held on a connection of its own from before the run creates the deployment's transactional
 * producer until the run has ended. The slot admits one reader, but only once the engine reads it, seconds after
 * the run's producer has fenced every other one: two instances that both found the slot free would fence each
 * other's producers in turn. With the lease, the second one stands by instead. Postgres releases the lock when the
 * connection ends, so a killed process frees it at once. Not thread-safe: owned by one run.
 */
public final class IngestLease implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(IngestLease.class);

    /** The advisory lock's first key: which locks are ingest leases. */
    private static final int LEASE_CLASS = 0x54524942;

    private static final String TRY = "SELECT pg_try_advisory_lock(?, hashtext(?))";

    private static final String HOLDER = """
        SELECT pid FROM pg_locks
         WHERE locktype = 'advisory' AND granted AND objsubid = 2 AND database = (
               SELECT oid FROM pg_database WHERE datname = current_database())
           AND classid = (?::bigint & 4294967295)::oid AND objid = (hashtext(?)::bigint & 4294967295)::oid""";

    private final Connection connection;

    private IngestLease(Connection connection) {
        this.connection = connection;
    }

    /**
     * Takes the lease of {@code slot} on {@code connection}, which then belongs to the lease (closed with it, or
     * here when the lease is held elsewhere).
     *
     * @return the lease, or empty if another session holds it
     */
    public static Optional<IngestLease> tryAcquire(Connection connection, String slot) throws SQLException {
        try (PreparedStatement s = connection.prepareStatement(TRY)) {
            s.setInt(1, LEASE_CLASS);
            s.setString(2, slot);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                if (rs.getBoolean(1)) {
                    return Optional.of(new IngestLease(connection));
                }
            }
        } catch (SQLException | RuntimeException e) {
            connection.close();
            throw e;
        }
        connection.close();
        return Optional.empty();
    }

    /** The backend process holding the lease of {@code slot}, if any session holds it now. */
    public static OptionalInt holder(Connection connection, String slot) throws SQLException {
        try (PreparedStatement s = connection.prepareStatement(HOLDER)) {
            s.setInt(1, LEASE_CLASS);
            s.setString(2, slot);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? OptionalInt.of(rs.getInt(1)) : OptionalInt.empty();
            }
        }
    }

    /** Gives the lease back by closing its connection; a connection already lost has given it back. */
    @Override
    public void close() {
        try {
            connection.close();
        } catch (SQLException e) {
            LOG.debug("Closing the ingest lease's connection failed; the lease ended with it", e);
        }
    }
}
