package io.tributary.writer.apply;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

/**
 * Writes ops into {@code bucket_data} with {@code COPY ... FROM STDIN} (text format), in the caller's transaction.
 * Stateless and thread-safe; the connection is not.
 */
final class OpCopy {

    private static final String SQL = "COPY tributary.bucket_data (group_id, bucket, op_id, op, source_table, row_id,"
        + " checksum, data) FROM STDIN";
    private static final int CHUNK = 1 << 16;

    private OpCopy() {
    }

    /** Writes {@code ops[i]} with op id {@code opIds[i]}. */
    static void write(Connection connection, long groupId, List<BucketOp> ops, long[] opIds) throws SQLException {
        CopyIn copy = connection.unwrap(PGConnection.class).getCopyAPI().copyIn(SQL);
        try {
            ByteArrayOutputStream buffer = new ByteArrayOutputStream(CHUNK + 4096);
            StringBuilder line = new StringBuilder(256);
            String group = Long.toString(groupId);
            for (int i = 0; i < ops.size(); i++) {
                BucketOp op = ops.get(i);
                line.setLength(0);
                line.append(group).append('\t');
                escape(line, op.bucket());
                line.append('\t').append(opIds[i]).append('\t').append(op.kind().code()).append('\t');
                escape(line, op.table());
                line.append('\t');
                escape(line, op.rowId());
                line.append('\t').append(op.checksum()).append('\t');
                if (op.data().isPresent()) {
                    escape(line, op.data().get());
                } else {
                    line.append("\\N");
                }
                line.append('\n');
                byte[] bytes = line.toString().getBytes(StandardCharsets.UTF_8);
                buffer.write(bytes, 0, bytes.length);
                if (buffer.size() >= CHUNK) {
                    copy.writeToCopy(buffer.toByteArray(), 0, buffer.size());
                    buffer.reset();
                }
            }
            if (buffer.size() > 0) {
                copy.writeToCopy(buffer.toByteArray(), 0, buffer.size());
            }
            copy.endCopy();
        } finally {
            if (copy.isActive()) {
                copy.cancelCopy();
            }
        }
    }

    /** COPY text format: backslash, tab, newline and carriage return are escaped. */
    static void escape(StringBuilder out, String value) {
        if (!needsEscape(value)) {
            out.append(value);
            return;
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\\' -> out.append("\\\\");
                case '\t' -> out.append("\\t");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                default -> out.append(c);
            }
        }
    }

    private static boolean needsEscape(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '\\' || c == '\t' || c == '\n' || c == '\r') {
                return true;
            }
        }
        return false;
    }
}
