package io.tributary.stream.simulation;

import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.TestServices;
import io.tributary.topics.TopicLayout;
import io.tributary.topics.TopicNames;
import io.tributary.topics.provision.TopicProvisioner;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Everything around the stream workers in an integration test: provisioned topics, a source database with the
 * {@code items} table, the capture into {@code changes}, a chunk reader into {@code snapshot-rows} and a reader
 * of {@code rows}.
 */
public final class Simulation implements AutoCloseable {

    /** Co-partitioned partition count of the test deployment. */
    public static final int PARTITIONS = 4;

    public final TopicNames names;
    public final PostgresDatabase db;
    public final LogicalCapture capture;
    public final RowsTopicReader rows;
    private final KafkaProducer<byte[], byte[]> captureProducer;
    private final KafkaProducer<byte[], byte[]> snapshotProducer;

    private Simulation(TopicNames names, PostgresDatabase db, LogicalCapture capture, RowsTopicReader rows,
                       KafkaProducer<byte[], byte[]> captureProducer, KafkaProducer<byte[], byte[]> snapshotProducer) {
        this.names = names;
        this.db = db;
        this.capture = capture;
        this.rows = rows;
        this.captureProducer = captureProducer;
        this.snapshotProducer = snapshotProducer;
    }

    /** Provisions the topics, creates {@code items} with {@code initialRows} rows, starts capture and reader. */
    public static Simulation start(TestServices services, int initialRows) throws SQLException {
        TopicNames names = TopicNames.withPrefix(services.topicPrefix());
        try (Admin admin = Admin.create(services.kafkaProperties())) {
            TopicProvisioner.ensure(admin, names, TopicLayout.of(PARTITIONS, 1, (short) 1));
        }
        PostgresDatabase db = services.newDatabase();
        ItemsTable.create(db, initialRows);
        KafkaProducer<byte[], byte[]> captureProducer = producer(services.kafkaProperties());
        KafkaProducer<byte[], byte[]> snapshotProducer = producer(services.kafkaProperties());
        LogicalCapture capture = LogicalCapture.start(db, captureProducer, names, PARTITIONS);
        RowsTopicReader rows = RowsTopicReader.start(services.kafkaProperties(), names, PARTITIONS);
        return new Simulation(names, db, capture, rows, captureProducer, snapshotProducer);
    }

    /** A chunk reader of window {@code windowId}: {@code chunks} chunks of {@code chunkSize} ids. */
    public ChunkReader chunkReader(String windowId, int chunkSize, int chunks) {
        return new ChunkReader(db, capture, snapshotProducer, names, PARTITIONS, windowId, chunkSize, chunks);
    }

    /**
     * Kafka settings of the stream workers under test: the broker, and failure detection and transaction timeouts
     * short enough for a killed worker's partitions to move within seconds.
     */
    public static Map<String, Object> workerSettings(String bootstrapServers) {
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("bootstrap.servers", bootstrapServers);
        settings.put("consumer.session.timeout.ms", "6000");
        settings.put("consumer.heartbeat.interval.ms", "1000");
        settings.put("producer.transaction.timeout.ms", "5000");
        return settings;
    }

    private static KafkaProducer<byte[], byte[]> producer(Properties kafka) {
        Properties properties = new Properties();
        properties.putAll(kafka);
        properties.put(ProducerConfig.ACKS_CONFIG, "all");
        properties.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        return new KafkaProducer<>(properties, new ByteArraySerializer(), new ByteArraySerializer());
    }

    @Override
    public void close() throws Exception {
        try (captureProducer; snapshotProducer; rows) {
            capture.close();
        }
    }
}
