package io.tributary.ingest.planner;

import io.tributary.storage.progress.SnapshotPriority;
import io.tributary.storage.progress.SnapshotProgress;
import io.tributary.storage.progress.WindowKey;
import io.tributary.topics.messages.TableId;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tables a live group's writers applied rows of ({@code table_rows}) that have no snapshot window and no longer
 * exist in the source: created after the group was planned, streamed, and dropped before a planning round opened
 * their window. Such a table holds the group's checkpoints while it has no window, and it can never get a regular
 * one. Each gets a FAILED window saying so, which releases the checkpoints; the rows it streamed before the drop
 * stay in the buckets, as those of any dropped table do (a drop writes no deletes to the WAL). A table of that name
 * created again later is a table the source has, so the planner snapshots it like any new one.
 *
 * <p>Stateless; runs in the planner's round, on its connections.
 */
final class DroppedTables {

    private static final Logger LOG = LoggerFactory.getLogger(DroppedTables.class);

    // A set difference, hashed: an anti-join probes source_tables once per row of table_rows (a row per partition
    // and table), which costs several times as much with thousands of tables, in every planning round.
    private static final String WITHOUT_WINDOW = "SELECT table_schema, table_name FROM tributary.table_rows"
        + " WHERE group_id IN (SELECT group_id FROM tributary.sync_rules WHERE state IN ('PROCESSING', 'ACTIVE'))"
        + " EXCEPT SELECT table_schema, table_name FROM tributary.source_tables ORDER BY 1, 2";
    private static final String EXISTS = "SELECT EXISTS (SELECT 1 FROM pg_class c JOIN pg_namespace n"
        + " ON n.oid = c.relnamespace WHERE n.nspname = ? AND c.relname = ?)";

    private DroppedTables() {
    }

    /**
     * Records a FAILED window for every table with applied rows, no window and no longer in {@code source}.
     *
     * @return the tables recorded
     */
    static List<TableId> recordWindows(Connection storage, Connection source) throws SQLException {
        List<TableId> dropped = new ArrayList<>();
        for (TableId table : withoutWindow(storage)) {
            if (!exists(source, table)) {
                String error = table.quoted() + " was dropped from the source before its snapshot window opened;"
                    + " the rows it streamed before the drop stay in the buckets (a drop deletes nothing there), and"
                    + " a table created again under this name is snapshotted as a new one";
                SnapshotProgress.recordFailure(storage, WindowKey.of(table.schema(), table.name(),
                    WindowIds.next(Instant.now())), SnapshotPriority.ACTIVE_SNAPSHOT, error);
                LOG.warn("{}: its checkpoints are no longer held for it", error);
                dropped.add(table);
            }
        }
        return dropped;
    }

    private static List<TableId> withoutWindow(Connection storage) throws SQLException {
        List<TableId> tables = new ArrayList<>();
        try (PreparedStatement select = storage.prepareStatement(WITHOUT_WINDOW);
             ResultSet rs = select.executeQuery()) {
            while (rs.next()) {
                tables.add(TableId.of(rs.getString(1), rs.getString(2)));
            }
        }
        return tables;
    }

    private static boolean exists(Connection source, TableId table) throws SQLException {
        try (PreparedStatement select = source.prepareStatement(EXISTS)) {
            select.setString(1, table.schema());
            select.setString(2, table.name());
            try (ResultSet rs = select.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        }
    }
}
