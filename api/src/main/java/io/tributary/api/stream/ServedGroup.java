package io.tributary.api.stream;

import io.tributary.api.protocol.LineEncoder;
import io.tributary.syncrules.SyncRules;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The sync rules group this process serves (the ACTIVE one), with what its streams share: the parsed rules, the
 * line encoder, the checksum cache, the parameter lookup cache and the op reader. Immutable references; the caches
 * are thread-safe.
 */
public final class ServedGroup {

    /** The most parameter lookups kept per checkpoint ({@link LookupCache}): about 100 bytes each and their rows. */
    static final int CACHED_LOOKUPS = 200_000;

    private final long id;
    private final SyncRules rules;
    private final LineEncoder encoder;
    private final ChecksumCache checksums;
    private final BucketReader reader;
    private final DeltaReader deltaReader;
    private final LookupCache lookups;
    private final FenceReader fence;
    private final Subscriptions subscriptions = new Subscriptions();
    private volatile CheckpointDelta delta;

    ServedGroup(long id, SyncRules rules, StreamSettings settings) {
        this.id = id;
        this.rules = Objects.requireNonNull(rules, "rules");
        this.encoder = new LineEncoder(rules.definitionNames());
        this.checksums = new ChecksumCache(id, settings.cachedBuckets());
        this.reader = new BucketReader(id, settings.pageOps());
        this.deltaReader = new DeltaReader(id, settings.sharedOps());
        this.lookups = new LookupCache(id, CACHED_LOOKUPS);
        this.fence = new FenceReader(id);
    }

    /** The group id. */
    public long id() {
        return id;
    }

    /** The group's sync rules. */
    public SyncRules rules() {
        return rules;
    }

    LineEncoder encoder() {
        return encoder;
    }

    ChecksumCache checksums() {
        return checksums;
    }

    BucketReader reader() {
        return reader;
    }

    LookupCache lookups() {
        return lookups;
    }

    FenceReader fence() {
        return fence;
    }

    Subscriptions subscriptions() {
        return subscriptions;
    }

    /** The shared ops of the served checkpoint since the one before, when they were read for the process. */
    Optional<CheckpointDelta> delta() {
        return Optional.ofNullable(delta);
    }

    /**
     * Reads the ops the held buckets gained from checkpoint {@code from} to {@code to} and extends the checksum
     * cache with them, and moves the lookup cache to {@code to}, before streams see {@code to}; with too many ops,
     * or none held, there is no shared delta. A checkpoint that moves only the source position ({@code to == from})
     * keeps the delta that reached it: streams still busy with the checkpoint before take their ops from it.
     */
    void advance(Connection connection, long from, long to) throws SQLException {
        if (to == from) {
            return;
        }
        if (to > from && !rules.parameterTables().isEmpty()) {
            lookups.advance(connection, from, to);
        }
        delta = null;
        List<String> held = subscriptions.buckets();
        if (held.isEmpty() || to < from) {
            return;
        }
        Optional<CheckpointDelta> read = deltaReader.read(connection, held, from, to);
        if (read.isPresent()) {
            checksums.advance(read.get());
            delta = read.get();
        }
    }

    /** The priority of the buckets of {@code definition}: 0 first, 3 the default. */
    int priority(String definition) {
        return rules.priority(definition);
    }
}
