package io.tributary.launcher.run;

import io.tributary.storage.groups.GroupState;
import io.tributary.storage.groups.SyncRulesGroup;
import io.tributary.storage.groups.SyncRulesGroups;
import io.tributary.storage.progress.WindowTotals;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/**
 * Replication progress as storage records it, read in one go: the snapshot windows' totals (summed by storage over
 * every table's newest window, one row whatever the table count) and every sync rules group with its checkpoint.
 * What the live display, the caught-up check and the gauges read.
 */
record ProgressSnapshot(WindowTotals windows, List<SyncRulesGroup> groups) {

    static ProgressSnapshot read(Connection storage) throws SQLException {
        return new ProgressSnapshot(WindowTotals.read(storage), SyncRulesGroups.list(storage));
    }

    long rowsDone() {
        return windows.rowsDone();
    }

    long chunksDone() {
        return windows.chunksDone();
    }

    long rowsEstimated() {
        return windows.rowsEstimated();
    }

    long tablesDone() {
        return windows.tablesDone();
    }

    /** Tables with a snapshot window. */
    long tables() {
        return windows.tables();
    }

    /** Windows still being planned or read. */
    long openWindows() {
        return windows.openWindows();
    }

    /** Chunks planned but not done, over the open windows. */
    long pendingChunks() {
        return windows.pendingChunks();
    }

    long failedTables() {
        return windows.failedTables();
    }

    long liveGroups() {
        return groups.stream().filter(g -> g.state().isLive()).count();
    }

    long activeGroups() {
        return groups.stream().filter(g -> g.state() == GroupState.ACTIVE).count();
    }

    /** The newest deployed group, which {@code --until-caught-up} waits for. */
    Optional<SyncRulesGroup> newestGroup() {
        return CatchUpState.newest(groups);
    }

    /** One line for the live display. */
    String line(long elapsedMillis, double rowsPerSecond) {
        StringBuilder line = new StringBuilder(String.format("[%4ds] snapshot %d/%d tables, %s rows",
            elapsedMillis / 1000, tablesDone(), tables(), rowsDone() + "/~" + rowsEstimated()));
        if (rowsPerSecond > 0) {
            line.append(String.format(" (%.0fk rows/s)", rowsPerSecond / 1000));
        }
        if (failedTables() > 0) {
            line.append(", ").append(failedTables()).append(" FAILED");
        }
        newestGroup().ifPresent(group -> line.append(" | group ").append(group.id()).append(' ').append(group.state())
            .append(group.checkpoint().map(c -> ", checkpoint " + c.lsn() + " (op " + c.opId() + ")")
                .orElse(", no checkpoint yet")));
        return line.toString();
    }
}
