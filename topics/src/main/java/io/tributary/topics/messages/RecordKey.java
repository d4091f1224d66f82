package io.tributary.topics.messages;

/**
 * The key of a Kafka record on a Tributary topic. {@code RecordKeys} (package {@code codec}) is the one encoding
 * of keys to bytes; every producer uses it, so equal keys are equal bytes and land in the same partition of every
 * co-partitioned topic.
 *
 * <ul>
 *   <li>{@link RowKey}: one source row (table + primary key): change events, snapshot rows, resolved rows;</li>
 *   <li>{@link MarkerKey}: a marker sent to every partition (or one explicit partition);</li>
 *   <li>{@link TaskKey}: a chunk task on {@code snapshot-tasks}.</li>
 * </ul>
 */
public sealed interface RecordKey permits RowKey, MarkerKey, TaskKey {
}
