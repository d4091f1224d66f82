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
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@RealServices
class CompactCommandIT {

    @TempDir
    Path dir;

    @Test
    void compactsUpToTheCheckpointAndKeepsWhatClientsDownload(TestServices services) throws Exception {
        PostgresDatabase storage = services.newDatabase();
        Path config = dir.resolve("tributary.yaml");
        Files.writeString(config, "storage:\n  url: " + storage.jdbcUrl() + "\n  user: " + storage.user()
            + "\n  password: '" + storage.password() + "'\n");
        long group;
        try (Connection c = storage.connect()) {
            Migrations.migrate(c);
            group = SyncRulesGroups.create(c, "bucket_definitions: {}").id();
            op(c, group, 1, "1", "{\"id\":\"1\",\"v\":1}");
            op(c, group, 2, "2", "{\"id\":\"2\"}");
            op(c, group, 3, "1", "{\"id\":\"1\",\"v\":2}");
            op(c, group, 4, "2", null);
            op(c, group, 5, "1", "{\"id\":\"1\",\"v\":3}");
            op(c, group, 6, "1", "{\"id\":\"1\",\"v\":4}"); // after the checkpoint: not compacted
            c.createStatement().execute("UPDATE tributary.sync_rules SET checkpoint_op_id = 5, checkpoint_lsn = "
                + "'0/16B3748', checkpoint_epoch = 7 WHERE group_id = " + group);
        }
        String before = CommandLineHarness.run("buckets", "--config", config.toString(), "--json").out();

        CommandLineHarness compact = CommandLineHarness.run("compact", "--config", config.toString(), "--group",
            Long.toString(group));

        assertThat(compact.exitCode()).as(compact.err()).isZero();
        assertThat(compact.out()).contains("up to op 5", "0 ops moved, 4 folded into CLEAR", "6 -> 3 ops",
            "Fragmented bucket b[1]: 3 ops, 1 live rows", "Its newest ops are above the checkpoint");
        long folded = (Checksums.put("t", "1", "{\"id\":\"1\",\"v\":1}") + Checksums.put("t", "2", "{\"id\":\"2\"}")
            + Checksums.put("t", "1", "{\"id\":\"1\",\"v\":2}") + Checksums.remove("t", "2")) & 0xFFFF_FFFFL;
        assertThat(ops(storage, group)).containsExactly("4 op 4 checksum " + folded,
            "5 op 1 checksum " + Checksums.put("t", "1", "{\"id\":\"1\",\"v\":3}"),
            "6 op 1 checksum " + Checksums.put("t", "1", "{\"id\":\"1\",\"v\":4}"));
        assertThat(CommandLineHarness.run("buckets", "--config", config.toString(), "--json").out())
            .isEqualTo(before);

        CommandLineHarness status = CommandLineHarness.run("status", "--config", config.toString(), "--json");
        assertThat(status.exitCode()).as(status.err()).isZero();
        JsonNode size = new ObjectMapper().readTree(status.out()).get("groups").get(0).get("storage");
        assertThat(size.get("ops").asLong()).isEqualTo(3);
        assertThat(size.get("live_rows").asLong()).isEqualTo(1);
        assertThat(size.get("bytes").asLong()).isPositive();
    }

    @Test
    void refusesAFragmentationBoundBelowOneOpPerLiveRow(TestServices services) throws Exception {
        PostgresDatabase storage = services.newDatabase();
        Path config = dir.resolve("tributary.yaml");
        Files.writeString(config, "storage:\n  url: " + storage.jdbcUrl() + "\n  user: " + storage.user()
            + "\n  password: '" + storage.password() + "'\n");

        CommandLineHarness compact = CommandLineHarness.run("compact", "--config", config.toString(),
            "--fragmented-above", "0.5");

        assertThat(compact.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(compact.err()).contains("--fragmented-above 0.5 is below 1", "Fix: give a ratio of 1 or more");
        assertThat(compact.out()).isEmpty();
    }

    private static List<String> ops(PostgresDatabase storage, long group) throws Exception {
        List<String> ops = new ArrayList<>();
        try (Connection c = storage.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT op_id, op, checksum FROM tributary.bucket_data WHERE group_id = "
                 + group + " ORDER BY op_id")) {
            while (rs.next()) {
                ops.add(rs.getLong(1) + " op " + rs.getShort(2) + " checksum " + rs.getLong(3));
            }
        }
        return ops;
    }

    private static void op(Connection c, long group, long opId, String id, String data) throws Exception {
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO tributary.bucket_data "
            + "(group_id, bucket, op_id, op, source_table, row_id, checksum, data) VALUES (?, 'b[1]', ?, ?, 't', ?, ?,"
            + " ?)")) {
            insert.setLong(1, group);
            insert.setLong(2, opId);
            insert.setShort(3, (short) (data != null ? 1 : 2));
            insert.setString(4, id);
            insert.setLong(5, data != null ? Checksums.put("t", id, data) : Checksums.remove("t", id));
            insert.setString(6, data);
            insert.executeUpdate();
        }
    }
}
