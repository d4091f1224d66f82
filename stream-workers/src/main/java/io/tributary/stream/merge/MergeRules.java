package io.tributary.stream.merge;

import io.tributary.topics.messages.Barrier;
import io.tributary.topics.messages.ChangeEvent;
import io.tributary.topics.messages.ChangeEventBatch;
import io.tributary.topics.messages.ChangeOp;
import io.tributary.topics.messages.ChangesMessage;
import io.tributary.topics.messages.ChunkDone;
import io.tributary.topics.messages.PgSnapshot;
import io.tributary.topics.messages.ResolvedDelete;
import io.tributary.topics.messages.ResolvedRow;
import io.tributary.topics.messages.RowsMessage;
import io.tributary.topics.messages.SnapshotRow;
import io.tributary.topics.messages.SnapshotRowBatch;
import io.tributary.topics.messages.SnapshotRowsMessage;
import io.tributary.topics.messages.TableId;
import io.tributary.topics.messages.TablePlan;
import io.tributary.topics.messages.TableReady;
import io.tributary.topics.messages.TableTruncate;
import io.tributary.topics.messages.TableWindowMarker;
import io.tributary.topics.messages.TopicMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The merge of one partition of {@code changes} and {@code snapshot-rows} into that partition of {@code rows}
 * (docs/design.md): a deterministic state machine over a {@link MergeStore}. Each input yields the records
 * to append to {@code rows}, in order; the two inputs may interleave in any way and the final content of
 * {@code rows} (last record per key) is the same.
 *
 * <ul>
 *   <li>Change events pass through (INSERT/UPDATE as {@link ResolvedRow}, DELETE as {@link ResolvedDelete}),
 *       except those at or below the partition's {@code (LSN, seq)} high-water mark (re-sends).
 *       Truncations likewise; barriers are forwarded unless re-sent.</li>
 *   <li>A window marker opens the table's window: from then on, until the window is ready, the last emitted
 *       stream transaction per key of the table is remembered (one id per key suffices, since per row commit order
 *       is visibility order).</li>
 *   <li>A snapshot row (alone in its record or in a {@link SnapshotRowBatch}) is emitted unless its window is
 *       closed, its chunk is done, its attempt is lower than one already seen for the chunk, or an emitted stream
 *       event of its key (or a truncation of its table) is invisible in its snapshot. A row whose window marker
 *       has not arrived yet is safe to emit: every event emitted so far precedes the marker, so it is visible in
 *       the row's snapshot.</li>
 *   <li>A chunk-done marker of the highest attempt completes the chunk; when the table's open window has its
 *       plan and every planned chunk done, {@link TableReady} (high watermark = the highest chunk high watermark)
 *       is emitted and the table's per-key state is released.</li>
 *   <li>When a window closes (ready, or superseded by the table's next window), the states of its chunks are
 *       released: rows and done markers carry their window, so late ones are dropped by it, and the store keeps
 *       only the chunks of windows still open or pending.</li>
 * </ul>
 *
 * <p>Not thread-safe (like its store).
 */
public final class MergeRules {

    private final MergeStore store;
    private final MergeObserver observer;

    /** Rules over {@code store}, reporting drops to {@code observer}. */
    public MergeRules(MergeStore store, MergeObserver observer) {
        this.store = Objects.requireNonNull(store, "store");
        this.observer = Objects.requireNonNull(observer, "observer");
    }

    /** Rules over {@code store}. */
    public MergeRules(MergeStore store) {
        this(store, MergeObserver.NONE);
    }

    /**
     * Merges the next record of {@code changes}; returns what to append to {@code rows}. A {@link ChangeEventBatch}
     * yields exactly what its events would, each in a record of its own, in order.
     */
    public List<RowsMessage> apply(ChangesMessage input) {
        if (input instanceof ChangeEvent event) {
            return change(event);
        } else if (input instanceof ChangeEventBatch batch) {
            List<RowsMessage> out = new ArrayList<>(batch.events().size());
            for (ChangeEvent event : batch.events()) {
                out.addAll(change(event));
            }
            return out;
        } else if (input instanceof Barrier barrier) {
            return barrier(barrier);
        } else if (input instanceof TableWindowMarker marker) {
            return windowMarker(marker);
        } else if (input instanceof TableTruncate truncate) {
            return truncate(truncate);
        }
        throw new IllegalArgumentException("Unknown changes message " + input.getClass().getName());
    }

    /**
     * Merges the next record of {@code snapshot-rows}; returns what to append to {@code rows}. A
     * {@link SnapshotRowBatch} yields exactly what its rows would, each in a record of its own, in order: what its
     * rows share (window, chunk, attempt) is decided once for the batch, what depends on the key per row.
     */
    public List<RowsMessage> apply(SnapshotRowsMessage input) {
        if (input instanceof SnapshotRow row) {
            return snapshotRows(row, List.of(row));
        } else if (input instanceof SnapshotRowBatch batch) {
            return snapshotRows(batch, batch.rows());
        } else if (input instanceof ChunkDone done) {
            return chunkDone(done);
        } else if (input instanceof TablePlan plan) {
            return plan(plan);
        }
        throw new IllegalArgumentException("Unknown snapshot-rows message " + input.getClass().getName());
    }

    private List<RowsMessage> change(ChangeEvent event) {
        PartitionState partition = store.partition();
        if (partition.isDuplicate(event.position())) {
            return drop(event, DropReason.DUPLICATE_EVENT);
        }
        store.putPartition(partition.withHighWater(event.position()));
        Optional<TableState> table = store.table(event.table());
        if (table.isPresent() && table.get().isTracked()) {
            store.putLastTxId(event.table(), table.get().generation(), event.pk(), event.txId());
        }
        return List.of(event.op() == ChangeOp.DELETE
            ? new ResolvedDelete(event.table(), event.pk()) : ResolvedRow.of(event));
    }

    private List<RowsMessage> truncate(TableTruncate truncate) {
        PartitionState partition = store.partition();
        if (partition.isDuplicate(truncate.position())) {
            return drop(truncate, DropReason.DUPLICATE_EVENT);
        }
        store.putPartition(partition.withHighWater(truncate.position()));
        Optional<TableState> table = store.table(truncate.table());
        if (table.isPresent() && table.get().isTracked()) {
            store.putTable(table.get().withTruncation(truncate.txId()));
        }
        return List.of(truncate);
    }

    private List<RowsMessage> barrier(Barrier barrier) {
        PartitionState partition = store.partition();
        if (partition.isStale(barrier)) {
            return drop(barrier, DropReason.REPEATED_BARRIER);
        }
        store.putPartition(partition.withBarrier(barrier));
        return List.of(barrier);
    }

    private List<RowsMessage> windowMarker(TableWindowMarker marker) {
        TableState table = store.table(marker.table()).orElse(TableState.initial(marker.table()));
        Optional<WindowState> window = table.window(marker.windowId());
        if (window.isPresent() && window.get().phase() != WindowPhase.PENDING) {
            return drop(marker, DropReason.REPEATED_WINDOW_MARKER);
        }
        Optional<WindowState> superseded = table.openWindow();
        List<RowsMessage> emitted = settle(table.open(marker.windowId()));
        superseded.ifPresent(w -> store.releaseChunks(marker.table(), w.windowId()));
        return emitted;
    }

    /**
     * The rows of one record, {@code rows}, which share their table, window, chunk and attempt (those of the first):
     * the checks on those hold for all of them alike, as no row changes the state they read, and the chunk's attempt
     * is stored once; the stream check is per key.
     */
    private List<RowsMessage> snapshotRows(SnapshotRowsMessage input, List<SnapshotRow> rows) {
        SnapshotRow first = rows.get(0);
        Optional<TableState> table = store.table(first.table());
        if (table.isPresent() && table.get().isClosed(first.windowId())) {
            return drop(input, DropReason.WINDOW_CLOSED);
        }
        Optional<ChunkState> known = store.chunk(first.table(), first.chunkId());
        ChunkState chunk = known.orElse(ChunkState.first(first.chunkId(), first.windowId(), first.attempt()));
        if (chunk.belongsToOtherWindowThan(first.windowId())) {
            return drop(input, DropReason.CHUNK_WINDOW_CONFLICT);
        }
        if (chunk.done()) {
            return drop(input, DropReason.CHUNK_ALREADY_DONE);
        }
        if (first.attempt() < chunk.highestAttempt()) {
            return drop(input, DropReason.SUPERSEDED_ATTEMPT);
        }
        if (known.isEmpty() || first.attempt() > chunk.highestAttempt()) {
            store.putChunk(first.table(), chunk.withAttempt(first.attempt()));
        }
        boolean tracked = table.isPresent() && table.get().isTracked();
        if (rows.size() == 1) {
            return tracked && streamIsNewer(table.get(), first)
                ? drop(first, DropReason.STREAM_IS_NEWER) : List.of(ResolvedRow.of(first));
        }
        List<RowsMessage> emitted = new ArrayList<>(rows.size());
        for (SnapshotRow row : rows) {
            if (tracked && streamIsNewer(table.get(), row)) {
                drop(row, DropReason.STREAM_IS_NEWER);
            } else {
                emitted.add(ResolvedRow.of(row));
            }
        }
        return emitted;
    }

    private boolean streamIsNewer(TableState table, SnapshotRow row) {
        PgSnapshot snapshot = row.snapshot();
        if (table.truncateTxId().isPresent() && !snapshot.isVisible(table.truncateTxId().getAsLong())) {
            return true;
        }
        OptionalLong last = store.lastTxId(row.table(), table.generation(), row.pk());
        return last.isPresent() && !snapshot.isVisible(last.getAsLong());
    }

    private List<RowsMessage> chunkDone(ChunkDone done) {
        TableState table = store.table(done.table()).orElse(TableState.initial(done.table()));
        if (table.isClosed(done.windowId())) {
            return drop(done, DropReason.WINDOW_CLOSED);
        }
        Optional<ChunkState> known = store.chunk(done.table(), done.chunkId());
        ChunkState chunk = known.orElse(ChunkState.first(done.chunkId(), done.windowId(), done.attempt()));
        if (chunk.belongsToOtherWindowThan(done.windowId())) {
            return drop(done, DropReason.CHUNK_WINDOW_CONFLICT);
        }
        if (chunk.done()) {
            return drop(done, DropReason.CHUNK_ALREADY_DONE);
        }
        if (done.attempt() < chunk.highestAttempt()) {
            return drop(done, DropReason.SUPERSEDED_ATTEMPT);
        }
        store.putChunk(done.table(), chunk.doneBy(done.attempt(), done.windowId()));
        WindowState window = table.window(done.windowId()).orElse(WindowState.pending(done.windowId()));
        return settle(table.withWindow(window.withChunkDone(done.highWatermark())));
    }

    private List<RowsMessage> plan(TablePlan plan) {
        TableState table = store.table(plan.table()).orElse(TableState.initial(plan.table()));
        if (table.isClosed(plan.windowId())) {
            return drop(plan, DropReason.WINDOW_CLOSED);
        }
        WindowState window = table.window(plan.windowId()).orElse(WindowState.pending(plan.windowId()));
        return settle(table.withWindow(window.withChunkCount(plan.chunkCount())));
    }

    /** Stores {@code table}; if its open window is complete, makes it ready and emits {@code table-ready}. */
    private List<RowsMessage> settle(TableState table) {
        Optional<WindowState> open = table.openWindow();
        if (open.isEmpty() || !open.get().isComplete()) {
            store.putTable(table);
            return List.of();
        }
        WindowState window = open.get();
        store.putTable(table.ready(window.windowId()));
        store.releaseKeys(table.table(), table.generation());
        store.releaseChunks(table.table(), window.windowId());
        TableId id = table.table();
        return List.of(TableReady.of(id, window.windowId(), window.highWatermark().orElseThrow()));
    }

    private List<RowsMessage> drop(TopicMessage message, DropReason reason) {
        observer.dropped(message, reason);
        return List.of();
    }
}
