package io.tributary.api.stream;

import io.tributary.api.auth.VerifiedToken;
import io.tributary.api.protocol.BucketChecksum;
import io.tributary.api.protocol.DataBatch;
import io.tributary.api.protocol.LineEncoder;
import io.tributary.api.protocol.OpEntry;
import io.tributary.api.protocol.SyncRequest;
import io.tributary.storage.checkpoint.WriteCheckpoint;
import io.tributary.storage.checkpoint.WriteCheckpoints;
import io.tributary.storage.groups.Checkpoint;
import io.tributary.syncrules.BucketParameters;
import io.tributary.syncrules.RequestContext;
import java.io.IOException;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;

/**
 * One client's sync stream: from the request's bucket positions, for each new served checkpoint, a
 * {@code checkpoint} line (the first) or a {@code checkpoint_diff} (later ones, when something the client sees
 * changed), then the ops of the buckets that changed, highest priority first with a
 * {@code partial_checkpoint_complete} after each priority above the lowest, then {@code checkpoint_complete}.
 * Keepalives ({@code token_expires_in}) go out every keepalive interval; the stream ends when the token expires,
 * when the served group changes (the client reconnects to the new one), or when the client is too slow.
 *
 * <p>Not thread-safe: one thread runs a session.
 */
public final class SyncSession {

    private final CheckpointWatcher watcher;
    private final StoragePool pool;
    private final StreamSettings settings;
    private final Clock clock;
    private final VerifiedToken token;
    private final SyncRequest request;
    private final LineSink sink;
    private final StreamCounters counters;
    private final RequestContext context;
    private final Map<String, Long> positions;
    private Map<String, BucketChecksum> sent;
    private OptionalLong sentWriteCheckpoint = OptionalLong.empty();
    private ServedGroup heldGroup;
    private List<String> held = List.of();
    private long completedOpId = -1;
    private boolean downloaded;

    public SyncSession(CheckpointWatcher watcher, StoragePool pool, StreamSettings settings, Clock clock,
                       VerifiedToken token, SyncRequest request, LineSink sink, StreamCounters counters) {
        this.watcher = watcher;
        this.pool = pool;
        this.settings = settings;
        this.clock = clock;
        this.token = token;
        this.request = request;
        this.sink = sink;
        this.counters = counters;
        this.context = new RequestContext(token.claims(), request.parameters());
        this.positions = new HashMap<>(request.positions());
    }

    /**
     * Runs the stream until the token expires, the served group changes or the watcher closes.
     *
     * @throws IOException  when the client went away or was too slow ({@link SlowClientException})
     * @throws SQLException when storage failed (the stream ends; the client reconnects)
     */
    public void run() throws IOException, SQLException, InterruptedException {
        try {
            follow();
        } finally {
            if (heldGroup != null) {
                heldGroup.subscriptions().remove(held);
            }
        }
    }

    private void follow() throws IOException, SQLException, InterruptedException {
        long seenVersion = -1;
        ServedGroup group = null;
        Instant nextKeepalive = clock.instant().plus(settings.keepaliveInterval());
        while (true) {
            Instant now = clock.instant();
            if (!now.isBefore(token.expiresAt())) {
                sink.write(LineEncoder.keepalive(0));
                return;
            }
            Duration wait = min(Duration.between(now, nextKeepalive), Duration.between(now, token.expiresAt()));
            Optional<ServedCheckpoint> served = watcher.awaitNewer(seenVersion, wait);
            if (watcher.closed()) {
                return;
            }
            if (served.isPresent() && served.get().version() > seenVersion) {
                ServedCheckpoint checkpoint = served.get();
                seenVersion = checkpoint.version();
                if (group != null && checkpoint.group() != group) {
                    return;
                }
                group = checkpoint.group();
                sync(group, checkpoint.checkpoint());
                if (completedOpId == checkpoint.checkpoint().opId() && downloaded) {
                    counters.delivered(System.nanoTime() - checkpoint.seenNanos());
                }
            }
            now = clock.instant();
            if (!now.isBefore(nextKeepalive)) {
                sink.write(LineEncoder.keepalive(Duration.between(now, token.expiresAt()).toSeconds()));
                nextKeepalive = now.plus(settings.keepaliveInterval());
            }
        }
    }

