/**
 * The Kafka side: the poll loop, partition claims (fencing tokens, offsets from storage), rebalances,
 * backpressure, dead letters and the committer thread. Not API: {@link io.tributary.writer.StorageWriter} runs it.
 */
package io.tributary.writer.consume;
