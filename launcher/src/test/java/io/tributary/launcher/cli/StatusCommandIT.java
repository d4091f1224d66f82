package io.tributary.launcher.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.storage.groups.SyncRulesGroups;
import io.tributary.storage.schema.Migrations;
import io.tributary.syncrules.Checksums;
import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@RealServices
class StatusCommandIT {

    @TempDir
    Path dir;

    private Path config;
    private long group;

    /** Bucket b[1] holds 3 ops for 2 live rows (1.5 per live row), b[2] 2 ops for 2 live rows. */
    @BeforeEach
    void storageWithAFragmentedBucket(TestServices services) throws Exception {
        PostgresDatabase storage = services.newDatabase();
        config = dir.resolve("tributary.yaml");
        Files.writeString(config, "storage:\n  url: " + storage.jdbcUrl() + "\n  user: " + storage.user()
            + "\n  password: '" + storage.password() + "'\n");
        try (Connection c = storage.connect()) {
            Migrations.migrate(c);
            group = SyncRulesGroups.create(c, "bucket_definitions: {}").id();
            put(c, group, "b[1]", 1, "1");
            put(c, group, "b[1]", 2, "2");
            put(c, group, "b[2]", 3, "3");
            put(c, group, "b[2]", 4, "4");
            put(c, group, "b[1]", 5, "2");
        }
    }

    @Test
    void namesFragmentedBucketsAndTheCompactCommandThatFixesThem() {
        CommandLineHarness status = CommandLineHarness.run("status", "--config", config.toString());

        assertThat(status.exitCode()).as(status.err()).isZero();
        assertThat(status.out()).contains("1 bucket above 1.2 ops per live row",
            "b[1]: 3 ops, 2 live rows (1.50 per live row)",
            "tributary compact --config " + config + " --group " + group + " --fragmented-above 1.2");
        assertThat(status.out()).doesNotContain("b[2]");
    }

    @Test
    void listsFragmentedBucketsInJsonAboveTheBoundGiven() throws Exception {
        CommandLineHarness status = CommandLineHarness.run("status", "--config", config.toString(), "--json",
            "--fragmented-above", "1.6");
        CommandLineHarness strict = CommandLineHarness.run("status", "--config", config.toString(), "--json");

        assertThat(status.exitCode()).as(status.err()).isZero();
        assertThat(new ObjectMapper().readTree(status.out()).get("groups").get(0).get("fragmented_buckets"))
            .isEmpty();
        JsonNode fragmented = new ObjectMapper().readTree(strict.out()).get("groups").get(0)
            .get("fragmented_buckets");
        assertThat(fragmented).hasSize(1);
        assertThat(fragmented.get(0).get("bucket").asText()).isEqualTo("b[1]");
        assertThat(fragmented.get(0).get("ops").asLong()).isEqualTo(3);
        assertThat(fragmented.get(0).get("live_rows").asLong()).isEqualTo(2);
        assertThat(fragmented.get(0).get("ops_per_live_row").asDouble()).isEqualTo(1.5);
    }

    @Test
    void refusesAFragmentationBoundBelowOneOpPerLiveRow() {
        CommandLineHarness status = CommandLineHarness.run("status", "--config", config.toString(),
            "--fragmented-above", "0.9");

        assertThat(status.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(status.err()).contains("--fragmented-above 0.9 is below 1", "Fix: give a ratio of 1 or more");
    }

    private static void put(Connection c, long group, String bucket, long opId, String id) throws Exception {
        String data = "{\"id\":\"" + id + "\"}";
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO tributary.bucket_data (group_id, bucket,"
            + " op_id, op, source_table, row_id, checksum, data) VALUES (?, ?, ?, 1, 't', ?, ?, ?)")) {
            insert.setLong(1, group);
            insert.setString(2, bucket);
            insert.setLong(3, opId);
            insert.setString(4, id);
            insert.setLong(5, Checksums.put("t", id, data));
            insert.setString(6, data);
            insert.executeUpdate();
        }
    }
}
