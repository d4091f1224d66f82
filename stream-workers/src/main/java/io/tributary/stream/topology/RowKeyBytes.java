package io.tributary.stream.topology;

import io.tributary.topics.codec.TopicCodec;
import io.tributary.topics.messages.KeyValues;
import io.tributary.topics.messages.RowKeyed;
import io.tributary.topics.messages.RowsMessage;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * The canonical key bytes of the rows of one input record, computed once when its partition is checked and reused
 * for the records the merge emits of them. A record of one row gives its bytes to any row-keyed output (the merge
 * emits only that row of it); a {@link io.tributary.topics.messages.SnapshotRowBatch} or a
 * {@link io.tributary.topics.messages.ChangeEventBatch} gives each row's bytes by the identity of its primary key, as
 * an emitted row carries the very {@link KeyValues} of its input. Not thread-safe; one per record.
 */
final class RowKeyBytes {

    /** A record without rows. */
    static final RowKeyBytes NONE = new RowKeyBytes(null, Map.of());

    private final byte[] single;
    private final Map<KeyValues, byte[]> byKey;

    private RowKeyBytes(byte[] single, Map<KeyValues, byte[]> byKey) {
        this.single = single;
        this.byKey = byKey;
    }

    /** The key bytes of a record of one row. */
    static RowKeyBytes single(byte[] bytes) {
        return new RowKeyBytes(bytes, Map.of());
    }

    /** An empty set for a record of {@code rows} rows, filled with {@link #add}. */
    static RowKeyBytes sized(int rows) {
        return new RowKeyBytes(null, new IdentityHashMap<>(rows));
    }

    void add(KeyValues pk, byte[] bytes) {
        byKey.put(pk, bytes);
    }

    /** The key bytes of {@code out} written to {@code partition} of {@code rows}: known ones, else encoded. */
    byte[] keyOf(RowsMessage out, int partition) {
        if (out instanceof RowKeyed keyed) {
            byte[] known = single != null ? single : byKey.get(keyed.pk());
            if (known != null) {
                return known;
            }
        }
        return TopicCodec.ROWS.encodeKey(out, partition);
    }
}
