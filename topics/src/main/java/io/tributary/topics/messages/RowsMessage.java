package io.tributary.topics.messages;

/**
 * What the compacted {@code rows} topic carries, in source order per key: resolved row states, resolved deletes
 * (Kafka tombstones), forwarded barriers and truncations, and table-ready markers. Written by stream workers.
 */
public sealed interface RowsMessage extends TopicMessage
    permits ResolvedRow, ResolvedDelete, Barrier, TableReady, TableTruncate {
}
