package io.tributary.api.stream;

import io.tributary.api.protocol.OpEntry;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The ops of the held buckets between two consecutive served checkpoints, {@code fromOpId < op_id <= toOpId}, read
 * once per process and shared by every stream that completed {@code fromOpId}: such a stream holds every op of its
 * buckets up to {@code fromOpId}, so a covered bucket's ops here are exactly what it still needs. A bucket not
 * {@link #covers(String) covered} (held by no stream when the delta was read) is read by the stream itself.
 *
 * @param fromOpId the previous served checkpoint
 * @param toOpId   the checkpoint the delta reaches, &gt; {@code fromOpId}
 * @param covered  the buckets read
 * @param ops      the ops of the covered buckets that have any, op ids ascending per bucket
 */
record CheckpointDelta(long fromOpId, long toOpId, Set<String> covered, Map<String, List<OpEntry>> ops) {

    CheckpointDelta {
        if (toOpId <= fromOpId) {
            throw new IllegalArgumentException("A delta spans op ids upwards: " + fromOpId + " to " + toOpId);
        }
        covered = Set.copyOf(covered);
        ops = Map.copyOf(ops);
        if (!covered.containsAll(ops.keySet())) {
            throw new IllegalArgumentException("A delta holds ops only of the buckets it covers");
        }
    }

    /** Whether the delta read {@code bucket}. */
    boolean covers(String bucket) {
        return covered.contains(bucket);
    }

    /** The ops of a covered bucket in the delta's range: empty when it has none (or is not covered). */
    List<OpEntry> opsOf(String bucket) {
        return Optional.ofNullable(ops.get(bucket)).orElse(List.of());
    }

    /** Whether a stream that completed checkpoint {@code completedOpId} can take its ops for checkpoint {@code to}. */
    boolean serves(long completedOpId, long to) {
        return completedOpId == fromOpId && to == toOpId;
    }
}
