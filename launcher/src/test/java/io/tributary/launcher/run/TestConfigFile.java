package io.tributary.launcher.run;

import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.TestServices;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The config file of an in-process {@code tributary} deployment under test. */
public final class TestConfigFile {

    private TestConfigFile() {
    }

    /**
     * Writes {@code dir/tributary.yaml}: {@code source} and {@code storage}, the test's Kafka and topic prefix, a
     * fresh replication slot and publication, the sync rules file {@code rules} (by name, next to the config), and
     * the metrics server on a free port.
     *
     * @return the config file
     */
    public static Path write(Path dir, TestServices services, PostgresDatabase source, PostgresDatabase storage,
                             Path rules, int partitions, int chunkRows) throws IOException {
        String slot = services.uniqueName("slot");
        return Files.writeString(dir.resolve("tributary.yaml"), String.join("\n",
            "source:",
            "  url: " + source.jdbcUrl(),
            "  user: " + source.user(),
            "  password: '" + source.password() + "'",
            "storage:",
            "  url: " + storage.jdbcUrl(),
            "  user: " + storage.user(),
            "  password: '" + storage.password() + "'",
            "kafka:",
            "  bootstrap_servers: " + services.kafkaBootstrapServers(),
            "  topic_prefix: " + services.topicPrefix(),
            "  partitions: " + partitions,
            "sync_rules: " + rules.getFileName(),
            "replication:",
            "  slot_name: " + slot,
            "  publication_name: " + slot,
            "  snapshot:",
            "    chunk_rows: " + chunkRows,
            "metrics:",
            "  port: 0",
            ""));
    }
}
