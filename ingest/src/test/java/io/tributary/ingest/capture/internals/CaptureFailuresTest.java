package io.tributary.ingest.capture.internals;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.ingest.capture.KafkaPermissionException;
import io.tributary.ingest.capture.UnavailableValueException;
import io.tributary.ingest.capture.WalLevelException;
import io.tributary.source.catalog.MissingPrimaryKeyException;
import io.tributary.topics.messages.TableId;
import java.sql.SQLException;
import java.util.OptionalInt;
import java.util.Set;
import org.apache.kafka.common.errors.InvalidTxnStateException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.junit.jupiter.api.Test;

class CaptureFailuresTest {

    @Test
    void slotActiveForAnotherProcessMeansStandbyAndNamesThePid() {
        RuntimeException error = new RuntimeException("Failed to start replication stream",
            new SQLException("ERROR: replication slot \"tributary\" is active for PID 4711", "55006"));

        assertThat(CaptureFailures.classify(error)).isEqualTo(CaptureFailures.Verdict.SLOT_IN_USE);
        assertThat(CaptureFailures.slotHolder(error)).isEqualTo(OptionalInt.of(4711));
    }

    @Test
    void setupAndSchemaProblemsAreFatal() {
        assertThat(CaptureFailures.classify(new WalLevelException("replica"))).isEqualTo(CaptureFailures.Verdict.FATAL);
        assertThat(CaptureFailures.classify(new IllegalStateException("wrapped",
            new MissingPrimaryKeyException(TableId.of("public", "t"))))).isEqualTo(CaptureFailures.Verdict.FATAL);
        assertThat(CaptureFailures.classify(new UnavailableValueException(TableId.of("public", "t"), Set.of("c"))))
            .isEqualTo(CaptureFailures.Verdict.FATAL);
    }

    @Test
    void authenticationFailureIsFatal() {
        assertThat(CaptureFailures.classify(new RuntimeException(new SQLException("password authentication failed",
            "28P01")))).isEqualTo(CaptureFailures.Verdict.FATAL);
    }

    @Test
    void connectionLossIsRetriable() {
        assertThat(CaptureFailures.classify(new RuntimeException(new SQLException("Connection refused", "08001"))))
            .isEqualTo(CaptureFailures.Verdict.RETRIABLE);
    }

    @Test
    void anExistingSlotDebeziumTriedToCreateAfterAConnectionDropIsRetriable() {
        assertThat(CaptureFailures.classify(new RuntimeException("Creation of replication slot failed",
            new SQLException("ERROR: replication slot \"chaos_1\" already exists", "42710"))))
            .isEqualTo(CaptureFailures.Verdict.RETRIABLE);
    }

    @Test
    void aChangeTooLargeForKafkaIsFatalBecauseEveryRestartWouldFailOnIt() {
        assertThat(CaptureFailures.classify(new ChangesDeliveryException("not acknowledged",
            new RecordTooLargeException("The message is 52429049 bytes")))).isEqualTo(CaptureFailures.Verdict.FATAL);
    }

    @Test
    void aTransactionalIdKafkaRefusesIsFatalNamingTheIdAndTheAclToGrant() {
        RuntimeException refused = new IllegalStateException("Could not open the changes producer",
            new TransactionalIdAuthorizationException("Transactional Id authorization failed."));

        assertThat(CaptureFailures.classify(refused)).isEqualTo(CaptureFailures.Verdict.FATAL);
        assertThat(CaptureFailures.reported(refused, "tributary.ingest-main"))
            .isInstanceOfSatisfying(KafkaPermissionException.class, e -> {
                assertThat(e.transactionalId()).isEqualTo("tributary.ingest-main");
                assertThat(e.getMessage()).contains("--transactional-id 'tributary.ingest-main'",
                    "--operation Write", "--operation Describe");
            });
    }

    @Test
    void aTopicKafkaRefusesIsFatal() {
        assertThat(CaptureFailures.classify(new ChangesDeliveryException("not acknowledged",
            new TopicAuthorizationException("Not authorized to access topics: [changes]"))))
            .isEqualTo(CaptureFailures.Verdict.FATAL);
    }

    @Test
    void kafkaFailuresAreRetriable() {
        assertThat(CaptureFailures.classify(
            new ChangesDeliveryException("not acknowledged", new TimeoutException("t"))))
            .isEqualTo(CaptureFailures.Verdict.RETRIABLE);
    }

    /** The engine restarts from the source offsets committed with the last committed transaction. */
    @Test
    void aTransactionItsCoordinatorAbortedOrFencedIsRetriable() {
        assertThat(CaptureFailures.classify(new ChangesDeliveryException("Committing a transaction failed",
            new InvalidTxnStateException("The producer attempted a transactional operation in an invalid state"))))
            .isEqualTo(CaptureFailures.Verdict.RETRIABLE);
        assertThat(CaptureFailures.classify(new ChangesDeliveryException("Committing a transaction failed",
            new ProducerFencedException("fenced")))).isEqualTo(CaptureFailures.Verdict.RETRIABLE);
    }
}
