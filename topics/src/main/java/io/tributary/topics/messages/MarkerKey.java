package io.tributary.topics.messages;

import java.util.Objects;
import java.util.Optional;

/**
 * The key of a marker record in one partition. It names the partition it is written to, so compaction of
 * {@code rows} keeps exactly the newest marker of each kind per partition (and per table or chunk, by the kind's
 * {@link MarkerKind#scope() scope}), and markers never collide with row keys.
 *
 * @param kind      the marker kind
 * @param partition the partition the marker is written to, {@code >= 0}
 * @param table     the table, present iff the kind's scope is {@code TABLE}
 * @param chunkId   the chunk id, present iff the kind's scope is {@code CHUNK}
 */
public record MarkerKey(MarkerKind kind, int partition, Optional<TableId> table, Optional<String> chunkId)
    implements RecordKey {

    public MarkerKey {
        Objects.requireNonNull(kind, "kind");
        Checks.partition(partition);
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(chunkId, "chunkId");
        chunkId.ifPresent(Checks::chunkId);
        boolean wantsTable = kind.scope() == MarkerKind.Scope.TABLE;
        boolean wantsChunk = kind.scope() == MarkerKind.Scope.CHUNK;
        if (table.isPresent() != wantsTable || chunkId.isPresent() != wantsChunk) {
            throw new IllegalArgumentException("A " + kind.wireName() + " marker key is scoped by "
                + kind.scope().name().toLowerCase() + ", got table " + table + " and chunk " + chunkId);
        }
    }

    /** The key of a marker scoped by nothing but its partition. */
    public static MarkerKey of(MarkerKind kind, int partition) {
        return new MarkerKey(kind, partition, Optional.empty(), Optional.empty());
    }

    /** The key of a marker scoped by a table. */
    public static MarkerKey of(MarkerKind kind, int partition, TableId table) {
        return new MarkerKey(kind, partition, Optional.of(table), Optional.empty());
    }

    /** The key of a marker scoped by a chunk. */
    public static MarkerKey of(MarkerKind kind, int partition, String chunkId) {
        return new MarkerKey(kind, partition, Optional.empty(), Optional.of(chunkId));
    }

    @Override
    public String toString() {
        return kind.wireName() + "@" + partition + table.map(t -> "/" + t).orElse("")
            + chunkId.map(c -> "/" + c).orElse("");
    }
}
