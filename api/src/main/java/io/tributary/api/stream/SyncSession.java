package io.tributary.api.stream;

import io.tributary.api.auth.VerifiedToken;
import io.tributary.api.protocol.BucketChecksum;
import io.tributary.api.protocol.DataBatch;
import io.tributary.api.protocol.DataLine;
import io.tributary.api.protocol.DataLineWriter;
import io.tributary.api.protocol.LineEncoder;
import io.tributary.api.protocol.OpEntry;
import io.tributary.api.protocol.StreamSelection;
import io.tributary.api.protocol.SyncRequest;
import io.tributary.api.protocol.WireFormat;
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
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client's sync stream: from the request's bucket positions, for each new served checkpoint, a
 * {@code checkpoint} line (the first) or a {@code checkpoint_diff} (later ones, when something the client sees
 * changed), then the ops of the buckets that changed, highest priority first with a
 * {@code partial_checkpoint_complete} after each priority above the lowest, then {@code checkpoint_complete}.
 * Keepalives ({@code token_expires_in}) go out every keepalive interval; the stream ends when the token expires,
 * when the served group changes (the client reconnects to the new one), or when the client is too slow.
 *
 * <p>A new checkpoint interrupts a long download, as PowerSync's service does: once a page of ops of the
 * checkpoint being downloaded went out, the stream looks for a newer served checkpoint after every page; if that
 * one changes something for the client, the download stops there (no {@code checkpoint_complete}), its
 * {@code checkpoint_diff} goes out at once, and the download goes on towards it: the buckets it changed and the
 * buckets the interrupted download had not finished, each from the position the client reached.
 *
 * <p>The request's {@code streams} choose the bucket definitions synced ({@link StreamSelection}); the checkpoint
 * lists those as its streams.
 *
 * <p>Not thread-safe: one thread runs a session.
 */
public final class SyncSession {

    private static final Logger LOG = LoggerFactory.getLogger(SyncSession.class);

    private final CheckpointWatcher watcher;
    private final StoragePool pool;
    private final StreamSettings settings;
    private final Clock clock;
    private final VerifiedToken token;
    private final SyncRequest request;
    private final WireFormat format;
    private final LineSink sink;
    private final StreamCounters counters;
    private final RequestContext context;
    private final Map<String, Long> positions;
    private final DataLineWriter lines;
    /** Buckets of the last checkpoint line sent whose ops up to it did not all go out yet. */
    private final Set<String> unfinished = new LinkedHashSet<>();
    private Map<String, BucketChecksum> sent;
    private OptionalLong sentWriteCheckpoint = OptionalLong.empty();
    private ServedGroup heldGroup;
    private List<String> held = List.of();
    private LineEncoder encoder;
    private long seenVersion = -1;
    private long completedOpId = -1;

    public SyncSession(CheckpointWatcher watcher, StoragePool pool, StreamSettings settings, Clock clock,
                       VerifiedToken token, SyncRequest request, WireFormat format, LineSink sink,
                       StreamCounters counters) {
        this.watcher = watcher;
        this.pool = pool;
        this.settings = settings;
        this.clock = clock;
        this.token = token;
        this.request = request;
        this.format = format;
        this.sink = sink;
        this.counters = counters;
        this.context = new RequestContext(token.claims(), request.parameters());
        this.positions = new HashMap<>(request.positions());
        this.lines = new DataLineWriter(request.rawData(), format);
    }

