package io.tributary.chaos.services;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.CommonClientConfigs;
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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RestartableKafkaIT {

    @TempDir
    static Path directory;
    private static RestartableKafka kafka;

    @BeforeAll
    static void startBroker() {
        kafka = RestartableKafka.create(directory);
    }

    @AfterAll
    static void stopBroker() {
        kafka.close();
    }

    @Test
    void aGracefulRestartKeepsRecordsOnTheSameAddress() throws Exception {
        String topic = "graceful";
        createTopic(topic);
        String bootstrap = kafka.bootstrapServers();
        try (KafkaProducer<String, String> producer = producer()) {
            send(producer, topic, 0, 50);
        }
        kafka.stop();
        assertThat(kafka.isRunning()).isFalse();
        kafka.start();
        assertThat(kafka.bootstrapServers()).isEqualTo(bootstrap);
        assertThat(readAll(topic, 50)).hasSize(50);
    }

    @Test
    void aKilledBrokerComesBackWithItsAcknowledgedRecordsAndClientsReconnect() throws Exception {
        String topic = "killed";
        createTopic(topic);
        try (KafkaProducer<String, String> producer = producer()) {
            send(producer, topic, 0, 50);
            kafka.kill();
            kafka.start();
            send(producer, topic, 50, 100);
        }
        List<String> values = readAll(topic, 100);
        assertThat(values).hasSize(100).doesNotHaveDuplicates();
    }

    @Test
    void aBrokerReplacedWithANewClusterAnswersOnTheSameAddressWithANewClusterIdAndNoTopics() throws Exception {
        String topic = "replaced";
        createTopic(topic);
        String before = clusterId();
        String bootstrap = kafka.bootstrapServers();
        String after = kafka.replaceWithNewCluster();
        assertThat(kafka.bootstrapServers()).isEqualTo(bootstrap);
        assertThat(clusterId()).isEqualTo(after).isNotEqualTo(before);
        try (Admin admin = Admin.create(properties())) {
            assertThat(admin.listTopics().names().get(30, TimeUnit.SECONDS)).doesNotContain(topic);
        }
        createTopic(topic);
        try (KafkaProducer<String, String> producer = producer()) {
            send(producer, topic, 0, 10);
        }
        assertThat(readAll(topic, 10)).hasSize(10);
    }

    private static String clusterId() throws Exception {
        try (Admin admin = Admin.create(properties())) {
            return admin.describeCluster().clusterId().get(30, TimeUnit.SECONDS);
        }
    }

    private static void createTopic(String topic) throws Exception {
        try (Admin admin = Admin.create(properties())) {
            admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
    }

    private static void send(KafkaProducer<String, String> producer, String topic, int from, int to)
        throws Exception {
        for (int i = from; i < to; i++) {
            producer.send(new ProducerRecord<>(topic, "k" + i, "v" + i)).get(60, TimeUnit.SECONDS);
        }
    }

    private static KafkaProducer<String, String> producer() {
        Properties props = properties();
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "60000");
        return new KafkaProducer<>(props, new StringSerializer(), new StringSerializer());
    }

    private static List<String> readAll(String topic, int expected) {
        Properties props = properties();
        props.put(ConsumerConfig.GROUP_ID_CONFIG, topic + "-reader");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer =
                 new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (values.size() < expected && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    values.add(record.value());
                }
            }
        }
        return values;
    }

    private static Properties properties() {
        Properties props = new Properties();
        props.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        return props;
    }
}
