package io.tributary.launcher.badinput;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.launcher.Main;
import io.tributary.launcher.run.StorageContents;
import io.tributary.launcher.run.TestConfigFile;
import io.tributary.storage.groups.GroupState;
import io.tributary.storage.groups.SyncRulesGroup;
import io.tributary.storage.groups.SyncRulesGroups;
import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.TestServices;
import io.tributary.topics.TopicLayout;
import io.tributary.topics.TopicNames;
import io.tributary.topics.TopicRole;
import io.tributary.topics.provision.TopicProvisioner;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * One deployment for a bad-input test: a fresh source and storage database, a unique topic prefix, a config file
 * and {@code tributary run --until-caught-up} in-process (bounded: a run that never catches up fails the test
 * instead of hanging it). Helpers put poison on the topics and read the dead letters back.
 */
final class BadInputPipeline {

    /** Partitions of the co-partitioned topics. */
    static final int PARTITIONS = 4;
    /** The layout {@code run} provisions with {@link #PARTITIONS}. */
    static final TopicLayout LAYOUT = TopicLayout.of(PARTITIONS, 8, (short) 1);
    private static final Duration RUN_LIMIT = Duration.ofSeconds(150);

    final TestServices services;
    final PostgresDatabase source;
    final PostgresDatabase storage;
    final TopicNames topics;
    private final Path rules;
    private final Path config;

    private BadInputPipeline(TestServices services, Path dir) throws Exception {
        this.services = services;
        this.source = services.newDatabase();
        this.storage = services.newDatabase();
        this.topics = TopicNames.withPrefix(services.topicPrefix());
        this.rules = dir.resolve("rules.yaml");
        this.config = TestConfigFile.write(dir, services, source, storage, rules, PARTITIONS, 100);
    }

    /** A deployment in {@code dir} serving {@code syncRules}. */
    static BadInputPipeline create(TestServices services, Path dir, String syncRules) throws Exception {
        BadInputPipeline pipeline = new BadInputPipeline(services, dir);
        Files.writeString(pipeline.rules, syncRules);
        return pipeline;
    }

    /** What one {@code run} printed and returned. */
    record Result(int code, String out) {
    }

    /** {@code tributary run --until-caught-up}; fails the test if it does not return within a bounded time. */
    Result runUntilCaughtUp() throws Exception {
        return command("run", "--config", config.toString(), "--until-caught-up");
    }

    /**
     * {@code tributary run --config ...} (until stopped) on a thread of its own; closing the handle stops it the way
     * SIGTERM does (the pipeline hands its work back) and waits for that.
     */
    Background runInBackground() {
        StringWriter out = new StringWriter();
        ExecutorService executor = Executors.newSingleThreadExecutor();
        Future<Integer> code = executor.submit(() -> Main.execute(new PrintWriter(out, true),
            new PrintWriter(out, true), "run", "--config", config.toString()));
        return new Background(executor, code, out);
    }

    /** A {@code run} started by {@link #runInBackground()}. */
    record Background(ExecutorService executor, Future<Integer> code, StringWriter out) implements AutoCloseable {

        /** Whether the run has returned (an exit, which a test of a running pipeline fails on). */
        boolean exited() {
            return code.isDone();
        }

        @Override
        public void close() throws InterruptedException {
            code.cancel(true);
            executor.shutdownNow();
            if (!executor.awaitTermination(60, TimeUnit.SECONDS)) {
                throw new AssertionError("tributary run did not stop within 60 s; output:\n" + out);
            }
        }
    }

    /** {@code tributary status --config ...} (text). */
    Result status() throws Exception {
        return command("status", "--config", config.toString());
    }

    /** {@code tributary resnapshot --config ... SCHEMA TABLE}. */
    Result resnapshot(String schema, String table) throws Exception {
        return command("resnapshot", "--config", config.toString(), schema, table);
    }

