package io.tributary.ingest.planner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.sql.Connection;
import java.time.Duration;
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
}
