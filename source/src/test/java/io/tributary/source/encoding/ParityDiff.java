package io.tributary.source.encoding;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/** Describes a parity mismatch column by column, for a readable failure. */
final class ParityDiff {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private ParityDiff() {
    }

    static String describe(String op, String key, String jdbc, String wal) {
        if (jdbc == null) {
            return op + " " + key + ": no JDBC row with this key; WAL row " + wal;
        }
        List<String> columns = new ArrayList<>();
        try {
            JsonNode a = MAPPER.readTree(jdbc);
            JsonNode b = MAPPER.readTree(wal);
            for (Iterator<String> names = a.fieldNames(); names.hasNext();) {
                String name = names.next();
                if (!a.get(name).toString().equals(String.valueOf(b.get(name)))) {
                    columns.add(name + ": jdbc=" + a.get(name) + " wal=" + b.get(name));
                }
            }
        } catch (java.io.IOException e) {
            columns.add("unparseable: " + e.getMessage());
        }
        return op + " " + key + ": " + (columns.isEmpty() ? "texts differ: jdbc=" + jdbc + " wal=" + wal
            : String.join("; ", columns));
    }
}
