package io.tributary.writer.internals;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.sql.SQLException;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;

class FailuresTest {

    @Test
    void serializationFailuresAndDeadlocksAreRetriable() {
        assertThat(Failures.classify(new SQLException("x", "40001"))).isEqualTo(FailureKind.RETRIABLE);
        assertThat(Failures.classify(new SQLException("x", "40P01"))).isEqualTo(FailureKind.RETRIABLE);
    }

    @Test
    void connectionFailuresAndServerRestartsAreRetriable() {
        assertThat(Failures.classify(new SQLException("x", "08006"))).isEqualTo(FailureKind.RETRIABLE);
        assertThat(Failures.classify(new SQLException("x", "57P01"))).isEqualTo(FailureKind.RETRIABLE);
        assertThat(Failures.classify(new SQLException("x", "57P03"))).isEqualTo(FailureKind.RETRIABLE);
    }

    @Test
    void socketErrorsWithoutStateAreRetriable() {
        assertThat(Failures.classify(new SQLException("io", null, new IOException("reset"))))
            .isEqualTo(FailureKind.RETRIABLE);
        assertThat(Failures.classify(new TimeoutException("kafka"))).isEqualTo(FailureKind.RETRIABLE);
    }

    @Test
    void authenticationSchemaAndConstraintFailuresAreFatal() {
        assertThat(Failures.classify(new SQLException("x", "28P01"))).isEqualTo(FailureKind.FATAL);
        assertThat(Failures.classify(new SQLException("x", "42P01"))).isEqualTo(FailureKind.FATAL);
        assertThat(Failures.classify(new SQLException("x", "23505"))).isEqualTo(FailureKind.FATAL);
    }

    @Test
    void theFirstStateInTheCauseChainDecides() {
        SQLException outer = new SQLException("batch failed", null, new SQLException("inner", "40001"));
        assertThat(Failures.classify(new RuntimeException(outer))).isEqualTo(FailureKind.RETRIABLE);
    }

    @Test
    void unknownFailuresAreFatal() {
        assertThat(Failures.classify(new IllegalStateException("bug"))).isEqualTo(FailureKind.FATAL);
    }
}
