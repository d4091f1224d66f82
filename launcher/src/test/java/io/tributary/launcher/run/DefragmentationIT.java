package io.tributary.launcher.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tributary.launcher.Main;
import io.tributary.launcher.config.ConfigLoader;
import io.tributary.launcher.config.TributaryConfig;
import io.tributary.launcher.env.Environment;
import io.tributary.launcher.env.Role;
import io.tributary.launcher.env.StartupWait;
import io.tributary.storage.compact.StorageFigures;
import io.tributary.storage.groups.Checkpoint;
import io.tributary.storage.groups.GroupState;
import io.tributary.storage.groups.SyncRulesGroup;
import io.tributary.storage.groups.SyncRulesGroups;
import io.tributary.storage.schema.Migrations;
import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.writer.lifecycle.Deployments;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Defragmentation through the source, with the whole pipeline running: a no-op {@code UPDATE} of a bucket's old
 * live rows reaches storage as new PUTs at the bucket's end, so the next compaction folds everything before them
 * into a CLEAR, and a client holding a checkpoint from before still sums to the new checkpoint's checksum.
 */
@RealServices
class DefragmentationIT {

    private static final String RULES = "bucket_definitions:\n"
        + "  global:\n"
        + "    data:\n"
        + "      - SELECT id, v FROM items\n";
    private static final int ROWS = 100;
    private static final int UPDATED_ROWS = 50;
    private static final int UPDATES = 5;
    /** The op code of a CLEAR in {@code bucket_data}. */
    private static final short CLEAR = 4;

    @TempDir
    Path dir;

    @Test
    void noOpUpdatesAtTheSourceLetCompactionFoldAFragmentedBucket(TestServices services) throws Exception {
        PostgresDatabase source = services.newDatabase();
        PostgresDatabase storage = services.newDatabase();
        try (Connection c = source.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE items (id int PRIMARY KEY, v int NOT NULL)");
            s.execute("INSERT INTO items SELECT n, 0 FROM generate_series(1, " + ROWS + ") AS n");
        }
        Path rules = Files.writeString(dir.resolve("rules.yaml"), RULES);
        Path configFile = TestConfigFile.write(dir, services, source, storage, rules, 2, 1000);
        long group;
        try (Connection c = storage.connect()) {
            Migrations.migrate(c);
            group = Deployments.deploy(c, RULES).id();
        }
        TributaryConfig config = ConfigLoader.load(Optional.of(configFile), Map.of());
        try (Environment environment = Environment.start(config, StartupWait.NONE);
             Pipeline pipeline = Pipeline.start(config, environment, Role.ALL, Files.createDirectory(dir.resolve("a")),
                 new SimpleMeterRegistry(), StartupWait.NONE)) {
            await("group " + group + " ACTIVE").atMost(Duration.ofSeconds(120)).until(() -> active(storage, group));
            awaitServingTheSource(source, storage, group);
            // The upper half changes again and again, each change in storage before the next (a storage writer's
            // batch keeps the newest change of a row); the lower half's PUTs stay live at the bucket's start.
            for (int round = 1; round <= UPDATES; round++) {
                sourceUpdate(source, "UPDATE items SET v = " + round + " WHERE id > " + (ROWS - UPDATED_ROWS));
                awaitServingTheSource(source, storage, group);
            }

            Checkpoint held = checkpoint(storage, group);
            long heldChecksum = opLogChecksum(storage, group, held.opId());
            String report = compact(configFile, group);
            assertThat(report).contains("Fragmented bucket global[]", "UPDATE \"items\" SET id = id;",
                (ROWS - UPDATED_ROWS) + " live rows of items before the bucket's last MOVE or REMOVE");
            StorageFigures fragmented = figures(storage, group);
            assertThat(fragmented.liveRows()).isEqualTo(ROWS);
            assertThat(fragmented.opsPerLiveRow()).as("ops per live row of the fragmented bucket after compaction")
                .isGreaterThan(1.1);
            assertThat(opLogChecksum(storage, group, held.opId())).as("the bucket's checksum at op %d after compaction",
                held.opId()).isEqualTo(heldChecksum);

            sourceUpdate(source, "UPDATE items SET id = id WHERE id <= " + (ROWS - UPDATED_ROWS));
            await("the rewrite's PUTs in storage").atMost(Duration.ofSeconds(60))
                .until(() -> figures(storage, group).ops() >= fragmented.ops() + ROWS - UPDATED_ROWS
                    && checkpoint(storage, group).opId() > held.opId());
            awaitServingTheSource(source, storage, group);

            String second = compact(configFile, group);
            assertThat(second).doesNotContain("Fragmented");
            StorageFigures defragmented = figures(storage, group);
            assertThat(defragmented.liveRows()).isEqualTo(ROWS);
            assertThat(defragmented.opsPerLiveRow()).as("ops per live row after the rewrite and a compaction")
                .isLessThanOrEqualTo(1.1);
            Checkpoint now = checkpoint(storage, group);
            assertThat(resumedChecksum(storage, group, heldChecksum, held.opId(), now.opId()))
                .as("a client holding op %d resumes to the bucket's checksum at op %d", held.opId(), now.opId())
                .isEqualTo(opLogChecksum(storage, group, now.opId()));
            awaitServingTheSource(source, storage, group);
        }
    }

