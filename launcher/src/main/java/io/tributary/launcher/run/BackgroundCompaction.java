package io.tributary.launcher.run;

import io.tributary.launcher.config.CompactionConfig;
import io.tributary.launcher.config.JdbcEndpoint;
import io.tributary.launcher.env.Environment;
import io.tributary.storage.compact.BucketCompactor;
import io.tributary.storage.groups.GroupState;
import io.tributary.storage.groups.SyncRulesGroup;
import io.tributary.storage.groups.SyncRulesGroups;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compacts the bucket storage of every ACTIVE group every {@code compaction.interval_seconds}, on one thread of
 * the storage role, each pass reading at most {@code compaction.pass_ops} ops of a group and the next going on
 * where it stopped (one compactor for the process's life, so a bucket it stopped inside is resumed, not
 * restarted). Processes compacting the same group take turns (the compactor's advisory lock); a pass that fails is
 * logged and the next interval tries again.
 */
final class BackgroundCompaction implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(BackgroundCompaction.class);

    private final JdbcEndpoint storage;
    private final BucketCompactor compactor;
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "compaction");
        thread.setDaemon(true);
        return thread;
    });

    private BackgroundCompaction(JdbcEndpoint storage, CompactionConfig config) {
        this.storage = storage;
        this.compactor = BucketCompactor.ofBatch(config.batchOps()).boundedTo(config.passOps());
    }

    /** Starts compacting every {@code config.interval()}, the first time one interval from now. */
    static BackgroundCompaction start(JdbcEndpoint storage, CompactionConfig config) {
        if (!config.background()) {
            throw new IllegalArgumentException("Background compaction is off (compaction.interval_seconds = 0)");
        }
        BackgroundCompaction compaction = new BackgroundCompaction(storage, config);
        long millis = config.interval().toMillis();
        compaction.scheduler.scheduleWithFixedDelay(compaction::pass, millis, millis, TimeUnit.MILLISECONDS);
        return compaction;
    }

    private void pass() {
        try (Connection connection = Environment.connect(storage)) {
            for (SyncRulesGroup group : SyncRulesGroups.list(connection)) {
                if (group.state() == GroupState.ACTIVE) {
                    compactor.compact(connection, group.id());
                }
            }
        } catch (SQLException | RuntimeException e) {
            LOG.warn("Compaction pass failed, next one in an interval: {}", e.toString());
        }
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
    }
}
