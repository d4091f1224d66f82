package io.tributary.ingest.planner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.topics.messages.Lsn;
import io.tributary.topics.messages.TableId;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

@RealServices
class WindowMarkersIT {

    @Test
    void chunksWaitForTransactionsRunningWhenTheMarkerCommitted(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        db.execute("CREATE TABLE items (id int PRIMARY KEY)");
        try (Connection running = db.connect(); Connection planner = db.connect()) {
            running.setAutoCommit(false);
            running.createStatement().execute("INSERT INTO items VALUES (1)");

            CompletableFuture<Void> wait = CompletableFuture.runAsync(() -> {
                try {
                    WindowMarkers.awaitOlderTransactions(planner);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });

            assertThat(wait).failsWithin(Duration.ofMillis(500))
                .withThrowableOfType(java.util.concurrent.TimeoutException.class);
            running.commit();
            await().atMost(Duration.ofSeconds(10)).until(wait::isDone);
            assertThat(wait).isCompleted();
        }
    }

    @Test
    void anIdleSourceDoesNotWait(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        try (Connection planner = db.connect()) {
            CompletableFuture<Void> wait = CompletableFuture.runAsync(() -> {
                try {
                    WindowMarkers.awaitOlderTransactions(planner);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            await().atMost(Duration.ofSeconds(5)).until(wait::isDone);
            assertThat(wait).isCompleted();
        }
    }

    @Test
    void aBatchOfMarkersIsOneSourceTransactionInOrder(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        List<WindowMarkers.Marker> markers = List.of(new WindowMarkers.Marker(TableId.of("a", "t1"), "w1", false),
            new WindowMarkers.Marker(TableId.of("b", "t2"), "w2", true), new WindowMarkers.Marker(TableId.of("c", "t3"),
                "w3", false));
        try (Connection planner = db.connect(); Statement s = planner.createStatement()) {
            s.execute("SELECT pg_create_logical_replication_slot('markers', 'test_decoding')");
            try {
                List<Lsn> lsns = WindowMarkers.emitAll(planner, markers);

                List<String> decoded = new ArrayList<>();
                try (ResultSet rs = s.executeQuery("SELECT lsn::text, data FROM"
                    + " pg_logical_slot_get_changes('markers', NULL, NULL)")) {
                    while (rs.next()) {
                        decoded.add(rs.getString(2));
                    }
                }
                assertThat(decoded).hasSize(5);
                assertThat(decoded.get(0)).startsWith("BEGIN");
                assertThat(decoded.get(4)).startsWith("COMMIT");
                for (int i = 0; i < markers.size(); i++) {
                    assertThat(decoded.get(i + 1)).contains("transactional: 1", "prefix: " + WindowMarkers.PREFIX)
                        .endsWith(WindowMarkers.content(markers.get(i).table(), markers.get(i).windowId(),
                            markers.get(i).replaces()));
                }
                assertThat(lsns).hasSize(3).doesNotHaveDuplicates().isSorted();
            } finally {
                s.execute("SELECT pg_drop_replication_slot('markers')");
            }
        }
    }
}
