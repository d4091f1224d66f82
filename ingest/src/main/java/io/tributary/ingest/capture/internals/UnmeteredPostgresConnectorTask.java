package io.tributary.ingest.capture.internals;

import io.debezium.connector.postgresql.PostgresConnectorTask;
import io.debezium.pipeline.ChangeEventSourceCoordinator;
import io.debezium.pipeline.EventDispatcher;
import io.debezium.pipeline.source.spi.DataChangeEventListener;
import java.lang.reflect.Field;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Debezium's Postgres connector task without its per-event streaming metrics: before each poll, the task's event
 * dispatcher is given Debezium's no-op listener in place of the streaming metrics the coordinator set when streaming
 * started. Everything else (decoding, the queue, offsets, heartbeats) is Debezium's own.
 *
 * <p>Why: for every change event those metrics format a summary of the whole event for their "last event" string
 * (through Jackson) and hand a lag measurement to a queue read by a thread of their own, waking it each time: a
 * quarter of the WAL decoding thread's CPU, plus that thread. Ingest reads none of them (it keeps its own counters
 * and lag); Debezium's other metrics (the queue's, the connection's, snapshots') stay as they are.
 *
 * <p>Debezium offers no setting for this: the task builds its metrics itself, and the dispatcher is reachable only
 * through a protected field of the coordinator, read by reflection. Should a Debezium version rename it, the task
 * logs that once and runs with Debezium's metrics: slower, never different
 * ({@code UnmeteredPostgresConnectorTaskTest} fails then, so an upgrade notices).
 */
public final class UnmeteredPostgresConnectorTask extends PostgresConnectorTask {

    private static final Logger LOG = LoggerFactory.getLogger(UnmeteredPostgresConnectorTask.class);
    private static final String DISPATCHER_FIELD = "eventDispatcher";
    private static final Optional<Field> DISPATCHER = dispatcherField();

    private boolean unreachable;

    /** Whether this Debezium version lets the task replace its streaming metrics (see the class documentation). */
    static boolean unmetered() {
        return DISPATCHER.isPresent();
    }

    @Override
    public List<SourceRecord> doPoll() throws InterruptedException {
        silenceMetrics();
        return super.doPoll();
    }

    /** Gives the dispatcher the no-op listener: every poll, as the coordinator sets its own when streaming starts. */
    private void silenceMetrics() {
        ChangeEventSourceCoordinator<?, ?> running = coordinator;
        if (running == null || DISPATCHER.isEmpty() || unreachable) {
            return;
        }
        try {
            ((EventDispatcher<?, ?>) DISPATCHER.get().get(running)).setEventListener(DataChangeEventListener.NO_OP());
        } catch (IllegalAccessException | RuntimeException e) {
            unreachable = true;
            LOG.warn("Debezium's event dispatcher cannot be reached ({}): its per-event streaming metrics stay on",
                e.toString());
        }
    }

    private static Optional<Field> dispatcherField() {
        try {
            Field field = ChangeEventSourceCoordinator.class.getDeclaredField(DISPATCHER_FIELD);
            if (!EventDispatcher.class.isAssignableFrom(field.getType())) {
                throw new NoSuchFieldException(DISPATCHER_FIELD + " is a " + field.getType().getName());
            }
            field.setAccessible(true);
            return Optional.of(field);
        } catch (NoSuchFieldException | RuntimeException e) {
            LOG.warn("This Debezium version's coordinator has no field {} ({}): its per-event streaming metrics stay"
                + " on", DISPATCHER_FIELD, e.toString());
            return Optional.empty();
        }
    }
}