    private void sync(ServedGroup group, Checkpoint checkpoint) throws IOException, SQLException {
        downloaded = false;
        Optional<List<BucketParameters>> buckets = BucketSets.visible(pool, group, context, checkpoint.opId());
        if (buckets.isEmpty()) {
            // a parameter compaction passed this checkpoint: the watcher is about to serve a newer one
            return;
        }
        List<BucketParameters> visible = buckets.get();
        List<String> names = visible.stream().map(BucketParameters::bucket).distinct().toList();
        hold(group, names);
        Map<String, ChecksumCache.Entry> sums = group.checksums().cached(checkpoint.opId(), names).orElse(null);
        if (sums == null) {
            sums = pool.withConnection(c -> group.checksums().at(c, checkpoint.opId(), names));
        }
        Map<String, BucketChecksum> current = new LinkedHashMap<>();
        for (BucketParameters bucket : visible) {
            ChecksumCache.Entry sum = sums.get(bucket.bucket());
            current.put(bucket.bucket(), new BucketChecksum(bucket.bucket(), (int) sum.checksum(), sum.count(),
                group.priority(bucket.definition())));
        }
        OptionalLong writeCheckpoint = writeCheckpoint(checkpoint);
        List<BucketChecksum> toFetch;
        LineEncoder encoder = group.encoder();
        if (sent == null) {
            toFetch = new ArrayList<>(current.values());
            positions.keySet().retainAll(current.keySet());
            sink.write(encoder.checkpoint(checkpoint.opId(), writeCheckpoint, toFetch));
        } else {
            toFetch = new ArrayList<>();
            for (BucketChecksum bucket : current.values()) {
                BucketChecksum before = sent.get(bucket.bucket());
                if (before == null || bucket.differsFrom(before)) {
                    toFetch.add(bucket);
                }
            }
            List<String> removed = sent.keySet().stream().filter(b -> !current.containsKey(b)).toList();
            if (toFetch.isEmpty() && removed.isEmpty() && writeCheckpoint.equals(sentWriteCheckpoint)) {
                completedOpId = checkpoint.opId();
                return;
            }
            removed.forEach(positions::remove);
            sink.write(encoder.checkpointDiff(checkpoint.opId(), writeCheckpoint, toFetch, removed));
        }
        Set<String> heldBefore = sent == null ? Set.of() : sent.keySet();
        sent = current;
        sentWriteCheckpoint = writeCheckpoint;
        download(group, checkpoint.opId(), toFetch, heldBefore);
    }