    /**
     * Runs the stream until the token expires, the served group changes, the watcher closes, or the request's
     * {@code streams} name a stream the served rules do not define (logged; the client's next request is refused
     * with the reason).
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
        ServedGroup group = null;
        Instant nextKeepalive = clock.instant().plus(settings.keepaliveInterval());
        while (true) {
            Instant now = clock.instant();
            if (!now.isBefore(token.expiresAt())) {
                sink.write(format.line(LineEncoder.keepalive(0)));
                return;
            }
            Duration wait = min(Duration.between(now, nextKeepalive), Duration.between(now, token.expiresAt()));
            // An idle stream holds no line buffers: most of a process's streams wait most of the time.
            lines.release();
            sink.flush();
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
                if (group == null) {
                    Optional<String> problem = request.streams().problemWith(checkpoint.group().rules()
                        .definitionNames());
                    if (problem.isPresent()) {
                        LOG.info("Sync stream of user {} ended: {}", token.userId(), problem.get());
                        return;
                    }
                }
                group = checkpoint.group();
                serve(checkpoint);
            }
            now = clock.instant();
            if (!now.isBefore(nextKeepalive)) {
                long expiresIn = Duration.between(now, token.expiresAt()).toSeconds();
                sink.write(format.line(LineEncoder.keepalive(expiresIn)));
                nextKeepalive = now.plus(settings.keepaliveInterval());
            }
        }
    }

    /** What a checkpoint changes for this stream: its line, the state it gives the client and what to download. */
    private record NextLine(ServedCheckpoint served, byte[] line, Map<String, BucketChecksum> current,
                            OptionalLong writeCheckpoint, List<BucketChecksum> changed) {
    }

    /** Sends {@code checkpoint}'s line when it changes anything, then its ops, following newer ones that interrupt. */
    private void serve(ServedCheckpoint checkpoint) throws IOException, SQLException {
        Optional<List<BucketParameters>> visible = visible(checkpoint);
        if (visible.isEmpty()) {
            return;  // a parameter compaction passed this checkpoint: the watcher is about to serve a newer one
        }
        // A download a compaction left incomplete (no checkpoint_complete) is closed by the next checkpoint's line
        // and completion, even when that checkpoint changes none of the stream's buckets.
        boolean leftIncomplete = sent != null && completedOpId < 0;
        Optional<NextLine> next = nextLine(checkpoint, visible.get(), leftIncomplete);
        if (next.isEmpty()) {
            if (unfinished.isEmpty()) {
                completedOpId = checkpoint.checkpoint().opId();
            }
            return;
        }
        while (next.isPresent()) {
            NextLine line = next.get();
            Set<String> heldBefore = sent == null ? Set.of() : sent.keySet();
            List<BucketChecksum> toFetch = send(line);
            next = download(line.served(), toFetch, heldBefore);
            if (next.isEmpty() && completedOpId == line.served().checkpoint().opId()) {
                counters.delivered(System.nanoTime() - line.served().seenNanos());
            } else if (next.isEmpty()) {
                next = afterIncomplete(line.served());
            }
        }
    }

    /**
     * After a download a compaction left incomplete: the line of the newest served checkpoint of the same group past
     * it, whatever it changes (it may have been seen, and passed over, while the download ran); empty when there is
     * none yet (the stream's loop serves it when it comes) or a parameter compaction passed it too.
     */
    private Optional<NextLine> afterIncomplete(ServedCheckpoint incomplete) throws SQLException {
        Optional<ServedCheckpoint> newer = watcher.current().filter(c -> c.group() == incomplete.group()
            && c.checkpoint().opId() > incomplete.checkpoint().opId());
        if (newer.isEmpty()) {
            return Optional.empty();
        }
        seenVersion = Math.max(seenVersion, newer.get().version());
        Optional<List<BucketParameters>> visible = visible(newer.get());
        return visible.isEmpty() ? Optional.empty() : nextLine(newer.get(), visible.get(), true);
    }

    /**
     * The buckets of the request's streams the stream sees at {@code served}; empty when a compaction of the
     * parameter lookups passed that checkpoint.
     */
    private Optional<List<BucketParameters>> visible(ServedCheckpoint served) throws SQLException {
        return BucketSets.visible(pool, served.group(), context, served.checkpoint().opId()).map(buckets -> buckets
            .stream().filter(bucket -> request.streams().includes(bucket.definition())).toList());
    }

