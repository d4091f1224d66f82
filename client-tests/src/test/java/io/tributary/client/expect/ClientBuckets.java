package io.tributary.client.expect;

import com.fasterxml.jackson.databind.JsonNode;
import io.tributary.client.driver.SyncClient;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a client holds: the rows of its synced buckets, read from the SDK's own tables ({@code ps_oplog}, the
 * current op of every row per bucket, and {@code ps_buckets}). Local-only buckets ({@code $local}) are left out.
 */
public final class ClientBuckets {

    private static final String ROWS = "SELECT b.name AS bucket, o.row_type AS row_type, o.row_id AS row_id,"
        + " o.data AS data FROM ps_oplog o JOIN ps_buckets b ON b.id = o.bucket WHERE b.name NOT LIKE '$%'";

    private ClientBuckets() {
    }

    /** The client's buckets with rows, each with its rows. */
    public static Map<String, Set<SyncedRow>> of(SyncClient client) {
        Map<String, Set<SyncedRow>> buckets = new TreeMap<>();
        for (JsonNode row : client.query(ROWS)) {
            buckets.computeIfAbsent(row.path("bucket").asText(), b -> new TreeSet<>())
                .add(new SyncedRow(row.path("row_type").asText(), row.path("row_id").asText(),
                    row.path("data").asText()));
        }
        return buckets;
    }

    /** The names of every bucket the client tracks, empty ones included. */
    public static Set<String> names(SyncClient client) {
        Set<String> names = new TreeSet<>();
        for (JsonNode row : client.query("SELECT name FROM ps_buckets WHERE name NOT LIKE '$%'")) {
            names.add(row.path("name").asText());
        }
        return names;
    }
}
