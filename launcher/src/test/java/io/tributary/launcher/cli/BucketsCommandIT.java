package io.tributary.launcher.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.storage.groups.SyncRulesGroup;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@RealServices
class BucketsCommandIT {

    @TempDir
    Path dir;

    @Test
    void printsTheReducedBucketsAtTheCheckpointAsJsonLines(TestServices services) throws Exception {
        PostgresDatabase storage = services.newDatabase();
        Path config = config(storage);
        long group;
        try (Connection c = storage.connect()) {
            Migrations.migrate(c);
            SyncRulesGroup created = SyncRulesGroups.create(c, "bucket_definitions: {}");
            group = created.id();
            op(c, group, "b[1]", 1, true, "t", "1", "{\"id\":\"1\",\"v\":1}");
            op(c, group, "b[1]", 2, true, "t", "2", "{\"id\":\"2\"}");
            op(c, group, "b[1]", 3, true, "t", "1", "{\"id\":\"1\",\"v\":2}");
            op(c, group, "b[2]", 4, true, "t", "3", "{\"id\":\"3\"}");
            op(c, group, "b[2]", 5, false, "t", "3", null);
            op(c, group, "b[1]", 6, false, "t", "2", null); // after the checkpoint: not visible
            c.createStatement().execute("UPDATE tributary.sync_rules SET checkpoint_op_id = 5, checkpoint_lsn = "
                + "'0/16B3748', checkpoint_epoch = 7 WHERE group_id = " + group);
        }

        CommandLineHarness result = CommandLineHarness.run("buckets", "--config", config.toString(), "--json");

        long expected = (Checksums.put("t", "1", "{\"id\":\"1\",\"v\":2}") + Checksums.put("t", "2", "{\"id\":\"2\"}"))
            & 0xFFFF_FFFFL;
        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(result.out().lines()).containsExactly(
            "{\"group\":" + group + ",\"checkpoint\":{\"op_id\":\"5\",\"lsn\":\"0/16B3748\"}}",
            "{\"bucket\":\"b[1]\",\"table\":\"t\",\"id\":\"1\",\"data\":{\"id\":\"1\",\"v\":2}}",
            "{\"bucket\":\"b[1]\",\"table\":\"t\",\"id\":\"2\",\"data\":{\"id\":\"2\"}}",
            "{\"bucket\":\"b[1]\",\"checksum\":" + expected + ",\"count\":2}",
            "{\"bucket\":\"b[2]\",\"checksum\":0,\"count\":0}");
    }

    @Test
    void exitsWithThreeWhenTheGroupHasNoCheckpoint(TestServices services) throws Exception {
        PostgresDatabase storage = services.newDatabase();
        try (Connection c = storage.connect()) {
            Migrations.migrate(c);
            SyncRulesGroups.create(c, "bucket_definitions: {}");
        }

        CommandLineHarness result = CommandLineHarness.run("buckets", "--config", config(storage).toString(), "--json");

        assertThat(result.exitCode()).isEqualTo(ExitCodes.NO_CHECKPOINT);
        assertThat(result.err()).contains("has no checkpoint yet");
        assertThat(result.out()).isEmpty();
    }

    private Path config(PostgresDatabase storage) throws Exception {
        Path file = dir.resolve("tributary.yaml");
        Files.writeString(file, "storage:\n  url: " + storage.jdbcUrl() + "\n  user: " + storage.user()
            + "\n  password: '" + storage.password() + "'\n");
        return file;
    }

    private static void op(Connection c, long group, String bucket, long opId, boolean put, String table, String id,
                           String data) throws Exception {
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO tributary.bucket_data "
            + "(group_id, bucket, op_id, op, source_table, row_id, checksum, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
            insert.setLong(1, group);
            insert.setString(2, bucket);
            insert.setLong(3, opId);
            insert.setShort(4, (short) (put ? 1 : 2));
            insert.setString(5, table);
            insert.setString(6, id);
            insert.setLong(7, put ? Checksums.put(table, id, data) : Checksums.remove(table, id));
            insert.setString(8, data);
            insert.executeUpdate();
        }
    }
}