    private static void sourceUpdate(PostgresDatabase source, String sql) throws Exception {
        try (Connection c = source.connect(); Statement s = c.createStatement()) {
            s.executeUpdate(sql);
        }
    }

    private static void awaitServingTheSource(PostgresDatabase source, PostgresDatabase storage, long group)
        throws Exception {
        Map<String, StorageContents.Bucket> expected;
        try (Connection c = source.connect()) {
            expected = StorageContents.expected(c, RULES);
        }
        assertThat(expected).isNotEmpty();
        await("storage serves the source").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500))
            .until(() -> served(storage, group).equals(expected));
    }

    private static Map<String, StorageContents.Bucket> served(PostgresDatabase storage, long group) throws Exception {
        try (Connection c = storage.connect()) {
            return StorageContents.served(c, group);
        }
    }

    private static StorageFigures figures(PostgresDatabase storage, long group) throws Exception {
        try (Connection c = storage.connect()) {
            return StorageFigures.of(c, group);
        }
    }

    private static boolean active(PostgresDatabase storage, long group) throws Exception {
        try (Connection c = storage.connect()) {
            SyncRulesGroup found = SyncRulesGroups.find(c, group).orElseThrow();
            return found.state() == GroupState.ACTIVE && found.checkpoint().isPresent();
        }
    }

    private static Checkpoint checkpoint(PostgresDatabase storage, long group) throws Exception {
        try (Connection c = storage.connect()) {
            return SyncRulesGroups.find(c, group).orElseThrow().checkpoint().orElseThrow();
        }
    }

    private static String compact(Path configFile, long group) {
        StringWriter out = new StringWriter();
        int code = Main.execute(new PrintWriter(out, true), new PrintWriter(out, true), "compact", "--config",
            configFile.toString(), "--group", Long.toString(group));
        assertThat(code).as(out.toString()).isZero();
        assertThat(out.toString()).contains("Group " + group + ": up to op");
        return out.toString();
    }

    /** The bucket's checksum at op {@code upTo}: the wrapping 32-bit sum of its ops' checksums up to there. */
    private static long opLogChecksum(PostgresDatabase storage, long group, long upTo) throws Exception {
        try (Connection c = storage.connect();
             PreparedStatement select = c.prepareStatement("SELECT coalesce(sum(checksum), 0) FROM"
                 + " tributary.bucket_data WHERE group_id = ? AND bucket = 'global[]' AND op_id <= ?")) {
            select.setLong(1, group);
            select.setLong(2, upTo);
            try (ResultSet rs = select.executeQuery()) {
                rs.next();
                return rs.getLong(1) & 0xFFFF_FFFFL;
            }
        }
    }

    /**
     * What a client holding the bucket at op {@code from} with checksum {@code held} sums after downloading the ops
     * in {@code (from, to]}, as PowerSync clients do: a CLEAR replaces the sum, every other op adds its checksum.
     */
    private static long resumedChecksum(PostgresDatabase storage, long group, long held, long from, long to)
        throws Exception {
        long sum = held;
        try (Connection c = storage.connect();
             PreparedStatement select = c.prepareStatement("SELECT op, checksum FROM tributary.bucket_data"
                 + " WHERE group_id = ? AND bucket = 'global[]' AND op_id > ? AND op_id <= ? ORDER BY op_id")) {
            select.setLong(1, group);
            select.setLong(2, from);
            select.setLong(3, to);
            try (ResultSet rs = select.executeQuery()) {
                while (rs.next()) {
                    sum = rs.getShort(1) == CLEAR ? rs.getLong(2) : sum + rs.getLong(2);
                }
            }
        }
        return sum & 0xFFFF_FFFFL;
    }
}
