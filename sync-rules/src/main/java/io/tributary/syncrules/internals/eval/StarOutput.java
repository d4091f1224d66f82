package io.tributary.syncrules.internals.eval;

import io.tributary.syncrules.Edition;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The output row of a data query whose SELECT list is exactly {@code *}, written from the row's canonical text
 * ({@link CanonicalRowScan}) instead of its tree: byte for byte what {@link OutputPlan#data} writes for the tree
 * {@link RowJsonParser} parses from that text. Each column's key is copied as it is (a canonical key is its
 * {@code CanonicalJson} quoting); so are strings whose client text is their own (all but those of a temporal or
 * interval shape, see {@link ClientValues}), integers and {@code null}; booleans become {@code 1} and {@code 0};
 * every other value (decimals, arrays, objects, strings of a temporal or interval shape) is read alone
 * ({@link ColumnSelection#value}) and written by {@link ClientValues}. Stateless and thread-safe.
 */
final class StarOutput {

    private StarOutput() {
    }

    /** The output row of {@code text}, which {@code scan} found canonical. */
    static String data(byte[] text, CanonicalRowScan scan, Edition edition) {
        Buffer out = new Buffer(text.length + 16);
        out.add((byte) '{');
        for (int i = 0; i < scan.memberCount(); i++) {
            if (i > 0) {
                out.add((byte) ',');
            }
            int from = scan.memberValueStart(i);
            int to = scan.memberValueEnd(i);
            out.add(text, scan.memberStart(i), from);
            switch (text[from]) {
                case 't' -> out.add((byte) '1');
                case 'f' -> out.add((byte) '0');
                case 'n' -> out.add(text, from, to);
                case '"' -> {
                    if (keptAsIs(text, from + 1, to - 1)) {
                        out.add(text, from, to);
                    } else {
                        client(text, from, to, edition, out);
                    }
                }
                case '[', '{' -> client(text, from, to, edition, out);
                default -> {
                    if (isInteger(text, from, to)) {
                        out.add(text, from, to);
                    } else {
                        client(text, from, to, edition, out);
                    }
                }
            }
        }
        out.add((byte) '}');
        return out.text();
    }

    /** Whether the canonical string content {@code text[from, to)} is its own client text. */
    private static boolean keptAsIs(byte[] text, int from, int to) {
        return !ClientTemporals.mayRewrite(to - from) && (from == to || !ClientIntervals.mayRewrite(text[from]));
    }

    private static boolean isInteger(byte[] text, int from, int to) {
        for (int i = from; i < to; i++) {
            if (text[i] == '.') {
                return false;
            }
        }
        return true;
    }

    /** Appends the client value of the canonical JSON value {@code text[from, to)}, read alone. */
    private static void client(byte[] text, int from, int to, Edition edition, Buffer out) {
        StringBuilder value = new StringBuilder(to - from + 16);
        ClientValues.write(ColumnSelection.value(text, from, to), edition, value);
        out.add(value.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** A growable byte buffer. */
    private static final class Buffer {

        private byte[] bytes;
        private int size;

        Buffer(int capacity) {
            bytes = new byte[capacity];
        }

        void add(byte b) {
            room(1);
            bytes[size++] = b;
        }

        void add(byte[] source, int from, int to) {
            int length = to - from;
            room(length);
            System.arraycopy(source, from, bytes, size, length);
            size += length;
        }

        void add(byte[] source) {
            add(source, 0, source.length);
        }

        String text() {
            return new String(bytes, 0, size, StandardCharsets.UTF_8);
        }

        private void room(int more) {
            if (size + more > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
            }
        }
    }
}
