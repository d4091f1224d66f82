package io.tributary.writer.consume;

import io.tributary.postgres.LazyConnection;
import io.tributary.postgres.StopSignal;
import io.tributary.writer.TableLog;
import io.tributary.writer.TableLogLostException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.KafkaException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Repeats, while a writer runs, the checks its start made of the {@code rows} log ({@link TableLogCheck#verifyRunning}:
 * the log Kafka holds is the one the group's offsets refer to, and they lie inside it), every {@code interval}. A
 * log lost while the writer runs (a topic deleted and created again, a new cluster behind the same address, records
 * deleted) is otherwise seen only at the next start: until then the consumer would read the new log from its start
 * as if it were the old one. A topic that no longer exists is a loss too (the log the group recorded is gone,
 * whether or not one is provisioned again). On a loss it sets {@link #failure()} to the {@link TableLogLostException}
 * a start would throw and stops the whole writer (its shared {@link StopSignal}); whoever restarts it gets the same
 * exception from the start, so the handling is the start's. A check that cannot run (Kafka or storage unreachable)
 * is tried again at the next interval: the writer's own loops report those.
 *
 * <p>Runs on its own thread, with its own admin client, consumer (no group) and storage connection, all closed
 * when it stops.
 */
public final class TableLogWatch implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(TableLogWatch.class);

    private final long groupId;
    private final String topic;
    private final int partitions;
    private final Supplier<Admin> admin;
    private final Supplier<Consumer<byte[], byte[]>> consumer;
    private final LazyConnection storage;
    private final StopSignal stop;
    private final Duration interval;
    private volatile TableLogLostException failure;

    /**
     * A watch of group {@code groupId}'s log {@code topic} ({@code partitions} partitions), whose clients are made
     * by {@code admin} and {@code consumer} when it starts, checking every {@code interval} until {@code stop}.
     */
    public TableLogWatch(long groupId, String topic, int partitions, Supplier<Admin> admin,
                         Supplier<Consumer<byte[], byte[]>> consumer, LazyConnection storage, StopSignal stop,
                         Duration interval) {
        this.groupId = groupId;
        this.topic = topic;
        this.partitions = partitions;
        this.admin = admin;
        this.consumer = consumer;
        this.storage = storage;
        this.stop = stop;
        this.interval = interval;
    }

    /** The loss that stopped the writer, if one did. */
    public Optional<Throwable> failure() {
        return Optional.ofNullable(failure);
    }

    @Override
    public void run() {
        try (Admin kafka = admin.get(); Consumer<byte[], byte[]> reader = consumer.get(); storage) {
            while (stop.pause(interval)) {
                try {
                    check(kafka, reader);
                } catch (TableLogLostException e) {
                    failure = e;
                    LOG.error("Group {}: stopping its writer: {}", groupId, e.getMessage());
                    stop.stop();
                } catch (SQLException | KafkaException | IllegalStateException e) {
                    storage.discardIfBroken();
                    LOG.debug("Group {}: the check of {} did not run (next in {}): {}", groupId, topic, interval,
                        e.toString());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.warn("Group {}: the watch of {} stopped: {}", groupId, topic, e.toString());
        }
    }

    private void check(Admin kafka, Consumer<byte[], byte[]> reader) throws SQLException, InterruptedException {
        String clusterId = TableLog.clusterId(kafka);
        Optional<TableLog> current = TableLog.find(kafka, clusterId, topic);
        if (current.isPresent()) {
            TableLogCheck.verifyRunning(storage.get(), groupId, current.get(), reader, partitions);
        } else {
            TableLogCheck.verifyMissing(storage.get(), groupId, clusterId, topic);
        }
    }
}
