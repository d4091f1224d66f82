package io.tributary.writer.apply;

import io.tributary.topics.messages.TableId;
import io.tributary.topics.messages.TableReady;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.postgresql.PGConnection;

/**
 * The {@code table_readiness} rows of one storage transaction, written in one statement at its end: the table-ready
 * markers it applied, each with its partition's sealed epoch when it was read. A later marker of the same table
 * and partition in the transaction replaces an earlier one, as upserting them one by one in order would. Not
 * thread-safe: one per {@link BatchApplier}.
 */
final class ReadyTables {

    private static final String UPSERT = "INSERT INTO tributary.table_readiness (group_id, partition, table_schema,"
        + " table_name, window_id, high_watermark, ready_after_epoch)"
        + " SELECT ?, u.p, u.s, u.t, u.w, u.h::pg_lsn, u.e"
        + " FROM unnest(?::int[], ?::text[], ?::text[], ?::text[], ?::text[], ?::bigint[]) AS u(p, s, t, w, h, e)"
        + " ON CONFLICT (group_id, partition, table_schema, table_name) DO UPDATE SET window_id = EXCLUDED.window_id,"
        + " high_watermark = EXCLUDED.high_watermark, ready_after_epoch = EXCLUDED.ready_after_epoch";

    private final long groupId;
    private final Map<Key, Ready> pending = new LinkedHashMap<>();

    ReadyTables(long groupId) {
        this.groupId = groupId;
    }

    private record Key(int partition, TableId table) {
    }

    private record Ready(String windowId, String highWatermark, long readyAfterEpoch) {
    }

    /** Starts a transaction: nothing is pending. */
    void begin() {
        pending.clear();
    }

    /** {@code marker} was read in {@code partition} after the partition's seal of {@code sealedEpoch}. */
    void add(int partition, TableReady marker, long sealedEpoch) {
        Key key = new Key(partition, marker.table());
        pending.remove(key);
        pending.put(key, new Ready(marker.windowId(), marker.highWatermark().toString(), sealedEpoch));
    }

    /** Writes the markers added since {@link #begin()}, in the caller's transaction. */
    void write(Connection connection) throws SQLException {
        if (pending.isEmpty()) {
            return;
        }
        int n = pending.size();
        Integer[] partitions = new Integer[n];
        String[] schemas = new String[n];
        String[] names = new String[n];
        String[] windows = new String[n];
        String[] watermarks = new String[n];
        long[] epochs = new long[n];
        int i = 0;
        for (Map.Entry<Key, Ready> entry : pending.entrySet()) {
            partitions[i] = entry.getKey().partition();
            schemas[i] = entry.getKey().table().schema();
            names[i] = entry.getKey().table().name();
            windows[i] = entry.getValue().windowId();
            watermarks[i] = entry.getValue().highWatermark();
            epochs[i] = entry.getValue().readyAfterEpoch();
            i++;
        }
        try (PreparedStatement upsert = connection.prepareStatement(UPSERT)) {
            upsert.setLong(1, groupId);
            upsert.setArray(2, connection.createArrayOf("int4", partitions));
            upsert.setArray(3, connection.createArrayOf("text", schemas));
            upsert.setArray(4, connection.createArrayOf("text", names));
            upsert.setArray(5, connection.createArrayOf("text", windows));
            upsert.setArray(6, connection.createArrayOf("text", watermarks));
            upsert.setArray(7, connection.unwrap(PGConnection.class).createArrayOf("int8", epochs));
            upsert.executeUpdate();
        }
    }
}
