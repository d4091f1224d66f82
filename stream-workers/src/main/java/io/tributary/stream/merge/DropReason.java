package io.tributary.stream.merge;

/** Why the merge passed an input record on to nothing. */
public enum DropReason {

    /** A change event or truncation at or below the partition's {@code (LSN, seq)} high-water mark. */
    DUPLICATE_EVENT,

    /** A barrier neither whose epoch nor whose LSN is after the last one forwarded. */
    REPEATED_BARRIER,

    /** A window marker of a window already open or closed (a re-send after an ingest restart). */
    REPEATED_WINDOW_MARKER,

    /** A snapshot row whose key has an emitted stream event (or its table a truncation) invisible in its snapshot. */
    STREAM_IS_NEWER,

    /** A snapshot row or done marker of an attempt lower than one already seen for its chunk. */
    SUPERSEDED_ATTEMPT,

    /** A snapshot row or done marker of a chunk that is already done in this partition. */
    CHUNK_ALREADY_DONE,

    /** A snapshot row, done marker or plan of a window that is ready or superseded. */
    WINDOW_CLOSED,

    /** A snapshot row or done marker naming another window than an earlier record of the same chunk. */
    CHUNK_WINDOW_CONFLICT
}
