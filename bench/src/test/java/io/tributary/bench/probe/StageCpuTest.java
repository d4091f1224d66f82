package io.tributary.bench.probe;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.bench.probe.StageCpu.Stage;
import org.junit.jupiter.api.Test;

class StageCpuTest {

    @Test
    void ingestsDecodingThreadsAreApartFromItsHandlerAndProducer() {
        assertThat(Stage.of("debezium-postgresconnector-tributary_ingest-change-event-source-coordinator"))
            .isEqualTo(Stage.INGEST_DECODING);
        assertThat(Stage.of("debezium-postgresconnector-tributary_ingest-keep-alive"))
            .isEqualTo(Stage.INGEST_DECODING);
        assertThat(Stage.of("pool-8-thread-1")).isEqualTo(Stage.INGEST);
        assertThat(Stage.of("kafka-producer-network-thread | tributary-ingest-bench_s-changes"))
            .isEqualTo(Stage.INGEST);
        assertThat(Stage.of("tributary-ingest-supervisor-bench_s")).isEqualTo(Stage.INGEST);
    }

    @Test
    void theOtherStagesKeepTheirThreads() {
        assertThat(Stage.of("bench_s.stream-workers-5f1-StreamThread-1")).isEqualTo(Stage.STREAM_WORKERS);
        assertThat(Stage.of("kafka-producer-network-thread | bench_s.stream-workers-5f1-StreamThread-1-producer"))
            .isEqualTo(Stage.STREAM_WORKERS);
        assertThat(Stage.of("bench_s.storage-writer-g1-0-poll")).isEqualTo(Stage.STORAGE_WRITERS);
        assertThat(Stage.of("data-plane-kafka-request-handler-0")).isEqualTo(Stage.BROKER);
        assertThat(Stage.of("bench-checkpoint-watch")).isEqualTo(Stage.BENCH);
        assertThat(Stage.of("main")).isEqualTo(Stage.OTHER);
    }
}
