package io.tributary.snapshot.queue;

import io.tributary.postgres.RetryPolicy;
import io.tributary.postgres.StopSignal;
import io.tributary.snapshot.ChunkListener;
import io.tributary.snapshot.internals.ProgressLog;
import io.tributary.snapshot.read.ChunkReader;
import io.tributary.snapshot.read.SourceSession;
import io.tributary.topics.TopicLayout;
import io.tributary.topics.TopicNames;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.producer.Producer;

/**
 * What one {@link WorkerLoop} works with: its own consumer, source session, reader and storage access, and the
 * process's shared producer, listener, progress log and stop signal.
 */
record LoopResources(Consumer<byte[], byte[]> consumer, Producer<byte[], byte[]> producer, TopicNames topics,
                     TopicLayout layout, TaskLag lag, SourceSession session, ChunkReader reader, ProgressStore store,
                     ChunkListener listener, ProgressLog progress, RetryPolicy retry, StopSignal stop,
                     int pipelineDepth) {
}
