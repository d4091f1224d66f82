package io.tributary.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

@RealServices
class RealServicesIT {

    @Test
    void kafkaRoundTripsThroughTheBroker(TestServices services) throws Exception {
        String topic = services.topicPrefix() + "probe";
        try (Admin admin = Admin.create(services.kafkaProperties())) {
            admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        Properties producerProps = services.kafkaProperties();
        producerProps.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<String, String> producer =
                 new KafkaProducer<>(producerProps, new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < 10; i++) {
                producer.send(new ProducerRecord<>(topic, "k" + i, "v" + i)).get();
            }
        }
        Properties consumerProps = services.kafkaProperties();
        consumerProps.put(ConsumerConfig.GROUP_ID_CONFIG, services.uniqueName("group"));
        consumerProps.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer =
                 new KafkaConsumer<>(consumerProps, new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (values.size() < 10 && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    values.add(record.value());
                }
            }
        }
        assertThat(values).containsExactlyInAnyOrder("v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9");
    }

    @Test
    void postgresDecodesChangesWithPgoutput(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        db.execute(
            "CREATE TABLE items (id int PRIMARY KEY, name text)",
            "CREATE PUBLICATION probe_pub FOR TABLE items",
            "SELECT pg_create_logical_replication_slot('probe_slot', 'pgoutput')",
            "INSERT INTO items VALUES (1, 'one')",
            "INSERT INTO items VALUES (2, 'two')");
        try (Connection c = db.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_logical_slot_peek_binary_changes("
                 + "'probe_slot', NULL, NULL, 'proto_version', '1', 'publication_names', 'probe_pub')")) {
            rs.next();
            // BEGIN, RELATION, INSERT, COMMIT
            assertThat(rs.getInt(1)).isGreaterThanOrEqualTo(4);
        } finally {
            db.execute("SELECT pg_drop_replication_slot('probe_slot')");
        }
    }

    @Test
    void eachTestGetsItsOwnNames(TestServices services) {
        assertThat(services.uniqueName("orders")).isNotEqualTo(services.uniqueName("orders"));
        assertThat(services.newDatabase().name()).isNotEqualTo(services.newDatabase().name());
    }
}
