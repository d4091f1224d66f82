package io.tributary.topics.messages;

/**
 * What the {@code changes} topic carries, in source commit order per partition: row changes, barriers, snapshot
 * window markers and truncations. Written by ingest only.
 */
public sealed interface ChangesMessage extends TopicMessage
    permits ChangeEvent, ChangeEventBatch, Barrier, TableWindowMarker, TableTruncate {
}
