package io.tributary.topics.messages;

import java.util.List;
import java.util.Objects;

/**
 * Several rows of one chunk attempt in one record of {@code snapshot-rows}: rows that share their table, chunk,
 * window, attempt and snapshot, and whose keys all hash to the partition the record is written to. The merge decides
 * a batch exactly as it would decide each of its rows in a record of its own, in order (docs/design.md); the batch
 * only saves the per-record work of the producer, the broker and Kafka Streams, and the header fields each row would
 * repeat. Its record key is the {@link RowKey} of its first row, so a batch lands in the partition of its rows.
 *
 * @param rows the rows, in the order the chunk read them; at least one, all of the same table, chunk, window,
 *             attempt and snapshot; unmodifiable
 */
public record SnapshotRowBatch(List<SnapshotRow> rows) implements SnapshotRowsMessage {

    public SnapshotRowBatch {
        rows = List.copyOf(Objects.requireNonNull(rows, "rows"));
        if (rows.isEmpty()) {
            throw new IllegalArgumentException("A snapshot row batch needs at least one row");
        }
        SnapshotRow first = rows.get(0);
        for (SnapshotRow row : rows) {
            if (!sameOrigin(first, row)) {
                throw new IllegalArgumentException("The rows of a snapshot row batch share their table, chunk,"
                    + " window, attempt and snapshot: " + first.table() + " chunk " + first.chunkId() + " attempt "
                    + first.attempt() + " against " + row.table() + " chunk " + row.chunkId() + " attempt "
                    + row.attempt());
            }
        }
    }

    /** The batch of {@code rows}. */
    public static SnapshotRowBatch of(List<SnapshotRow> rows) {
        return new SnapshotRowBatch(rows);
    }

    private static boolean sameOrigin(SnapshotRow first, SnapshotRow row) {
        return row == first || first.table().equals(row.table()) && first.chunkId().equals(row.chunkId())
            && first.windowId().equals(row.windowId()) && first.attempt() == row.attempt()
            && (first.snapshot() == row.snapshot() || first.snapshot().equals(row.snapshot()));
    }

    /** The table of every row. */
    public TableId table() {
        return rows.get(0).table();
    }

    /** The chunk that read every row. */
    public String chunkId() {
        return rows.get(0).chunkId();
    }

    /** The chunk's window. */
    public String windowId() {
        return rows.get(0).windowId();
    }

    /** The chunk's attempt. */
    public int attempt() {
        return rows.get(0).attempt();
    }

    /** The chunk's snapshot. */
    public PgSnapshot snapshot() {
        return rows.get(0).snapshot();
    }

    /** The record key: that of the first row. */
    @Override
    public RecordKey keyFor(int partition) {
        return rows.get(0).rowKey();
    }

    @Override
    public String toString() {
        return "SnapshotRowBatch[" + table() + " chunk " + chunkId() + " attempt " + attempt() + ", " + rows.size()
            + " rows]";
    }
}
