package io.tributary.writer.apply;

import io.tributary.topics.codec.RecordKeys;
import io.tributary.topics.messages.KeyValues;
import io.tributary.topics.messages.RowKey;
import io.tributary.topics.messages.TableId;
import java.util.Arrays;

/**
 * The range of record key bytes of all rows of one table: row keys are {@code [1,"r","<schema>","<table>",<pk>]}
 * (RecordKeys format 1), so every key of a table starts with the same prefix ending in a comma, and the prefix with
 * its last byte incremented bounds them from above.
 *
 * @param from inclusive lower bound
 * @param to   exclusive upper bound
 */
record TableKeyRange(byte[] from, byte[] to) {

    private static final String PROBE_PK = "[0]";

    static TableKeyRange of(TableId table) {
        byte[] probe = RecordKeys.encode(RowKey.of(table, KeyValues.of(PROBE_PK)));
        int prefixLength = probe.length - PROBE_PK.length() - 1;
        if (prefixLength < 1 || probe[prefixLength - 1] != ',') {
            throw new IllegalStateException("Unexpected row key layout for " + table + ": the key format changed");
        }
        byte[] from = Arrays.copyOf(probe, prefixLength);
        byte[] to = from.clone();
        to[to.length - 1]++;
        return new TableKeyRange(from, to);
    }
}
