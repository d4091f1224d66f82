package io.tributary.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.topics.TopicNames;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

class StreamWorkerConfigTest {

    private static final Map<String, Object> KAFKA = Map.of("bootstrap.servers", "broker:9092");
    private static final TopicNames NAMES = TopicNames.withPrefix("prod.");

    @Test
    void processingIsExactlyOnceV2() {
        Properties properties = new StreamWorkerConfig(KAFKA, NAMES, Path.of("state"), 2).streamsProperties();

        assertThat(properties.get(StreamsConfig.PROCESSING_GUARANTEE_CONFIG)).isEqualTo(StreamsConfig.EXACTLY_ONCE_V2);
        assertThat(properties.get(StreamsConfig.NUM_STREAM_THREADS_CONFIG)).isEqualTo(2);
        assertThat(properties.get("bootstrap.servers")).isEqualTo("broker:9092");
    }

    @Test
    void tunedDefaultsApplyUnlessTheKafkaSettingsOverrideThem() {
        Properties defaults = new StreamWorkerConfig(KAFKA, NAMES, Path.of("state"), 1).streamsProperties();
        Properties overridden = new StreamWorkerConfig(Map.of("bootstrap.servers", "b:9092",
            StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, 0L), NAMES, Path.of("state"), 1).streamsProperties();

        assertThat(defaults.get(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG)).isEqualTo(-1L);
        assertThat(defaults.get("producer.batch.size")).isEqualTo(512 * 1024);
        assertThat(defaults.get(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG)).isEqualTo(1_000L);
        assertThat(defaults.get("producer.retry.backoff.ms")).isEqualTo(20L);
        assertThat(defaults.get("main.consumer.heartbeat.interval.ms")).isEqualTo(500);
        assertThat(defaults.get("restore.consumer.fetch.max.wait.ms")).isEqualTo(20);
        assertThat(defaults.get("processing.exception.handler.global.enabled")).isEqualTo(true);
        assertThat(overridden.get(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG)).isEqualTo(0L);
    }

    @Test
    void applicationIdIsTheTopicPrefixFollowedByStreamWorkers() {
        StreamWorkerConfig config = new StreamWorkerConfig(KAFKA, NAMES, Path.of("state"), 1);

        assertThat(config.applicationId()).isEqualTo("prod.stream-workers");
        assertThat(config.streamsProperties().get(StreamsConfig.APPLICATION_ID_CONFIG))
            .isEqualTo("prod.stream-workers");
    }

    @Test
    void kafkaSettingsMayNotOverrideTheGuarantee() {
        Map<String, Object> kafka = Map.of("bootstrap.servers", "b:9092",
            StreamsConfig.PROCESSING_GUARANTEE_CONFIG, "at_least_once");

        assertThatThrownBy(() -> new StreamWorkerConfig(kafka, NAMES, Path.of("state"), 1))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("processing.guarantee");
    }

    @Test
    void bootstrapServersAreRequired() {
        assertThatThrownBy(() -> new StreamWorkerConfig(Map.of(), NAMES, Path.of("state"), 1))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("bootstrap.servers");
    }

    @Test
    void atLeastOneThreadIsRequired() {
        assertThatThrownBy(() -> new StreamWorkerConfig(KAFKA, NAMES, Path.of("state"), 0))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least one thread");
    }
}
