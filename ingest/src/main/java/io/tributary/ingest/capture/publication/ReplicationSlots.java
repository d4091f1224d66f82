package io.tributary.ingest.capture.publication;

import io.tributary.ingest.capture.CaptureSetupException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import java.util.OptionalInt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The logical replication slot ingest reads: created if missing (pgoutput, in the connected database), and
 * observed to find whether another process reads it. A slot admits one reader at a time, which is what makes one
 * ingest instance active and the others standbys. Stateless and thread-safe.
 */
public final class ReplicationSlots {

    private static final Logger LOG = LoggerFactory.getLogger(ReplicationSlots.class);

    private static final String FIND = """
        SELECT plugin, slot_type, database, current_database(), active_pid
          FROM pg_replication_slots
         WHERE slot_name = ?""";

    private ReplicationSlots() {
    }

    /**
     * Creates the slot if it does not exist. Changes committed after this returns are kept for ingest.
     *
     * @throws CaptureSetupException if a slot of that name exists for another database or plugin
     */
    public static void ensure(Connection connection, String slot) throws SQLException {
        if (find(connection, slot).isPresent()) {
            return;
        }
        try (PreparedStatement create = connection.prepareStatement(
            "SELECT pg_create_logical_replication_slot(?, 'pgoutput')")) {
            create.setString(1, slot);
            create.execute();
            LOG.info("Created logical replication slot {} (pgoutput)", slot);
        } catch (SQLException e) {
            if (!"42710".equals(e.getSQLState())) {
                throw e;
            }
            find(connection, slot);
        }
    }

    /** The slot's status, empty if there is no such slot. */
    public static Optional<SlotStatus> status(Connection connection, String slot) throws SQLException {
        return find(connection, slot);
    }

    private static Optional<SlotStatus> find(Connection connection, String slot) throws SQLException {
        try (PreparedStatement s = connection.prepareStatement(FIND)) {
            s.setString(1, slot);
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                String plugin = rs.getString(1);
                String type = rs.getString(2);
                String database = rs.getString(3);
                if (!"logical".equals(type) || !"pgoutput".equals(plugin) || !rs.getString(4).equals(database)) {
                    throw new CaptureSetupException("Replication slot \"" + slot + "\" exists but is a " + type
                        + " slot with plugin " + plugin + " for database " + database + "; ingest needs a logical"
                        + " pgoutput slot in database " + rs.getString(4) + ". Choose another slot name in the"
                        + " configuration, or drop it: SELECT pg_drop_replication_slot('" + slot + "');");
                }
                int pid = rs.getInt(5);
                return Optional.of(new SlotStatus(slot, rs.wasNull() ? OptionalInt.empty() : OptionalInt.of(pid)));
            }
        }
    }
}
