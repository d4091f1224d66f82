package io.tributary.stream;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.InvalidPidMappingException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.InvalidTxnStateException;
import org.apache.kafka.common.errors.OperationNotAttemptedException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.TransactionAbortableException;
import org.apache.kafka.common.errors.TransactionAbortedException;
import org.apache.kafka.common.errors.UnknownProducerIdException;
import org.apache.kafka.common.protocol.Errors;

/**
 * The one place that decides what a stream thread's failure means.
 *
 * <p>A transaction its coordinator aborted or fenced is redone: the coordinator aborted it after
 * {@code transaction.timeout.ms} (a stalled thread, a starved broker), bumped the producer's epoch, forgot its
 * producer id, or answers the commit with {@code INVALID_TXN_STATE} because it is aborting the transaction; or a
 * send of the transaction failed as not attempted, because another batch of the same produce request failed (a
 * topic deleted and created again under the running transaction), so the transaction can only be aborted; or an
 * offset commit of the transaction was answered that its producer id is not mapped to its transactional id (the
 * Kafka cluster replaced under it), which the client reports as an untyped {@link KafkaException} carrying
 * {@link Errors#INVALID_PRODUCER_ID_MAPPING}'s message. Kafka
 * discards everything the transaction wrote ({@code rows}, changelogs, consumed offsets), so replacing the thread
 * loses nothing and duplicates nothing: its tasks resume from their last committed offsets and state, exactly once.
 * Kafka Streams already redoes some of these itself (a fenced producer becomes a task migration); the rest reach
 * the uncaught exception handler, which asks here.
 *
 * <p>Anything else (a bug, an unreadable state store, a misrouted record) stops the instance, and so does a
 * redone transaction more than {@link #MAX_REDOS} times within {@link #REDO_WINDOW} (a cause that does not pass).
 * Thread-safe.
 */
final class ThreadFailures {

    /** What to do about a stream thread's failure. */
    enum Verdict {
        /** The thread's open transaction is gone: replace the thread, which redoes the work. */
        REDO,
        /** Stop this instance. */
        STOP
    }

    /** How many redone transactions {@link #REDO_WINDOW} allows before the instance stops. */
    static final int MAX_REDOS = 10;
    /** The window over which {@link #MAX_REDOS} counts. */
    static final Duration REDO_WINDOW = Duration.ofMinutes(5);

    private static final List<Class<? extends Throwable>> TRANSACTION_GONE = List.of(InvalidTxnStateException.class,
        ProducerFencedException.class, InvalidProducerEpochException.class, InvalidPidMappingException.class,
        UnknownProducerIdException.class, TransactionAbortableException.class, TransactionAbortedException.class,
        OperationNotAttemptedException.class);

    private final Deque<Long> redos = new ArrayDeque<>();

    /**
     * Whether {@code failure}'s cause chain says the thread's open transaction was aborted or fenced, or can only be
     * aborted.
     */
    static boolean transactionGone(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            for (Class<? extends Throwable> type : TRANSACTION_GONE) {
                if (type.isInstance(t)) {
                    return true;
                }
            }
            if (t.getClass() == KafkaException.class && t.getMessage() != null
                && t.getMessage().endsWith(Errors.INVALID_PRODUCER_ID_MAPPING.message())) {
                return true;
            }
        }
        return false;
    }

    /** Classifies {@code failure}, seen at {@code nanoTime} ({@link System#nanoTime()}), counting the redos. */
    synchronized Verdict classify(Throwable failure, long nanoTime) {
        if (!transactionGone(failure)) {
            return Verdict.STOP;
        }
        while (!redos.isEmpty() && nanoTime - redos.peekFirst() > REDO_WINDOW.toNanos()) {
            redos.removeFirst();
        }
        if (redos.size() >= MAX_REDOS) {
            return Verdict.STOP;
        }
        redos.addLast(nanoTime);
        return Verdict.REDO;
    }
}
