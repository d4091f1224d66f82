package io.tributary.embedded;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A single-node Kafka (KRaft, combined broker and controller) running inside this JVM.
 *
 * <p>Used by the launcher's embedded default and by tests when no Docker engine and no external broker is
 * available. It is a real broker on a loopback port: clients talk to it over the network exactly as to any
 * other cluster. Replication factors of the internal topics are 1, so consumer groups and transactions work
 * with one node.
 *
 * <p>Thread-safe; {@link #close()} stops the broker and, unless a data directory was given, deletes its logs.
 */
public final class EmbeddedKafka implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafka.class);

    /** Broker settings that a one-node cluster needs, or groups and transactions hang. */
    static final Map<String, String> ONE_NODE_SETTINGS = Map.of(
        "offsets.topic.replication.factor", "1",
        "offsets.topic.num.partitions", "4",
        "transaction.state.log.replication.factor", "1",
        "transaction.state.log.min.isr", "1",
        "transaction.state.log.num.partitions", "4",
        "group.initial.rebalance.delay.ms", "0",
        "auto.create.topics.enable", "false",
        "log.cleaner.backoff.ms", "1000");

    /**
     * In a data directory, the id of the cluster it was formatted for, written once the format succeeded: a restart
     * on the directory starts that cluster again instead of formatting a new one.
     */
    static final String CLUSTER_ID_FILE = "cluster.id";

    private final KafkaClusterTestKit cluster;

    private EmbeddedKafka(KafkaClusterTestKit cluster) {
        this.cluster = cluster;
    }

    /**
     * Starts a broker whose logs live in a temporary directory deleted on close.
     *
     * @throws EmbeddedServiceException if the broker does not start
     */
    public static EmbeddedKafka start() {
        return start(Optional.empty());
    }

    /**
     * Starts a broker.
     *
     * @param dataDirectory where the logs live, kept on close: a start on a directory that holds a cluster starts
     *     that cluster again (same cluster id, topics and records), otherwise it formats a new one there. Empty: a
     *     temporary directory deleted on close.
     * @throws EmbeddedServiceException if the broker does not start
     */
    public static EmbeddedKafka start(Optional<Path> dataDirectory) {
        Objects.requireNonNull(dataDirectory, "dataDirectory");
        long started = System.nanoTime();
        try {
            Optional<String> formatted = dataDirectory.flatMap(EmbeddedKafka::clusterIdOf);
            TestKitNodes.Builder nodes = new TestKitNodes.Builder()
                .setCombined(true)
                .setNumBrokerNodes(1)
                .setNumControllerNodes(1);
            formatted.ifPresent(nodes::setClusterId);
            dataDirectory.ifPresent(nodes::setBaseDirectory);
            TestKitNodes built = nodes.build();
            KafkaClusterTestKit.Builder builder = new KafkaClusterTestKit.Builder(built)
                .setDeleteOnClose(dataDirectory.isEmpty());
            ONE_NODE_SETTINGS.forEach(builder::setConfigProp);
            KafkaClusterTestKit cluster = builder.build();
            if (formatted.isEmpty()) {
                formatQuietly(cluster);
                if (dataDirectory.isPresent()) {
                    Files.writeString(dataDirectory.get().resolve(CLUSTER_ID_FILE), built.clusterId());
                }
            }
            cluster.startup();
            cluster.waitForReadyBrokers();
            LOG.info("Embedded Kafka ready at {} in {} ms", cluster.bootstrapServers(),
                (System.nanoTime() - started) / 1_000_000);
            return new EmbeddedKafka(cluster);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EmbeddedServiceException("Interrupted while starting embedded Kafka", e);
        } catch (Exception e) {
            throw new EmbeddedServiceException("Embedded Kafka did not start" + dataDirectory.map(d -> " on its data"
                + " directory " + d + " (delete that folder to start an empty broker there)").orElse("") + ": "
                + e.getMessage(), e);
        }
    }

    /** The cluster id a data directory was formatted with, if it was. */
    private static Optional<String> clusterIdOf(Path dataDirectory) {
        Path file = dataDirectory.resolve(CLUSTER_ID_FILE);
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        try {
            return Optional.of(Files.readString(file).strip());
        } catch (IOException e) {
            throw new EmbeddedServiceException("Cannot read the embedded Kafka cluster id from " + file + ": "
                + e.getMessage(), e);
        }
    }

    /**
     * Formats the node's metadata directory. The formatter prints its bootstrap metadata records to the console;
     * they go to the debug log instead (the console streams are swapped for the call: the process has not
     * started anything else that prints yet).
     */
    private static void formatQuietly(KafkaClusterTestKit cluster) throws Exception {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream capture = new PrintStream(printed, true, StandardCharsets.UTF_8);
        System.setOut(capture);
        System.setErr(capture);
        try {
            cluster.format();
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
        LOG.debug("Formatted the embedded broker's metadata: {}", printed.toString(StandardCharsets.UTF_8).strip());
    }

    /** The {@code bootstrap.servers} value for clients, e.g. {@code localhost:39021}. */
    public String bootstrapServers() {
        return cluster.bootstrapServers();
    }

    @Override
    public void close() {
        try {
            cluster.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EmbeddedServiceException("Interrupted while stopping embedded Kafka", e);
        } catch (Exception e) {
            throw new EmbeddedServiceException("Embedded Kafka did not stop cleanly: " + e.getMessage(), e);
        }
    }
}
