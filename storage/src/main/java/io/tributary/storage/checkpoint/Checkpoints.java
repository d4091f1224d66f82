package io.tributary.storage.checkpoint;

import io.tributary.storage.groups.Checkpoint;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * Reading published checkpoints, and waiting for them to advance.
 *
 * <p>Storage writers publish a group's checkpoint by a compare-and-set on its {@code sync_rules} row (only ever
 * forward) and, in the same transaction, {@code NOTIFY} {@value #CHANNEL} with the group id as payload. A reader
 * that wants every advance {@link #listen(Connection) listens} on a dedicated auto-commit connection and then
 * {@link #awaitAdvances(Connection, Duration) waits}; notifications coalesce, so after a wake-up it reads the
 * {@link #current(Connection, long) current} checkpoint rather than counting notifications.
 *
 * <p>Stateless and thread-safe; connections are not.
 */
public final class Checkpoints {

    /** The {@code LISTEN / NOTIFY} channel; the payload is the group id in decimal. */
    public static final String CHANNEL = "tributary_checkpoint";

    private Checkpoints() {
    }

    /** The newest published checkpoint of group {@code groupId}, empty before the first one. */
    public static Optional<Checkpoint> current(Connection connection, long groupId) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement("SELECT checkpoint_op_id, checkpoint_lsn::text,"
            + " checkpoint_epoch FROM tributary.sync_rules WHERE group_id = ?")) {
            select.setLong(1, groupId);
            try (ResultSet rs = select.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                long opId = rs.getLong(1);
                if (rs.wasNull()) {
                    return Optional.empty();
                }
                return Optional.of(new Checkpoint(opId, rs.getString(2), rs.getLong(3)));
            }
        }
    }

    /** Subscribes {@code connection} (auto-commit, dedicated to listening) to {@link #CHANNEL}. */
    public static void listen(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute("LISTEN " + CHANNEL);
        }
    }

    /**
     * Waits up to {@code timeout} for checkpoint notifications on a {@link #listen(Connection) listening}
     * connection.
     *
     * @return the ids of the groups whose checkpoint advanced (possibly repeated), empty on timeout
     */
    public static List<Long> awaitAdvances(Connection connection, Duration timeout) throws SQLException {
        PGConnection pg = connection.unwrap(PGConnection.class);
        PGNotification[] notifications = pg.getNotifications((int) Math.max(1, Math.min(Integer.MAX_VALUE,
            timeout.toMillis())));
        List<Long> groups = new ArrayList<>();
        if (notifications != null) {
            for (PGNotification notification : notifications) {
                if (CHANNEL.equals(notification.getName())) {
                    groups.add(Long.parseLong(notification.getParameter()));
                }
            }
        }
        return groups;
    }
}
