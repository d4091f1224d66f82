package io.tributary.writer.apply;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

/**
 * Writes ops into {@code bucket_data} with {@code COPY ... FROM STDIN} (text format), in the caller's transaction.
 * Each line is encoded straight into one reused byte buffer (UTF-8, COPY text escaping), which is handed to the
 * driver in chunks of about {@value #CHUNK} bytes. Stateless and thread-safe; the connection is not.
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
            Lines lines = new Lines(CHUNK + 4096);
            byte[] group = Long.toString(groupId).getBytes(StandardCharsets.US_ASCII);
            for (int i = 0; i < ops.size(); i++) {
                line(lines, group, ops.get(i), opIds[i]);
                if (lines.size >= CHUNK) {
                    copy.writeToCopy(lines.bytes, 0, lines.size);
                    lines.size = 0;
                }
            }
            if (lines.size > 0) {
                copy.writeToCopy(lines.bytes, 0, lines.size);
            }
            copy.endCopy();
        } finally {
            if (copy.isActive()) {
                copy.cancelCopy();
            }
        }
    }

    private static void line(Lines out, byte[] group, BucketOp op, long opId) {
        out.raw(group);
        out.tab();
        out.text(op.bucket());
        out.tab();
        out.number(opId);
        out.tab();
        out.number(op.kind().code());
        out.tab();
        out.text(op.table());
        out.tab();
        out.text(op.rowId());
        out.tab();
        out.number(op.checksum());
        out.tab();
        if (op.data().isPresent()) {
            out.text(op.data().get());
        } else {
            out.ascii("\\N");
        }
        out.newline();
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
        return value.indexOf('\\') >= 0 || value.indexOf('\t') >= 0 || value.indexOf('\n') >= 0
            || value.indexOf('\r') >= 0;
    }

    /** A growable buffer of COPY text lines. */
    private static final class Lines {

        private byte[] bytes;
        private int size;

        Lines(int capacity) {
            bytes = new byte[capacity];
        }

        void tab() {
            room(1);
            bytes[size++] = '\t';
        }

        void newline() {
            room(1);
            bytes[size++] = '\n';
        }

        /** {@code value}, known to be ASCII without characters to escape. */
        void ascii(String value) {
            room(value.length());
            for (int i = 0; i < value.length(); i++) {
                bytes[size++] = (byte) value.charAt(i);
            }
        }

        /** The decimal digits of {@code value}, without a String in between. */
        void number(long value) {
            if (value < 0) {
                ascii(Long.toString(value));
                return;
            }
            int digits = 1;
            for (long rest = value / 10; rest > 0; rest /= 10) {
                digits++;
            }
            room(digits);
            long rest = value;
            for (int i = size + digits - 1; i >= size; i--) {
                bytes[i] = (byte) ('0' + rest % 10);
                rest /= 10;
            }
            size += digits;
        }

        /** {@code value} as UTF-8, escaped for COPY text. */
        void text(String value) {
            if (needsEscape(value)) {
                StringBuilder escaped = new StringBuilder(value.length() + 16);
                escape(escaped, value);
                value = escaped.toString();
            }
            raw(value.getBytes(StandardCharsets.UTF_8));
        }

        void raw(byte[] value) {
            room(value.length);
            System.arraycopy(value, 0, bytes, size, value.length);
            size += value.length;
        }

        private void room(int more) {
            if (size + more > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
            }
        }
    }
}