    /**
     * The line {@code checkpoint} gives this stream: a {@code checkpoint} first, later a {@code checkpoint_diff}
     * when a bucket changed, appeared or went away or the write checkpoint advanced, or {@code always}; empty when
     * nothing did. Changes nothing the client sees (the buckets it computes are held in the group's subscriptions
     * from now on).
     */
    private Optional<NextLine> nextLine(ServedCheckpoint served, List<BucketParameters> visible, boolean always)
        throws SQLException {
        ServedGroup group = served.group();
        Checkpoint checkpoint = served.checkpoint();
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
        LineEncoder lineEncoder = encoder(group);
        if (sent == null) {
            List<BucketChecksum> all = new ArrayList<>(current.values());
            return Optional.of(new NextLine(served, lineEncoder.checkpoint(checkpoint.opId(), writeCheckpoint, all),
                current, writeCheckpoint, all));
        }
        List<BucketChecksum> changed = new ArrayList<>();
        for (BucketChecksum bucket : current.values()) {
            BucketChecksum before = sent.get(bucket.bucket());
            if (before == null || bucket.differsFrom(before)) {
                changed.add(bucket);
            }
        }
        List<String> removed = sent.keySet().stream().filter(b -> !current.containsKey(b)).toList();
        if (!always && changed.isEmpty() && removed.isEmpty() && writeCheckpoint.equals(sentWriteCheckpoint)) {
            return Optional.empty();
        }
        return Optional.of(new NextLine(served, lineEncoder.checkpointDiff(checkpoint.opId(), writeCheckpoint,
            changed, removed), current, writeCheckpoint, changed));
    }

    /**
     * Sends {@code next}'s line and makes its state the stream's; returns the buckets to download: those it changed
     * and those an interrupted download left unfinished.
     */
    private List<BucketChecksum> send(NextLine next) throws IOException {
        sink.write(format.line(next.line()));
        positions.keySet().retainAll(next.current().keySet());
        Map<String, BucketChecksum> toFetch = new LinkedHashMap<>();
        for (BucketChecksum bucket : next.changed()) {
            toFetch.put(bucket.bucket(), bucket);
        }
        for (String bucket : unfinished) {
            BucketChecksum still = next.current().get(bucket);
            if (still != null) {
                toFetch.putIfAbsent(bucket, still);
            }
        }
        sent = next.current();
        sentWriteCheckpoint = next.writeCheckpoint();
        unfinished.clear();
        unfinished.addAll(toFetch.keySet());
        return new ArrayList<>(toFetch.values());
    }

