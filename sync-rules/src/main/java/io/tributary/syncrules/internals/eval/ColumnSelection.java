package io.tributary.syncrules.internals.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Optional;

/**
 * The top-level columns that the data queries of one source table read, and how to read only those from a row's
 * UTF-8 JSON text: a {@link CanonicalRowScan} locates them, and each is turned into the node
 * {@link RowJsonParser} would have produced (strings, booleans, null and integers of up to 18 digits directly;
 * anything else by parsing just that value). A text that is not canonical is not read here: callers parse the
 * whole tree instead.
 * Immutable and thread-safe.
 */
final class ColumnSelection {

    private static final int MAX_LONG_DIGITS = 18;

    private final String[] names;
    private final byte[][] keys;
    private final int[] hashes;

    ColumnSelection(Collection<String> names) {
        this.names = names.toArray(new String[0]);
        this.keys = new byte[this.names.length][];
        this.hashes = new int[this.names.length];
        for (int i = 0; i < this.names.length; i++) {
            keys[i] = CanonicalRowScan.keyBytes(this.names[i]);
            hashes[i] = CanonicalRowScan.hash(keys[i]);
        }
    }

    /**
     * A canonical row text, its scan, and the row restricted to the selected columns it has (in selection order).
     */
    record Read(byte[] text, CanonicalRowScan scan, ObjectNode columns) {
    }

    /** The selected columns of {@code text} if it is canonical; empty otherwise. */
    Optional<Read> read(byte[] text) {
        CanonicalRowScan scan = new CanonicalRowScan(text, keys, hashes);
        if (!scan.isCanonical()) {
            return Optional.empty();
        }
        ObjectNode row = JsonNodeFactory.instance.objectNode();
        for (int i = 0; i < names.length; i++) {
            if (scan.has(i)) {
                row.set(names[i], value(text, scan.valueStart(i), scan.valueEnd(i)));
            }
        }
        return Optional.of(new Read(text, scan, row));
    }

    /** The node of the canonical JSON value in {@code text[start, end)}. */
    static JsonNode value(byte[] text, int start, int end) {
        byte first = text[start];
        if (first == '"') {
            for (int i = start + 1; i < end - 1; i++) {
                if (text[i] == '\\') {
                    return RowJsonParser.parseValue(text, start, end - start);
                }
            }
            return TextNode.valueOf(new String(text, start + 1, end - start - 2, StandardCharsets.UTF_8));
        }
        if (first == 't') {
            return BooleanNode.TRUE;
        }
        if (first == 'f') {
            return BooleanNode.FALSE;
        }
        if (first == 'n') {
            return NullNode.getInstance();
        }
        boolean negative = first == '-';
        int digitsFrom = negative ? start + 1 : start;
        if (first != '[' && first != '{' && end - digitsFrom <= MAX_LONG_DIGITS) {
            long value = 0;
            int i = digitsFrom;
            while (i < end && text[i] >= '0' && text[i] <= '9') {
                value = value * 10 + (text[i] - '0');
                i++;
            }
            if (i == end) {
                value = negative ? -value : value;
                return value == (int) value ? IntNode.valueOf((int) value) : LongNode.valueOf(value);
            }
        }
        return RowJsonParser.parseValue(text, start, end - start);
    }
}
