package io.tributary.bench.direct;

import io.tributary.syncrules.BucketRow;
import io.tributary.writer.apply.Memberships;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.HexFormat;
import java.util.List;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

/**
 * {@code current_data} rows of one sync rules group gathered as {@code COPY} text for the group's partition: per
 * source row its key and the buckets its ops went to, what a direct path must keep to emit the REMOVE ops of the
 * row's later updates and deletes (the storage writer's columns; no row data). Not thread-safe.
 */
final class CurrentDataCopyBatch {

    private static final HexFormat HEX = HexFormat.of();

    private final String groupText;
    private final String copy;
    private final ByteArrayOutputStream batch = new ByteArrayOutputStream(1 << 18);

    /** A batch of rows of group {@code group}. */
    CurrentDataCopyBatch(long group) {
        this.groupText = Long.toString(group);
        this.copy = "COPY tributary.current_data_g" + group
            + " (group_id, source_key, buckets, source_partition, source_offset) FROM STDIN";
    }

    /** Adds the row of key {@code sourceKey} (its record key in {@code rows}) and its ops {@code ops}. */
    void add(byte[] sourceKey, List<BucketRow> ops) {
        String line = groupText + "\t\\\\x" + HEX.formatHex(sourceKey) + '\t' + CopyText.escape(Memberships.encode(ops))
            + "\t0\t0\n";
        batch.writeBytes(line.getBytes(StandardCharsets.UTF_8));
    }

    /** Copies the rows added since the last copy into {@code storage}, in its open transaction. */
    void copyInto(Connection storage) throws SQLException {
        if (batch.size() == 0) {
            return;
        }
        CopyIn in = storage.unwrap(PGConnection.class).getCopyAPI().copyIn(copy);
        byte[] bytes = batch.toByteArray();
        in.writeToCopy(bytes, 0, bytes.length);
        in.endCopy();
        batch.reset();
    }
}
