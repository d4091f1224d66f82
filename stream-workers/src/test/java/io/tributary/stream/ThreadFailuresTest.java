package io.tributary.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.stream.ThreadFailures.Verdict;
import io.tributary.stream.internals.StateFormatException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.InvalidTxnStateException;
import org.apache.kafka.common.errors.OperationNotAttemptedException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.streams.errors.StreamsException;
import org.junit.jupiter.api.Test;

class ThreadFailuresTest {

    private static final long MINUTE = 60_000_000_000L;

    @Test
    void aTransactionItsCoordinatorAbortedOrFencedIsRedone() {
        ThreadFailures failures = new ThreadFailures();
        assertThat(failures.classify(new StreamsException("Error encountered trying to commit a transaction",
            new InvalidTxnStateException("The producer attempted a transactional operation in an invalid state")), 0))
            .isEqualTo(Verdict.REDO);
        assertThat(failures.classify(new StreamsException(new KafkaException(new ProducerFencedException("fenced"))),
            1)).isEqualTo(Verdict.REDO);
    }

    @Test
    void aSendTheBrokerDidNotAttemptBecauseAnotherInItsRequestFailedIsRedone() {
        // As logged when `rows` was deleted and created again under a running transaction: the changelog's batch
        // shared a produce request with a batch for the deleted topic, and Kafka Streams failed the thread.
        ThreadFailures failures = new ThreadFailures();
        OperationNotAttemptedException notAttempted = new OperationNotAttemptedException("The broker did not"
            + " attempt to execute this operation. This may happen for batched RPCs where some operations in the"
            + " batch failed, causing the broker to respond without trying the rest.");
        assertThat(failures.classify(new StreamsException("Error encountered sending record to topic"
            + " app-merge-state-changelog for task 0_3 due to:\n" + notAttempted + "\nException handler choose to"
            + " FAIL the processing, no more records would be sent.", notAttempted), 0)).isEqualTo(Verdict.REDO);
    }

    @Test
    void anOffsetCommitAnsweredWithAProducerIdTheCoordinatorDoesNotMapIsRedone() {
        // As logged after the Kafka cluster was replaced under a running transaction: the client wraps the
        // TxnOffsetCommit answer INVALID_PRODUCER_ID_MAPPING in an untyped KafkaException
        ThreadFailures failures = new ThreadFailures();
        KafkaException unmapped = new KafkaException("Unexpected error in TxnOffsetCommitResponse: "
            + Errors.INVALID_PRODUCER_ID_MAPPING.message());
        assertThat(failures.classify(new StreamsException("Error encountered trying to commit a transaction",
            unmapped), 0)).isEqualTo(Verdict.REDO);
        assertThat(failures.classify(new StreamsException(new KafkaException("Unexpected error in"
            + " TxnOffsetCommitResponse: something else")), 0)).as("another untyped answer").isEqualTo(Verdict.STOP);
    }

    @Test
    void anyOtherFailureStopsTheInstance() {
        ThreadFailures failures = new ThreadFailures();
        assertThat(failures.classify(new StreamsException(new StateFormatException("unreadable")), 0))
            .isEqualTo(Verdict.STOP);
        assertThat(failures.classify(new StreamsException(new TimeoutException("timed out")), 0))
            .isEqualTo(Verdict.STOP);
        assertThat(failures.classify(new IllegalStateException("a bug"), 0)).isEqualTo(Verdict.STOP);
    }

    @Test
    void redosBeyondTheLimitWithinTheWindowStopTheInstance() {
        ThreadFailures failures = new ThreadFailures();
        Throwable aborted = new InvalidTxnStateException("aborted");
        for (int i = 0; i < ThreadFailures.MAX_REDOS; i++) {
            assertThat(failures.classify(aborted, i * MINUTE / 10)).isEqualTo(Verdict.REDO);
        }
        assertThat(failures.classify(aborted, MINUTE)).as("one more within the window").isEqualTo(Verdict.STOP);
        long later = ThreadFailures.REDO_WINDOW.toNanos() + 2 * MINUTE;
        assertThat(failures.classify(aborted, later)).as("after the window").isEqualTo(Verdict.REDO);
    }
}