    /**
     * Sends the ops of {@code buckets} up to the checkpoint, highest priority first. A bucket this stream held at
     * the checkpoint it completed last ({@code heldBefore}) takes them from the shared delta when that starts there;
     * a bucket new to the stream needs its ops from its position on, so it is always read. The checkpoint is not
     * completed when a compaction rewrote ops up to a later checkpoint meanwhile (what was read may add up only
     * there): the stream stays incomplete and the next checkpoint, published already, brings the client's buckets to
     * a state that adds up.
     *
     * @return the line of a newer checkpoint that interrupted the download; empty when it completed (the checkpoint
     *         is then {@code completedOpId}) or was left incomplete for a compaction
     */
    private Optional<NextLine> download(ServedCheckpoint served, List<BucketChecksum> buckets,
                                        Set<String> heldBefore) throws IOException, SQLException {
        ServedGroup group = served.group();
        long opId = served.checkpoint().opId();
        TreeMap<Integer, List<String>> byPriority = new TreeMap<>();
        for (BucketChecksum bucket : buckets) {
            byPriority.computeIfAbsent(bucket.priority(), p -> new ArrayList<>()).add(bucket.bucket());
        }
        Integer lowest = byPriority.isEmpty() ? null : byPriority.lastKey();
        Optional<CheckpointDelta> delta = group.delta().filter(d -> d.serves(completedOpId, opId));
        completedOpId = -1;
        long sentOps = 0;
        for (Map.Entry<Integer, List<String>> priority : byPriority.entrySet()) {
            Map<String, Long> pending = new LinkedHashMap<>();
            for (String bucket : priority.getValue()) {
                if (delta.isPresent() && delta.get().covers(bucket) && heldBefore.contains(bucket)) {
                    sentOps += sendShared(bucket, delta.get().opsOf(bucket));
                    unfinished.remove(bucket);
                } else {
                    pending.put(bucket, positions.getOrDefault(bucket, 0L));
                }
            }
            while (!pending.isEmpty()) {
                Optional<NextLine> newer = interruption(group, sentOps);
                if (newer.isPresent()) {
                    return newer;
                }
                BucketReader.Page page = pool.withConnection(c -> group.reader().read(c, pending, opId, lines));
                for (DataLine line : page.lines()) {
                    sink.write(line.bytes());
                    counters.sent(line.ops(), false);
                    positions.put(line.bucket(), line.nextAfter());
                    sentOps += line.ops();
                }
                if (!page.full()) {
                    unfinished.removeAll(pending.keySet());
                    break;
                }
                String last = page.lines().get(page.lines().size() - 1).bucket();
                for (Iterator<String> it = pending.keySet().iterator(); it.hasNext(); ) {
                    String bucket = it.next();
                    if (bucket.equals(last)) {
                        break;
                    }
                    unfinished.remove(bucket);
                    it.remove();
                }
                pending.put(last, positions.get(last));
            }
            if (!priority.getKey().equals(lowest)) {
                if (group.fence().passed(pool, opId)) {
                    return Optional.empty();
                }
                sink.write(format.line(encoder(group).partialCheckpointComplete(opId, priority.getKey())));
            }
        }
        if (group.fence().passed(pool, opId)) {
            return Optional.empty();
        }
        sink.write(format.line(encoder(group).checkpointComplete(opId)));
        completedOpId = opId;
        return Optional.empty();
    }

    /**
     * The line of a newer served checkpoint of the same group that changes something for this stream, once at
     * least a page of ops of the current download went out; empty otherwise (a newer checkpoint that changes
     * nothing is marked seen; another group is left to the stream's loop, which ends the stream).
     */
    private Optional<NextLine> interruption(ServedGroup group, long sentOps) throws SQLException {
        if (sentOps < settings.pageOps()) {
            return Optional.empty();
        }
        Optional<ServedCheckpoint> newer = watcher.current().filter(c -> c.version() > seenVersion
            && c.group() == group);
        if (newer.isEmpty()) {
            return Optional.empty();
        }
        seenVersion = newer.get().version();
        Optional<List<BucketParameters>> visible = visible(newer.get());
        if (visible.isEmpty()) {
            return Optional.empty();  // a parameter compaction passed it: a newer one follows
        }
        Optional<NextLine> line = nextLine(newer.get(), visible.get(), false);
        if (line.isPresent()) {
            counters.interrupted();
        }
        return line;
    }

    /** The encoder of this stream's lines: the group's, or one listing only the streams the request selected. */
    private LineEncoder encoder(ServedGroup group) {
        if (encoder == null) {
            encoder = request.streams().equals(StreamSelection.DEFAULTS) ? group.encoder()
                : new LineEncoder(request.streams().streams(group.rules().definitionNames()));
        }
        return encoder;
    }

    /** Sends a bucket's ops of the shared delta, in lines of at most a page of ops; returns how many. */
    private int sendShared(String bucket, List<OpEntry> ops) throws IOException {
        int pageOps = settings.pageOps();
        for (int first = 0; first < ops.size(); first += pageOps) {
            List<OpEntry> part = ops.subList(first, Math.min(ops.size(), first + pageOps));
            DataBatch batch = new DataBatch(bucket, positions.getOrDefault(bucket, 0L),
                part.get(part.size() - 1).opId(), first + pageOps < ops.size(), part);
            sink.write(lines.line(batch));
            counters.sent(part.size(), true);
            positions.put(bucket, batch.nextAfter());
        }
        return ops.size();
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
