package io.tributary.ingest.planner;

import io.tributary.postgres.SqlErrors;
import io.tributary.source.catalog.SourceCatalog;
import io.tributary.source.catalog.SourceSchemaException;
import io.tributary.source.catalog.TableDescription;
import io.tributary.source.catalog.TableNotFoundException;
import io.tributary.source.catalog.TableSchema;
import io.tributary.storage.progress.PlannedChunk;
import io.tributary.storage.progress.SnapshotPriority;
import io.tributary.storage.progress.SnapshotProgress;
import io.tributary.storage.progress.WindowKey;
import io.tributary.storage.progress.WindowPlan;
import io.tributary.topics.messages.ChunkRange;
import io.tributary.topics.messages.ChunkTask;
import io.tributary.topics.messages.KeyValues;
import io.tributary.topics.messages.TableId;
import io.tributary.topics.messages.TablePlan;
import io.tributary.topics.messages.TaskPriority;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plans new windows for a batch of tables, in the order the protocol needs:
 * <ol>
 *   <li>describe the tables, in one set of catalog queries for the batch (a table that cannot be replicated as it
 *       is gets a FAILED window with the reason);</li>
 *   <li>open a PLANNING window per table in storage, deleting the windows it replaces (one transaction);</li>
 *   <li>emit every window's marker through the WAL in one source transaction ({@link WindowMarkers}); the marker of
 *       a table that had a window before replaces its rows (capture writes a truncation of the table right
 *       before it), and storage records the WAL position past that transaction;</li>
 *   <li>cut each table into chunks ({@link ChunkSplitter}) and store them, PLANNED (one transaction);</li>
 *   <li>publish each table's {@link TablePlan} to every partition of {@code snapshot-rows}, then its tasks, and
 *       wait for Kafka's acknowledgement (one flush);</li>
 *   <li>mark the windows SNAPSHOTTING (one transaction).</li>
 * </ol>
 * A replacing window stops after step 3: its chunks are cut ({@link #continueMarked}) only once the table log holds
 * the truncation in every partition ({@code SealedBarriers}), so that in each partition of {@code rows} every row of
 * the window, and every op a storage writer makes of it, comes after the removal of the table's earlier rows in
 * every partition (a row whose key changed is removed in one partition and written again in another). An
 * interruption anywhere leaves PLANNING windows that the next round resumes ({@link SnapshotPlanner}). Not
 * thread-safe.
 */
final class WindowPlanning {

    private static final Logger LOG = LoggerFactory.getLogger(WindowPlanning.class);

    /** What a batch did. */
    record Outcome(int opened, int failed, int chunks) {
    }

    private record Planned(TableId table, WindowKey window, TaskPriority priority, List<ChunkTask> tasks) {
    }

    /** A window to cut: its table as described and the priority of its tasks. */
    private record ToCut(TableSchema schema, TaskPriority priority) {
    }

    private final ChunkSplitter splitter;
    private final PlanPublisher publisher;

    WindowPlanning(ChunkSplitter splitter, PlanPublisher publisher) {
        this.splitter = splitter;
        this.publisher = publisher;
    }

    private static void awaitOlderTransactions(Connection source) throws SQLException {
        try {
            WindowMarkers.awaitOlderTransactions(source);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PlanningException("Interrupted while waiting for older source transactions to end", e);
        }
    }

    /**
     * Plans a new window for each of {@code tables}.
     *
     * @param interrupted windows of some of {@code tables} left PLANNING without chunks by an interrupted round:
     *                    each is deleted in the transaction that opens the new windows, so the table is never
     *                    without a window in between
     */
    Outcome plan(Connection storage, Connection source, Map<TableId, TaskPriority> tables,
                 Map<TableId, WindowKey> interrupted) throws SQLException {
        Map<TableId, TableDescription> described = new SourceCatalog(source).describeAll(tables.keySet());
        Map<WindowKey, SnapshotPriority> windows = new LinkedHashMap<>();
        Map<WindowKey, TableSchema> schemas = new LinkedHashMap<>();
        int failed = 0;
        for (Map.Entry<TableId, TaskPriority> entry : tables.entrySet()) {
            TableId table = entry.getKey();
            WindowKey window = WindowKey.of(table.schema(), table.name(), WindowIds.next(Instant.now()));
            SnapshotPriority priority = SnapshotPriority.valueOf(entry.getValue().name());
            try {
                schemas.put(window, described.get(table).schema());
                windows.put(window, priority);
            } catch (TableNotFoundException e) {
                LOG.debug("Not planning {}: {}", table.quoted(), e.getMessage());
            } catch (SourceSchemaException e) {
                LOG.error("Cannot snapshot {}: {}", table.quoted(), e.getMessage());
                SnapshotProgress.recordFailure(storage, window, priority, e.getMessage());
                failed++;
            }
        }
        for (WindowKey replaced : interrupted.values()) {
            LOG.info("Replacing window {}: its planning was interrupted before its chunks were stored", replaced);
        }
        List<WindowKey> opened = SnapshotProgress.open(storage, windows, interrupted.values());
        // after the interrupted windows are gone: one without chunks had no rows of its own in the table log
        Set<WindowKey> replacing = SnapshotProgress.replacing(storage, opened);
        List<WindowMarkers.Marker> toEmit = new ArrayList<>();
        Map<WindowKey, ToCut> now = new LinkedHashMap<>();
        List<WindowKey> later = new ArrayList<>();
        for (WindowKey window : opened) {
            TableId table = schemas.get(window).table();
            boolean replaces = replacing.contains(window);
            toEmit.add(new WindowMarkers.Marker(table, window.windowId(), replaces));
            if (replaces) {
                later.add(window);
            } else {
                now.put(window, new ToCut(schemas.get(window), TaskPriority.valueOf(windows.get(window).name())));
            }
        }
        if (!toEmit.isEmpty()) {
            WindowMarkers.emitAll(source, toEmit);
            String past = WindowMarkers.insertPosition(source).toString();
            Map<WindowKey, String> markers = new LinkedHashMap<>();
            opened.forEach(window -> markers.put(window, past));
            SnapshotProgress.recordMarkers(storage, markers);
        }
        if (!later.isEmpty()) {
            LOG.info("Snapshot windows {} replace their tables' rows: they are cut into chunks once the table log"
                + " holds the truncation in every partition", later);
        }
        Outcome cut = cut(storage, source, now);
        return new Outcome(opened.size(), failed + cut.failed(), cut.chunks());
    }

    /**
     * Cuts PLANNING windows whose markers are in the WAL, and whose tables' truncations the table log holds in every
     * partition, into chunks (steps 4 to 6): their tables are described again, a table that cannot be any more fails
     * its window.
     */
    Outcome continueMarked(Connection storage, Connection source, Map<WindowKey, TaskPriority> windows)
        throws SQLException {
        Map<TableId, WindowKey> byTable = new LinkedHashMap<>();
        windows.keySet().forEach(w -> byTable.put(TableId.of(w.schema(), w.table()), w));
        Map<TableId, TableDescription> described = new SourceCatalog(source).describeAll(byTable.keySet());
        Map<WindowKey, ToCut> toCut = new LinkedHashMap<>();
        int failed = 0;
        for (Map.Entry<TableId, WindowKey> entry : byTable.entrySet()) {
            WindowKey window = entry.getValue();
            try {
                toCut.put(window, new ToCut(described.get(entry.getKey()).schema(), windows.get(window)));
            } catch (SourceSchemaException e) {
                String error = "Cannot snapshot " + entry.getKey().quoted() + ": " + e.getMessage();
                LOG.error(error);
                SnapshotProgress.fail(storage, window, error);
                failed++;
            }
        }
        Outcome cut = cut(storage, source, toCut);
        return new Outcome(0, failed + cut.failed(), cut.chunks());
    }

    /** Steps 4 to 6 for {@code windows}, whose markers are in the WAL. */
    private Outcome cut(Connection storage, Connection source, Map<WindowKey, ToCut> windows) throws SQLException {
        if (windows.isEmpty()) {
            return new Outcome(0, 0, 0);
        }
        awaitOlderTransactions(source);
        int failed = 0;
        List<WindowPlan> plans = new ArrayList<>();
        Map<WindowKey, Planned> planned = new LinkedHashMap<>();
        for (Map.Entry<WindowKey, ToCut> entry : windows.entrySet()) {
            WindowKey window = entry.getKey();
            TableSchema schema = entry.getValue().schema();
            TaskPriority priority = entry.getValue().priority();
            TableSplit split;
            try {
                split = splitter.split(source, schema);
            } catch (SQLException e) {
                if (SqlErrors.classify(e).isRetriable()) {
                    throw e;
                }
                String error = "Cannot cut " + schema.table().quoted() + " into chunks: " + e.getMessage();
                LOG.error(error);
                SnapshotProgress.fail(storage, window, error);
                failed++;
                continue;
            }
            List<PlannedChunk> chunks = new ArrayList<>();
            List<ChunkTask> tasks = new ArrayList<>();
            for (int i = 0; i < split.ranges().size(); i++) {
                ChunkRange range = split.ranges().get(i);
                String chunkId = WindowIds.chunkId(window.windowId(), i);
                chunks.add(new PlannedChunk(chunkId, i, range.lo().map(KeyValues::json),
                    range.hi().map(KeyValues::json)));
                tasks.add(ChunkTask.first(chunkId, schema.table(), range, priority, window.windowId()));
            }
            plans.add(new WindowPlan(window, split.rowsEstimated(), chunks));
            planned.put(window, new Planned(schema.table(), window, priority, tasks));
        }
        List<WindowKey> stored = SnapshotProgress.storeChunks(storage, plans);
        int chunks = 0;
        for (WindowKey window : stored) {
            Planned p = planned.get(window);
            publisher.plan(TablePlan.of(p.table(), window.windowId(), p.tasks().size()));
            publisher.tasks(p.tasks());
            chunks += p.tasks().size();
        }
        publisher.flush();
        SnapshotProgress.markSnapshotting(storage, stored);
        for (WindowKey window : stored) {
            Planned p = planned.get(window);
            LOG.info("Snapshot of {} planned: window {}, {} chunks, ~{} rows, {}", p.table().quoted(),
                window.windowId(), p.tasks().size(), plans.stream().filter(w -> w.window().equals(window))
                    .findFirst().map(WindowPlan::rowsEstimated).orElse(0L), p.priority().wireName());
        }
        return new Outcome(stored.size(), failed, chunks);
    }
}
