package io.tributary.ingest.capture.internals;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.json.JsonConverterConfig;
import org.apache.kafka.connect.runtime.WorkerConfig;
import org.apache.kafka.connect.storage.KafkaOffsetBackingStore;
import org.apache.kafka.connect.util.TopicAdmin;

/**
 * Kafka Connect's offset store on the {@code ingest-offsets} topic, with its topic admin built from the whole
 * client configuration (security settings included) and closed when the store stops. Debezium's own wiring of
 * {@link KafkaOffsetBackingStore} passes only {@code bootstrap.servers} to a shared admin it never closes (one
 * leaked admin client per engine run, and none that can reach a secured cluster). Debezium instantiates this class
 * by name ({@code offset.storage}); not for direct use.
 */
public final class IngestOffsetStore extends KafkaOffsetBackingStore {

    private final AtomicReference<TopicAdmin> admin;
    private final AtomicReference<Map<String, Object>> adminConfig;

    public IngestOffsetStore() {
        this(new AtomicReference<>(), new AtomicReference<>());
    }

    private IngestOffsetStore(AtomicReference<TopicAdmin> admin, AtomicReference<Map<String, Object>> adminConfig) {
        super(() -> admin.updateAndGet(current -> current != null ? current : new TopicAdmin(adminConfig.get())),
            () -> "tributary-ingest-offsets", keyConverter());
        this.admin = admin;
        this.adminConfig = adminConfig;
    }

    private static JsonConverter keyConverter() {
        JsonConverter converter = new JsonConverter();
        converter.configure(Map.of(JsonConverterConfig.SCHEMAS_ENABLE_CONFIG, "false"), true);
        return converter;
    }

    @Override
    public void configure(WorkerConfig config) {
        Map<String, Object> props = new HashMap<>();
        for (Map.Entry<String, Object> entry : config.originals().entrySet()) {
            if (AdminClientConfig.configNames().contains(entry.getKey())) {
                props.put(entry.getKey(), entry.getValue());
            }
        }
        props.put(CommonClientConfigs.CLIENT_ID_CONFIG, "tributary-ingest-offsets-admin");
        adminConfig.set(props);
        super.configure(config);
    }

    @Override
    public void stop() {
        try {
            super.stop();
        } finally {
            TopicAdmin current = admin.getAndSet(null);
            if (current != null) {
                current.close(Duration.ofSeconds(5));
            }
        }
    }
}
