package io.tributary.snapshot.internals;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.source.catalog.TableNotFoundException;
import io.tributary.topics.messages.TableId;
import java.sql.SQLException;
import java.util.concurrent.CompletionException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;

class FailuresTest {

    @Test
    void aLostSourceConnectionIsRetriable() {
        assertThat(Failures.classifyRead(new SQLException("closed", "08006"))).isEqualTo(FailureKind.RETRIABLE);
    }

    @Test
    void aMissingTableOrPermissionFailsTheTable() {
        assertThat(Failures.classifyRead(new SQLException("missing", "42P01"))).isEqualTo(FailureKind.TABLE);
        assertThat(Failures.classifyRead(new SQLException("denied", "42501"))).isEqualTo(FailureKind.TABLE);
        assertThat(Failures.classifyRead(new TableNotFoundException(TableId.of("a", "b"), "does not exist")))
            .isEqualTo(FailureKind.TABLE);
    }

    @Test
    void anOversizedRowFailsTheTableAndAKafkaTimeoutIsRetriable() {
        assertThat(Failures.classifyRead(new CompletionException(new RecordTooLargeException("big"))))
            .isEqualTo(FailureKind.TABLE);
        assertThat(Failures.classifyRead(new TimeoutException("slow"))).isEqualTo(FailureKind.RETRIABLE);
    }

    @Test
    void aBrokenProducerStopsTheWorker() {
        assertThat(Failures.classifyRead(new KafkaException("closed"))).isEqualTo(FailureKind.WORKER);
    }
}
