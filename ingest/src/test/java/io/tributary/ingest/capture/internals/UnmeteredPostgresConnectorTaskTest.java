package io.tributary.ingest.capture.internals;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class UnmeteredPostgresConnectorTaskTest {

    @Test
    void thisDebeziumVersionLetsTheTaskReplaceItsStreamingMetrics() {
        assertThat(UnmeteredPostgresConnectorTask.unmetered()).isTrue();
    }

    @Test
    void theConnectorRunsTheUnmeteredTask() {
        assertThat(new UnmeteredPostgresConnector().taskClass()).isEqualTo(UnmeteredPostgresConnectorTask.class);
    }
}
