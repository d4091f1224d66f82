package io.tributary.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedServicesIT {

    @Test
    void postgresStartsWithLogicalReplication() throws Exception {
        try (EmbeddedPostgres postgres = EmbeddedPostgres.start()) {
            postgres.createDatabase("probe");
            try (Connection c = DriverManager.getConnection(postgres.jdbcUrl("probe"), postgres.superuser(), "");
                 Statement s = c.createStatement()) {
                try (ResultSet rs = s.executeQuery("SHOW wal_level")) {
                    rs.next();
                    assertThat(rs.getString(1)).isEqualTo("logical");
                }
                try (ResultSet rs = s.executeQuery(
                    "SELECT lsn FROM pg_create_logical_replication_slot('probe_slot', 'pgoutput')")) {
                    assertThat(rs.next()).isTrue();
                }
                s.execute("SELECT pg_drop_replication_slot('probe_slot')");
            }
        }
    }

    @Test
    void kafkaStartsAndCreatesTopics() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            Properties props = new Properties();
            props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
            try (Admin admin = Admin.create(props)) {
                admin.createTopics(List.of(new NewTopic("probe", 3, (short) 1)
                    .configs(Map.of("cleanup.policy", "compact")))).all().get(30, TimeUnit.SECONDS);
                assertThat(admin.describeTopics(List.of("probe")).allTopicNames().get(30, TimeUnit.SECONDS)
                    .get("probe").partitions()).hasSize(3);
            }
        }
        assertThat(Duration.ZERO).isZero();
    }

    @Test
    void kafkaRestartedOnItsDataDirectoryIsTheSameClusterWithItsRecords(@TempDir Path data) throws Exception {
        String clusterId;
        String topicId;
        try (EmbeddedKafka kafka = EmbeddedKafka.start(Optional.of(data))) {
            try (Admin admin = Admin.create(clientProperties(kafka))) {
                admin.createTopics(List.of(new NewTopic("kept", 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
                clusterId = admin.describeCluster().clusterId().get(30, TimeUnit.SECONDS);
                topicId = admin.describeTopics(List.of("kept")).allTopicNames().get(30, TimeUnit.SECONDS)
                    .get("kept").topicId().toString();
            }
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(clientProperties(kafka),
                new StringSerializer(), new StringSerializer())) {
                producer.send(new ProducerRecord<>("kept", "k", "v")).get(30, TimeUnit.SECONDS);
            }
        }
        try (EmbeddedKafka kafka = EmbeddedKafka.start(Optional.of(data));
             Admin admin = Admin.create(clientProperties(kafka))) {
            assertThat(admin.describeCluster().clusterId().get(30, TimeUnit.SECONDS)).isEqualTo(clusterId);
            assertThat(admin.describeTopics(List.of("kept")).allTopicNames().get(30, TimeUnit.SECONDS).get("kept")
                .topicId().toString()).isEqualTo(topicId);
            TopicPartition partition = new TopicPartition("kept", 0);
            assertThat(admin.listOffsets(Map.of(partition, OffsetSpec.latest())).all().get(30, TimeUnit.SECONDS)
                .get(partition).offset()).isEqualTo(1);
        }
    }

    private static Properties clientProperties(EmbeddedKafka kafka) {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        return props;
    }
}
