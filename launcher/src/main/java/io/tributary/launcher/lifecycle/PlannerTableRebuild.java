package io.tributary.launcher.lifecycle;

import io.tributary.ingest.planner.SnapshotPlanner;
import io.tributary.storage.progress.SnapshotProgress;
import io.tributary.storage.progress.WindowProgress;
import io.tributary.topics.messages.TableId;
import io.tributary.topics.messages.TaskPriority;
import java.sql.Connection;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Rebuilds the table log through the snapshot planner: a new window, at the top priority, for every table storage
 * has a window for. A window still open is failed first: its markers were in the records Kafka lost, so the merge
 * would never see it open and it would never become ready.
 */
public final class PlannerTableRebuild implements TableLogRecovery.TableRebuild {

    private final Supplier<SnapshotPlanner> planner;

    /** @param planner this process's planner; returns null while it is not started (the rebuild then waits) */
    public PlannerTableRebuild(Supplier<SnapshotPlanner> planner) {
        this.planner = planner;
    }

    @Override
    public int snapshotEveryTable(Connection storage) throws Exception {
        SnapshotPlanner started = planner.get();
        if (started == null) {
            throw new IllegalStateException("the snapshot planner is not started yet");
        }
        Set<TableId> tables = new LinkedHashSet<>();
        for (WindowProgress window : SnapshotProgress.latestWindows(storage)) {
            tables.add(TableId.of(window.window().schema(), window.window().table()));
            SnapshotProgress.fail(storage, window.window(), "Kafka lost records of this window's table log before"
                + " the window was ready; the table is snapshotted again in a new window");
        }
        int opened = 0;
        for (TableId table : tables) {
            if (started.resnapshot(table, TaskPriority.ACTIVE_SNAPSHOT).isPresent()) {
                opened++;
            }
        }
        return opened;
    }
}
