package io.tributary.writer.apply;

import io.tributary.topics.messages.TableId;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.postgresql.PGConnection;

/**
 * Records in {@code tributary.table_rows}, in the transaction that applies them, which source tables a group's
 * writers applied rows of, per partition, and the partition's sealed epoch before the first of them: a checkpoint
 * that would include a table's rows is held while the table has no snapshot window ({@code checkpoint.Checkpointer}).
 * Because the row is written with the ops, a committed seal of epoch {@code k} implies that every table with rows
 * in an epoch {@code <= k} of its partition is recorded.
 *
 * <p>A table is written once per partition and applier: the ones whose transaction committed are remembered, and
 * the first recording wins ({@code ON CONFLICT DO NOTHING}; a partition's epochs only grow in commit order). Not
 * thread-safe: one per {@link BatchApplier}.
 */
final class TableRows {

    private static final String RECORD = "INSERT INTO tributary.table_rows (group_id, partition, table_schema,"
        + " table_name, seen_after_epoch) SELECT ?, u.p, u.s, u.t, u.e"
        + " FROM unnest(?::int[], ?::text[], ?::text[], ?::bigint[]) AS u(p, s, t, e) ON CONFLICT DO NOTHING";

    private final long groupId;
    private final Set<Seen> recorded = new HashSet<>();
    private final Map<Seen, Long> pending = new LinkedHashMap<>();

    TableRows(long groupId) {
        this.groupId = groupId;
    }

    /** A source table's rows in one partition. */
    private record Seen(int partition, TableId table) {
    }

    /** Starts a transaction: nothing is pending. */
    void begin() {
        pending.clear();
    }

    /** {@code batch}'s tables have rows in its partition after the partition's seal of {@code sealedEpoch}. */
    void add(PreparedBatch batch, long sealedEpoch) {
        for (TableId table : batch.tables()) {
            Seen seen = new Seen(batch.partition(), table);
            if (!recorded.contains(seen)) {
                pending.putIfAbsent(seen, sealedEpoch);
            }
        }
    }

    /** Writes the tables added since {@link #begin()} not recorded before, in the caller's transaction. */
    void write(Connection connection) throws SQLException {
        if (pending.isEmpty()) {
            return;
        }
        Integer[] partitions = new Integer[pending.size()];
        String[] schemas = new String[pending.size()];
        String[] names = new String[pending.size()];
        long[] epochs = new long[pending.size()];
        int i = 0;
        for (Map.Entry<Seen, Long> seen : pending.entrySet()) {
            partitions[i] = seen.getKey().partition();
            schemas[i] = seen.getKey().table().schema();
            names[i] = seen.getKey().table().name();
            epochs[i] = seen.getValue();
            i++;
        }
        try (PreparedStatement insert = connection.prepareStatement(RECORD)) {
            insert.setLong(1, groupId);
            insert.setArray(2, connection.createArrayOf("int4", partitions));
            insert.setArray(3, connection.createArrayOf("text", schemas));
            insert.setArray(4, connection.createArrayOf("text", names));
            insert.setArray(5, connection.unwrap(PGConnection.class).createArrayOf("int8", epochs));
            insert.executeUpdate();
        }
    }

    /** The transaction that wrote the pending tables committed: they need not be written again. */
    void committed() {
        recorded.addAll(pending.keySet());
        pending.clear();
    }
}
