package io.tributary.api.stream;

import io.tributary.api.protocol.LineEncoder;
import io.tributary.syncrules.SyncRules;
import java.util.Objects;

/**
 * The sync rules group this process serves (the ACTIVE one), with what its streams share: the parsed rules, the
 * line encoder, the checksum cache and the op reader. Immutable references; the cache is thread-safe.
 */
public final class ServedGroup {

    private final long id;
    private final SyncRules rules;
    private final LineEncoder encoder;
    private final ChecksumCache checksums;
    private final BucketReader reader;

    ServedGroup(long id, SyncRules rules, StreamSettings settings) {
        this.id = id;
        this.rules = Objects.requireNonNull(rules, "rules");
        this.encoder = new LineEncoder(rules.definitionNames());
        this.checksums = new ChecksumCache(id, settings.cachedBuckets());
        this.reader = new BucketReader(id, settings.pageOps());
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

    /** The priority of the buckets of {@code definition}: 0 first, 3 the default. */
    int priority(String definition) {
        return rules.priority(definition);
    }
}