    /**
     * Sends the ops of {@code buckets} up to {@code opId}. A bucket this stream held at the checkpoint it completed
     * last ({@code heldBefore}) takes them from the shared delta when that starts there; a bucket new to the stream
     * needs its ops from its position on, so it is always read. The checkpoint is not completed when a compaction
     * rewrote ops up to a later checkpoint meanwhile (what was read may add up only there): the stream stays
     * incomplete and the next checkpoint, published already, brings the client's buckets to a state that adds up.
     */
    private void download(ServedGroup group, long opId, List<BucketChecksum> buckets, Set<String> heldBefore)
        throws IOException, SQLException {
        TreeMap<Integer, List<String>> byPriority = new TreeMap<>();
        for (BucketChecksum bucket : buckets) {
            byPriority.computeIfAbsent(bucket.priority(), p -> new ArrayList<>()).add(bucket.bucket());
        }
        Integer lowest = byPriority.isEmpty() ? null : byPriority.lastKey();
        Optional<CheckpointDelta> delta = group.delta().filter(d -> d.serves(completedOpId, opId));
        completedOpId = -1;
        for (Map.Entry<Integer, List<String>> priority : byPriority.entrySet()) {
            Map<String, Long> pending = new LinkedHashMap<>();
            for (String bucket : priority.getValue()) {
                if (delta.isPresent() && delta.get().covers(bucket) && heldBefore.contains(bucket)) {
                    sendShared(group, bucket, delta.get().opsOf(bucket));
                } else {
                    pending.put(bucket, positions.getOrDefault(bucket, 0L));
                }
            }
            while (!pending.isEmpty()) {
                BucketReader.Page page = pool.withConnection(c -> group.reader().read(c, pending, opId));
                for (DataBatch batch : page.batches()) {
                    sink.write(group.encoder().data(batch, request.rawData()));
                    counters.sent(batch.ops().size(), false);
                    positions.put(batch.bucket(), batch.nextAfter());
                }
                if (!page.full()) {
                    break;
                }
                DataBatch last = page.batches().get(page.batches().size() - 1);
                pending.keySet().removeIf(new java.util.function.Predicate<String>() {
                    private boolean reached;

                    @Override
                    public boolean test(String bucket) {
                        reached |= bucket.equals(last.bucket());
                        return !reached;
                    }
                });
                pending.put(last.bucket(), last.nextAfter());
            }
            if (!priority.getKey().equals(lowest)) {
                if (group.fence().passed(pool, opId)) {
                    return;
                }
                sink.write(group.encoder().partialCheckpointComplete(opId, priority.getKey()));
            }
        }
        if (group.fence().passed(pool, opId)) {
            return;
        }
        sink.write(group.encoder().checkpointComplete(opId));
        completedOpId = opId;
        downloaded = true;
    }

    /** Sends a bucket's ops of the shared delta, in lines of at most a page of ops. */
    private void sendShared(ServedGroup group, String bucket, List<OpEntry> ops) throws IOException {
        int pageOps = settings.pageOps();
        for (int first = 0; first < ops.size(); first += pageOps) {
            List<OpEntry> part = ops.subList(first, Math.min(ops.size(), first + pageOps));
            DataBatch batch = new DataBatch(bucket, positions.getOrDefault(bucket, 0L),
                part.get(part.size() - 1).opId(), first + pageOps < ops.size(), part);
            sink.write(group.encoder().data(batch, request.rawData()));
            counters.sent(part.size(), true);
            positions.put(bucket, batch.nextAfter());
        }
    }

    /** Makes {@code names} the buckets this stream holds in the group's subscriptions. */
    private void hold(ServedGroup group, List<String> names) {
        if (group == heldGroup && names.equals(held)) {
            return;
        }
        group.subscriptions().add(names);
        if (heldGroup != null) {
            heldGroup.subscriptions().remove(held);
        }
        heldGroup = group;
        held = names;
    }

    private OptionalLong writeCheckpoint(Checkpoint checkpoint) throws SQLException {
        Optional<WriteCheckpoint> seen = watcher.coveredWriteCheckpoint(token.userId(), request.clientId());
        boolean seenCovered = seen.isPresent() && Lsns.parse(seen.get().lsn()) <= Lsns.parse(checkpoint.lsn());
        OptionalLong id;
        if (sent == null || (seen.isPresent() && !seenCovered)) {
            id = pool.withConnection(c -> WriteCheckpoints.newestCovered(c, token.userId(), request.clientId(),
                checkpoint.lsn()));
        } else {
            id = seenCovered ? OptionalLong.of(seen.get().id()) : OptionalLong.empty();
        }
        if (sentWriteCheckpoint.isPresent() && (id.isEmpty() || id.getAsLong() < sentWriteCheckpoint.getAsLong())) {
            return sentWriteCheckpoint;
        }
        return id;
    }

    private static Duration min(Duration a, Duration b) {
        Duration m = a.compareTo(b) <= 0 ? a : b;
        return m.isNegative() ? Duration.ZERO : m;
    }
}
