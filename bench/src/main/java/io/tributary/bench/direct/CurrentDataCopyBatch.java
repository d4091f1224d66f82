package io.tributary.bench.direct;

import io.tributary.syncrules.BucketRow;
import io.tributary.writer.apply.Memberships;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.HexFormat;
import java.util.List;

/**
 * {@code current_data} rows of one sync rules group gathered as {@code COPY} text for the group's partition: per
 * source row its key and the buckets its ops went to, what a direct path must keep to emit the REMOVE ops of the
 * row's later updates and deletes (the storage writer's columns; no row data). Not thread-safe.
 */
final class CurrentDataCopyBatch {

    private static final HexFormat HEX = HexFormat.of();

    private final String groupText;
    private final CopyLines lines;

    /** A batch of rows of group {@code group}. */
    CurrentDataCopyBatch(long group) {
        this.groupText = Long.toString(group);
        this.lines = new CopyLines("COPY tributary.current_data_g" + group
            + " (group_id, source_key, buckets, source_partition, source_offset) FROM STDIN", 1 << 18);
    }

    /** Adds the row of key {@code sourceKey} (its record key in {@code rows}) and its ops {@code ops}. */
    void add(byte[] sourceKey, List<BucketRow> ops) {
        lines.add(groupText + "\t\\\\x" + HEX.formatHex(sourceKey) + '\t' + CopyText.escape(Memberships.encode(ops))
            + "\t0\t0\n");
    }

    /** Copies the rows added since the last copy into {@code storage}, in its open transaction. */
    void copyInto(Connection storage) throws SQLException {
        lines.copyInto(storage);
    }
}
