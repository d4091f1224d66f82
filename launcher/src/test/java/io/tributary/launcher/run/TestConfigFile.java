package io.tributary.launcher.run;

import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.TestServices;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

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
        return write(dir, services, source, storage, Optional.of(rules), partitions, chunkRows, List.of());
    }

    /**
     * Writes {@code dir/tributary.yaml} as {@link #write(Path, TestServices, PostgresDatabase, PostgresDatabase,
     * Path, int, int)} does, naming the sync rules file only if {@code rules} is present, followed by the lines
     * {@code more} (further top-level sections).
     *
     * @return the config file
     */
    public static Path write(Path dir, TestServices services, PostgresDatabase source, PostgresDatabase storage,
                             Optional<Path> rules, int partitions, int chunkRows, List<String> more)
        throws IOException {
        String slot = services.uniqueName("slot");
        List<String> lines = new ArrayList<>(List.of(
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
            "  partitions: " + partitions));
        rules.ifPresent(file -> lines.add("sync_rules: " + file.getFileName()));
        lines.addAll(List.of(
            "replication:",
            "  slot_name: " + slot,
            "  publication_name: " + slot,
            "  snapshot:",
            "    chunk_rows: " + chunkRows,
            "metrics:",
            "  port: 0"));
        lines.addAll(more);
        lines.add("");
        return Files.writeString(dir.resolve("tributary.yaml"), String.join("\n", lines));
    }
}
