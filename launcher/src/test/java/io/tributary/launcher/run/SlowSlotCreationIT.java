package io.tributary.launcher.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.launcher.Main;
import io.tributary.launcher.env.SampleDataset;
import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The planner must not open snapshot windows before the replication slot
 * exists. Creating a slot waits for every transaction running on the server to end; a window's markers written
 * meanwhile come before the slot's start, are never captured, and the group never gets a checkpoint. Here a
 * transaction holds slot creation back for seconds while the run starts: the run must catch up once the slot
 * exists (with the planner started at once, it never does: its windows never become ready).
 */
@RealServices
class SlowSlotCreationIT {

    private static final long HOLD_AFTER_BLOCKED_MILLIS = 8_000;

    @TempDir
    Path dir;

    @Test
    void aSlotCreatedLateStillGetsTheSnapshotsWindows(TestServices services) throws Exception {
        PostgresDatabase source = services.newDatabase();
        PostgresDatabase storage = services.newDatabase();
        try (Connection c = source.connect()) {
            new SampleDataset(20, 100, 1_000).load(c);
        }
        Path rules = Files.writeString(dir.resolve("rules.yaml"), SampleDataset.syncRules());
        Path config = TestConfigFile.write(dir, services, source, storage, rules, 4, 500);
        StringWriter out = new StringWriter();

        CompletableFuture<Integer> run;
        try (Connection holder = source.connect(); Statement hold = holder.createStatement()) {
            holder.setAutoCommit(false);
            hold.execute("SELECT txid_current()"); // a transaction with an xid: slot creation waits for its end
            run = CompletableFuture.supplyAsync(() -> Main.execute(new PrintWriter(out, true),
                new PrintWriter(out, true), "run", "--config", config.toString(), "--until-caught-up"));
            await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(200))
                .until(() -> slotCreationWaits(source) || run.isDone());
            Thread.sleep(HOLD_AFTER_BLOCKED_MILLIS); // a planner that does not wait for the slot plans meanwhile
            holder.commit();
        }

        assertThat(run.get(3, TimeUnit.MINUTES)).as(out.toString()).isZero();
        assertThat(out.toString()).contains("Caught up");
    }

    /** Whether a session of {@code source}'s database waits for a transaction to end (slot creation does). */
    private static boolean slotCreationWaits(PostgresDatabase source) throws Exception {
        try (Connection c = source.connect(); ResultSet rs = c.createStatement().executeQuery(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                + " AND wait_event_type = 'Lock' AND wait_event = 'transactionid'")) {
            rs.next();
            return rs.getLong(1) > 0;
        }
    }
}
