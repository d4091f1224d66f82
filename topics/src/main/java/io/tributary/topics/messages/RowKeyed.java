package io.tributary.topics.messages;

/**
 * A message about one source row, keyed by {@link RowKey}. Producers must send it to the partition
 * {@code Partitioning.partitionFor(key, partitions)} of the encoded key, explicitly, so the same row lands in
 * the same partition of {@code changes}, {@code snapshot-rows} and {@code rows}.
 */
public sealed interface RowKeyed extends TopicMessage permits ChangeEvent, SnapshotRow, ResolvedRow, ResolvedDelete {

    /** The table of the row. */
    TableId table();

    /** The row's primary key. */
    KeyValues pk();

    /** The record key: {@code (table, pk)}. */
    default RowKey rowKey() {
        return new RowKey(table(), pk());
    }

    @Override
    default RecordKey keyFor(int partition) {
        return rowKey();
    }
}
