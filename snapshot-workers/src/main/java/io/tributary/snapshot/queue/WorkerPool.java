package io.tributary.snapshot.queue;

import io.tributary.postgres.StopSignal;
import io.tributary.snapshot.ChunkListener;
import io.tributary.snapshot.SnapshotWorkerConfig;
import io.tributary.snapshot.internals.ProgressLog;
import io.tributary.snapshot.publish.ChunkPublisher;
import io.tributary.snapshot.read.ChunkReader;
import io.tributary.snapshot.read.SourceSession;
import io.tributary.topics.GroupMembership;
import io.tributary.topics.clients.ClusterIdentity;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Semaphore;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.RoundRobinAssignor;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker loops of one process: one thread and one consumer group member per loop, one shared idempotent
 * producer, one semaphore capping concurrent chunk reads against the source. Members are assigned partitions
 * round-robin, so each gets partitions of every priority range. Thread-safe.
 */
public final class WorkerPool implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(WorkerPool.class);

    private final Producer<byte[], byte[]> producer;
    private final Admin admin;
    private final StopSignal stop = new StopSignal();
    private final List<WorkerLoop> loops = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();

    private WorkerPool(SnapshotWorkerConfig config, ChunkListener listener) {
        String process = UUID.randomUUID().toString().substring(0, 8);
        String prefix = config.consumerGroup() + "-" + process;
        ClusterIdentity cluster = new ClusterIdentity();
        this.producer = new KafkaProducer<>(producerSettings(config, prefix + "-producer"), cluster,
            new ByteArraySerializer());
        this.admin = Admin.create(adminSettings(config, prefix + "-admin"));
        TaskLag lag = new AdminTaskLag(admin, config.consumerGroup());
        ChunkPublisher publisher = new ChunkPublisher(producer, cluster, config.topics(), config.layout());
        Semaphore reads = new Semaphore(config.maxConcurrentReads(), true);
        ProgressLog progress = new ProgressLog(config.progressInterval(), System::nanoTime);
        for (int i = 0; i < config.workersPerProcess(); i++) {
            String name = prefix + "-" + i;
            SourceSession session = new SourceSession(config.source(), config.read(), "tributary " + name);
            LoopResources resources = new LoopResources(new KafkaConsumer<>(consumerSettings(config, name)),
                producer, config.topics(), config.layout(), lag, session,
                new ChunkReader(session, reads, publisher, config.read().fetchRows()),
                new ProgressStore(config.storage(), config.retry(), stop), listener, progress, config.retry(),
                stop, config.read().pipelineDepth());
            WorkerLoop loop = new WorkerLoop(name, resources);
            loops.add(loop);
            Thread thread = new Thread(loop, name);
            thread.setDaemon(true);
            threads.add(thread);
        }
    }

    /** Starts the loops of {@code config}, reporting to {@code listener}. */
    public static WorkerPool start(SnapshotWorkerConfig config, ChunkListener listener) {
        WorkerPool pool = new WorkerPool(config, listener);
        pool.threads.forEach(Thread::start);
        LOG.info("Started {} snapshot worker loops in consumer group {}", pool.threads.size(),
            config.consumerGroup());
        return pool;
    }

    /**
     * The shared producer's settings; its client id, {@code clientId}, names the consumer group like the loops'
     * consumers do, so its I/O thread ({@code kafka-producer-network-thread | <client id>}) tells whose it is.
     */
    private static Map<String, Object> producerSettings(SnapshotWorkerConfig config, String clientId) {
        Map<String, Object> settings = new HashMap<>();
        settings.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
        settings.put(ProducerConfig.LINGER_MS_CONFIG, 100);
        settings.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        settings.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        settings.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, Long.MAX_VALUE);
        settings.putAll(config.kafka());
        settings.put(ProducerConfig.ACKS_CONFIG, "all");
        settings.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        return settings;
    }

    private static Map<String, Object> adminSettings(SnapshotWorkerConfig config, String clientId) {
        Map<String, Object> settings = new HashMap<>();
        settings.put(AdminClientConfig.CLIENT_ID_CONFIG, clientId);
        settings.putAll(config.kafka());
        return settings;
    }

    private static Map<String, Object> consumerSettings(SnapshotWorkerConfig config, String clientId) {
        Map<String, Object> settings = new HashMap<>();
        settings.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        settings.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        settings.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, RoundRobinAssignor.class.getName());
        settings.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, GroupMembership.HEARTBEAT_INTERVAL_MS);
        settings.putAll(config.kafka());
        settings.put(ConsumerConfig.GROUP_ID_CONFIG, config.consumerGroup());
        settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        settings.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, WorkerLoop.tasksPerPoll(config.read().pipelineDepth()));
        settings.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        settings.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        return settings;
    }

    /** The first failure that stopped a loop, if any. */
    public Optional<Throwable> failure() {
        return loops.stream().map(WorkerLoop::failure).flatMap(Optional::stream).findFirst();
    }

    /** Whether every loop is still running. */
    public boolean isRunning() {
        return threads.stream().allMatch(Thread::isAlive);
    }

    /**
     * Stops the loops after the chunks they read are acknowledged and committed (waiting up to {@code timeout}),
     * then closes the producer.
     */
    public void close(Duration timeout) {
        stop.stop();
        join(timeout);
        producer.close(timeout);
        admin.close(timeout);
    }

    /**
     * Stops at once, as a crash would: nothing more is committed; chunks in progress are redone by other
     * members as new attempts.
     */
    public void abort() {
        loops.forEach(WorkerLoop::abort);
        producer.close(Duration.ZERO);
        threads.forEach(Thread::interrupt);
        join(Duration.ofSeconds(30));
        admin.close(Duration.ZERO);
    }

    private void join(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (Thread thread : threads) {
            try {
                thread.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(30));
    }
}
