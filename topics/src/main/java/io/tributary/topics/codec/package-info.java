/**
 * Bytes on the wire: {@link io.tributary.topics.codec.RecordKeys} for keys,
 * {@link io.tributary.topics.codec.TopicCodec} per topic for values and whole records,
 * {@link io.tributary.topics.codec.Partitioning} for partitions, Kafka serdes, and
 * {@link io.tributary.topics.codec.DeadLetters}. Everything here is stateless and thread-safe.
 *
 * <p>Producer side: build records with {@code TopicCodec.X.recordByKey(topic, partitions, message)} (row-keyed),
 * {@code recordsToEveryPartition(topic, partitions, marker)} or {@code record(topic, partition, message)}
 * (explicit partition; chunk tasks use {@code Partitioning.taskPartition}). Consumer side: poll
 * {@code byte[]} and call {@code TopicCodec.X.decode(record)}; a
 * {@link io.tributary.topics.codec.MessageFormatException} says which record is bad and why, so it can be
 * dead-lettered rather than retried forever.
 */
package io.tributary.topics.codec;
