package io.tributary.topics.messages;

/**
 * The kinds of markers: records a producer sends to every partition of a topic (or that a stream worker writes
 * into its own partition), keyed by {@link MarkerKey}. The kind decides what else identifies a marker within a
 * partition ({@link Scope}), which is what compaction of {@code rows} keeps the newest of.
 */
public enum MarkerKind {

    /** {@link Barrier}: one per partition. */
    BARRIER("barrier", Scope.PARTITION),

    /** {@link TableWindowMarker}: one per partition and table. */
    TABLE_WINDOW("table-window", Scope.TABLE),

    /** {@link TableTruncate}: one per partition and table. */
    TABLE_TRUNCATE("table-truncate", Scope.TABLE),

    /** {@link ChunkDone}: one per partition and chunk. */
    CHUNK_DONE("chunk-done", Scope.CHUNK),

    /** {@link TablePlan}: one per partition and table. */
    TABLE_PLAN("table-plan", Scope.TABLE),

    /** {@link TableReady}: one per partition and table. */
    TABLE_READY("table-ready", Scope.TABLE);

    /** What identifies a marker of a kind besides its kind and partition. */
    public enum Scope {
        /** Nothing: the newest marker of the kind per partition. */
        PARTITION,
        /** A table. */
        TABLE,
        /** A chunk id. */
        CHUNK
    }

    private final String wireName;
    private final Scope scope;

    MarkerKind(String wireName, Scope scope) {
        this.wireName = wireName;
        this.scope = scope;
    }

    /** The name in encoded keys. */
    public String wireName() {
        return wireName;
    }

    /** What identifies a marker of this kind within a partition. */
    public Scope scope() {
        return scope;
    }

    /**
     * The kind with key name {@code wireName}.
     *
     * @throws IllegalArgumentException for an unknown name
     */
    public static MarkerKind fromWireName(String wireName) {
        for (MarkerKind kind : values()) {
            if (kind.wireName.equals(wireName)) {
                return kind;
            }
        }
        throw new IllegalArgumentException("Unknown marker kind '" + wireName + "'");
    }
}
