package io.tributary.ingest.capture.internals;

import io.debezium.embedded.Connect;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.RecordChangeEvent;
import io.debezium.engine.format.ChangeEventFormat;
import io.tributary.ingest.capture.IngestConfig;
import io.tributary.ingest.capture.barrier.BarrierRecovery;
import io.tributary.ingest.capture.barrier.BarrierSchedule;
import io.tributary.ingest.capture.barrier.RecoveredBarriers;
import io.tributary.ingest.capture.barrier.StoredBarrier;
import io.tributary.postgres.LazyConnection;
import io.tributary.topics.codec.TopicCodec;
import io.tributary.topics.messages.Barrier;
import java.io.IOException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run of the Debezium engine: from start until it stops (closed, or failed). Owns the engine thread, the
 * transactional {@code changes} producer and the source connection of the batch handler. Before the engine starts,
 * in this order: the producer is opened, which fences any earlier ingest of the same slot and aborts its open
 * transaction; the newest committed barriers are read back; partitions that missed the newest one get it (in a
 * transaction), so every partition sees the same epochs; then the engine reads the committed source offsets.
 * Thread-safe: the supervisor starts, watches and closes it while the engine thread runs the handler.
 */
public final class CaptureRun implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(CaptureRun.class);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration RECOVERY_TIMEOUT = Duration.ofSeconds(60);

    private final DebeziumEngine<RecordChangeEvent<SourceRecord>> engine;
    private final ChangeBatchHandler handler;
    private final ChangesProducer producer;
    private final LazyConnection source;
    private final ExecutorService thread;
    private final CountDownLatch done = new CountDownLatch(1);
    private final AtomicReference<Throwable> engineError = new AtomicReference<>();

    private CaptureRun(IngestConfig config, long xidReference, CaptureCounters counters) {
        this.producer = ChangesProducer.open(config.kafkaProperties(), config.engineName() + "-changes",
            transactionalId(config), config.topics().changes(), config.layout().partitions());
        this.source = new LazyConnection(config.source());
        try {
            StoredBarrier stored = new StoredBarrier(config.topics().ingestOffsets(), config.engineName());
            RecoveredBarriers recovered = BarrierRecovery.recover(config.kafkaProperties(),
                config.topics().changes(), config.layout().partitions(), stored, RECOVERY_TIMEOUT)
                .withSealed(highestSealed(config));
            repairBarriers(config, recovered);
            this.handler = new ChangeBatchHandler(producer,
                new SourceOffsets(config.topics().ingestOffsets(), config.engineName()), stored,
                new ChangeDecoder(new TableEncoders(source)),
                new XidWidener(xidReference), BarrierSchedule.after(recovered, config.barrierInterval()), counters);
            this.engine = DebeziumEngine.create(ChangeEventFormat.of(Connect.class))
                .using(EngineProperties.of(config))
                .using((success, message, error) -> {
                    if (!success) {
                        engineError.compareAndSet(null, error != null ? error : new IllegalStateException(message));
                    }
                    done.countDown();
                })
                .notifying(handler)
                .build();
        } catch (RuntimeException e) {
            producer.closeNow();
            source.close();
            throw e;
        }
        this.thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, config.engineName());
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Starts an engine run for {@code config}, continuing the barriers in {@code changes}.
     *
     * @param xidReference a recent 64-bit transaction id of the source, to widen pgoutput's 32-bit ones
     */
    public static CaptureRun start(IngestConfig config, long xidReference, CaptureCounters counters) {
        CaptureRun run = new CaptureRun(config, xidReference, counters);
        run.thread.execute(run.engine);
        return run;
    }

    private static Optional<Barrier> highestSealed(IngestConfig config) {
        try {
            return config.sealed().highest();
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot read the epochs the storage writers sealed (ingest's barriers"
                + " must pass them): " + e.getMessage(), e);
        }
    }

    private void repairBarriers(IngestConfig config, RecoveredBarriers recovered) {
        Optional<Barrier> latest = recovered.latest();
        if (latest.isEmpty() || recovered.partitionsBehind().isEmpty()) {
            return;
        }
        LOG.info("Writing {} to partitions {} of {}, which missed it when the previous run stopped", latest.get(),
            recovered.partitionsBehind(), config.topics().changes());
        producer.begin();
        for (int partition : recovered.partitionsBehind()) {
            producer.send(TopicCodec.CHANGES.record(config.topics().changes(), partition, latest.get()));
        }
        producer.commit();
    }

    /**
     * The transactional id of ingest's producer: one per deployment (topic prefix) and slot, so a second instance
     * of the same ingest fences the first, and ingests of other deployments on the same cluster do not.
     */
    public static String transactionalId(IngestConfig config) {
        return config.topics().prefix() + config.engineName();
    }

    /** Whether the engine has stopped. */
    public boolean isDone() {
        return done.getCount() == 0;
    }

    /** Waits up to {@code timeout} for the engine to stop; true if it has. */
    public boolean awaitDone(Duration timeout) throws InterruptedException {
        return done.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Why the engine stopped, if it failed: the handler's own exception when it was the cause. */
    public Optional<Throwable> failure() {
        Optional<RuntimeException> own = handler.failure();
        if (own.isPresent()) {
            return Optional.of(own.get());
        }
        return Optional.ofNullable(engineError.get());
    }

    /** Stops the engine (committing the positions already marked), then the producer. */
    @Override
    public void close() {
        long deadline = System.nanoTime() + STOP_TIMEOUT.toNanos();
        try {
            while (!isDone()) {
                try {
                    engine.close();
                    break;
                } catch (IllegalStateException e) {
                    if (System.nanoTime() - deadline > 0) {
                        throw new IllegalStateException("Debezium engine did not stop within " + STOP_TIMEOUT, e);
                    }
                    done.await(100, TimeUnit.MILLISECONDS);
                } catch (IOException e) {
                    LOG.warn("Debezium engine did not close cleanly: {}", e.getMessage());
                    break;
                }
            }
            if (!done.await(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                LOG.warn("Debezium engine did not stop within {}", STOP_TIMEOUT);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            thread.shutdownNow();
            producer.close();
            source.close();
        }
    }
}