    private static Result command(String... args) throws Exception {
        StringWriter out = new StringWriter();
        ExecutorService executor = Executors.newSingleThreadExecutor();
        try {
            Future<Integer> code = executor.submit(
                () -> Main.execute(new PrintWriter(out, true), new PrintWriter(out, true), args));
            try {
                return new Result(code.get(RUN_LIMIT.toSeconds(), TimeUnit.SECONDS), out.toString());
            } catch (TimeoutException e) {
                code.cancel(true);
                throw new AssertionError("tributary " + String.join(" ", args) + " did not finish within "
                    + RUN_LIMIT + "; output:\n" + out, e);
            }
        } finally {
            executor.shutdownNow();
            executor.awaitTermination(60, TimeUnit.SECONDS);
        }
    }

    /**
     * Raises Kafka's message size limits to {@code bytes}, as docs/deployment.md tells an operator to: the topics'
     * {@code max.message.bytes} and the clients' {@code max.request.size} and {@code buffer.memory}.
     */
    void raiseKafkaLimits(int bytes) throws Exception {
        List<AlterConfigOp> ops = List.of(new AlterConfigOp(
            new ConfigEntry(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, Integer.toString(bytes)), AlterConfigOp.OpType.SET));
        Map<ConfigResource, Collection<AlterConfigOp>> alter = new HashMap<>();
        for (String topic : List.of(topics.changes(), topics.snapshotRows(), topics.rows())) {
            alter.put(new ConfigResource(ConfigResource.Type.TOPIC, topic), ops);
        }
        try (Admin admin = Admin.create(services.kafkaProperties())) {
            admin.incrementalAlterConfigs(alter).all().get();
        }
        String yaml = Files.readString(config);
        Files.writeString(config, yaml.replace("  partitions: " + PARTITIONS + "\n", "  partitions: " + PARTITIONS
            + "\n  properties:\n    max.request.size: " + bytes + "\n    buffer.memory: " + 2L * bytes + "\n"));
    }

    /** Creates the topics the way {@code run} does, so poison can be put on them before the first run. */
    void provisionTopics() {
        try (Admin admin = Admin.create(services.kafkaProperties())) {
            TopicProvisioner.ensure(admin, topics, LAYOUT);
        }
    }

    /** Sends {@code poison} to every partition of the topic of {@code role}; waits for Kafka's acknowledgement. */
    void poisonEveryPartition(TopicRole role, List<Poison> poison) throws Exception {
        String topic = topics.name(role);
        int partitions = LAYOUT.partitionsOf(role);
        Properties props = services.kafkaProperties();
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props)) {
            for (int p = 0; p < partitions; p++) {
                for (Poison record : poison) {
                    producer.send(new ProducerRecord<>(topic, p, record.key(), record.value())).get();
                }
            }
        }
    }

    /** Every record on {@code dead-letters} so far, waiting until at least {@code atLeast} arrived. */
    List<ConsumerRecord<byte[], byte[]>> deadLetters(int atLeast) {
        Properties props = services.kafkaProperties();
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<ConsumerRecord<byte[], byte[]>> letters = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
            List<TopicPartition> partitions = consumer.partitionsFor(topics.deadLetters()).stream()
                .map(info -> new TopicPartition(info.topic(), info.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (letters.size() < atLeast && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(letters::add);
            }
            consumer.poll(Duration.ofSeconds(1)).forEach(letters::add);
        }
        return letters;
    }

    /** Asserts that the newest group is ACTIVE and serves exactly {@code expected}. */
    void assertServes(Map<String, StorageContents.Bucket> expected) throws Exception {
        assertThat(expected).isNotEmpty();
        try (Connection c = storage.connect()) {
            List<SyncRulesGroup> groups = SyncRulesGroups.list(c);
            SyncRulesGroup newest = groups.get(groups.size() - 1);
            assertThat(newest.state()).isEqualTo(GroupState.ACTIVE);
            assertThat(StorageContents.served(c, newest.id())).isEqualTo(expected);
        }
    }

    /** The rules {@code syncRules} evaluated directly over the source. */
    Map<String, StorageContents.Bucket> expected(String syncRules) throws Exception {
        try (Connection c = source.connect()) {
            return StorageContents.expected(c, syncRules);
        }
    }

    /** The directory of the config file. */
    Path dir() {
        return config.getParent();
    }

    /** A record to put on a topic: bytes no stage can decode. */
    record Poison(byte[] key, byte[] value) {
    }
}
