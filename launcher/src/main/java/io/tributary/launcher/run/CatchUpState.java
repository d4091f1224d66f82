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
 * What {@code run --until-caught-up} checks twice a second: the snapshot windows still open and every sync rules
 * group with its checkpoint. Cheaper than a {@link ProgressSnapshot}: the open windows are counted without summing
 * every table's newest window.
 *
 * @param openWindows windows still being planned or read
 * @param groups      every group, oldest first
 */
record CatchUpState(long openWindows, List<SyncRulesGroup> groups) {

    CatchUpState {
        groups = List.copyOf(groups);
    }

    static CatchUpState read(Connection storage) throws SQLException {
        return new CatchUpState(WindowTotals.countOpen(storage), SyncRulesGroups.list(storage));
    }

    /** The newest deployed group, which {@code --until-caught-up} waits for. */
    Optional<SyncRulesGroup> newestGroup() {
        return newest(groups);
    }

    /** Whether no group is on its way out: every group but the newest is TERMINATED and cleared. */
    boolean settled() {
        return groups.stream().limit(Math.max(0, groups.size() - 1))
            .allMatch(group -> group.state() == GroupState.TERMINATED && group.cleared());
    }

    /** The last of {@code groups} (oldest first), if any. */
    static Optional<SyncRulesGroup> newest(List<SyncRulesGroup> groups) {
        return groups.isEmpty() ? Optional.empty() : Optional.of(groups.get(groups.size() - 1));
    }
}
