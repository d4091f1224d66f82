package io.tributary.client.expect;

import com.fasterxml.jackson.databind.JsonNode;
import io.tributary.client.proxy.SyncProxy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Replays the lines a fresh client received on one sync stream the way PowerSync's client applies them (PUT and
 * REMOVE change a row and add their checksum, MOVE only adds its checksum, CLEAR drops the bucket's rows and sets
 * its checksum) and records, at every {@code checkpoint_complete}, each bucket's live rows and whether its checksum
 * equals the one last announced for it.
 */
public final class StreamAudit {

    /** What the client holds when checkpoint {@code opId} completes. */
    public record Completed(long opId, Map<String, Integer> liveRows, List<String> checksumMismatches) {
    }

    private StreamAudit() {
    }

    /** The completed checkpoints of {@code stream}, a stream that started without bucket positions. */
    public static List<Completed> replay(SyncProxy.Stream stream) {
        Map<String, Long> announced = new HashMap<>();
        Map<String, Long> sums = new HashMap<>();
        Map<String, Map<String, String>> rows = new HashMap<>();
        List<Completed> completed = new ArrayList<>();
        for (String text : stream.lines()) {
            JsonNode line = SyncProxy.parse(text);
            if (line.has("checkpoint")) {
                announced.clear();
                line.get("checkpoint").get("buckets").forEach(b -> announced.put(b.get("bucket").asText(),
                    b.get("checksum").asLong() & 0xFFFF_FFFFL));
            } else if (line.has("checkpoint_diff")) {
                JsonNode diff = line.get("checkpoint_diff");
                diff.get("updated_buckets").forEach(b -> announced.put(b.get("bucket").asText(),
                    b.get("checksum").asLong() & 0xFFFF_FFFFL));
                diff.get("removed_buckets").forEach(b -> {
                    announced.remove(b.asText());
                    sums.remove(b.asText());
                    rows.remove(b.asText());
                });
            } else if (line.has("data")) {
                apply(line.get("data"), sums, rows);
            } else if (line.has("checkpoint_complete")) {
                Map<String, Integer> live = new LinkedHashMap<>();
                List<String> mismatches = new ArrayList<>();
                announced.forEach((bucket, checksum) -> {
                    live.put(bucket, rows.getOrDefault(bucket, Map.of()).size());
                    if (sums.getOrDefault(bucket, 0L).longValue() != checksum) {
                        mismatches.add(bucket);
                    }
                });
                completed.add(new Completed(line.get("checkpoint_complete").get("last_op_id").asLong(), live,
                    mismatches));
            }
        }
        return completed;
    }

    private static void apply(JsonNode data, Map<String, Long> sums, Map<String, Map<String, String>> rows) {
        String bucket = data.get("bucket").asText();
        Map<String, String> held = rows.computeIfAbsent(bucket, b -> new HashMap<>());
        for (JsonNode op : data.get("data")) {
            long checksum = op.get("checksum").asLong() & 0xFFFF_FFFFL;
            String row = op.path("object_type").asText() + "/" + op.path("object_id").asText();
            switch (op.get("op").asText()) {
                case "PUT" -> {
                    held.put(row, op.path("data").toString());
                    sums.merge(bucket, checksum, (a, b) -> (a + b) & 0xFFFF_FFFFL);
                }
                case "REMOVE" -> {
                    held.remove(row);
                    sums.merge(bucket, checksum, (a, b) -> (a + b) & 0xFFFF_FFFFL);
                }
                case "MOVE" -> sums.merge(bucket, checksum, (a, b) -> (a + b) & 0xFFFF_FFFFL);
                case "CLEAR" -> {
                    held.clear();
                    sums.put(bucket, checksum);
                }
                default -> throw new AssertionError("Unknown op " + op);
            }
        }
    }
}
