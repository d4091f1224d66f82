package io.tributary.topics.messages;

/**
 * A control message that is not about one row: sent to every partition of its topic by its producer (barriers,
 * window, truncate, chunk-done and plan markers) or written by a stream worker into the one partition it
 * concerns (barriers and table-ready on {@code rows}). Its key is a {@link MarkerKey} naming that partition.
 */
public sealed interface Marker extends TopicMessage
    permits Barrier, TableWindowMarker, TableTruncate, ChunkDone, TablePlan, TableReady {

    /** The marker kind, which fixes the key's scope. */
    MarkerKind kind();

    @Override
    MarkerKey keyFor(int partition);
}
