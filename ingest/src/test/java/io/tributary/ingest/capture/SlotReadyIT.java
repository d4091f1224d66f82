package io.tributary.ingest.capture;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.topics.messages.TableWindowMarker;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the snapshot planner relies on to start before capture is ACTIVE ({@link IngestService#awaitSlotReady}):
 * everything committed once the slot is consistent and the table published reaches {@code changes}, however late
 * the engine starts streaming.
 */
@RealServices
class SlotReadyIT {

    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final String MARKER = "SELECT pg_logical_emit_message(true, 'tributary.window',"
        + " '{\"schema\":\"public\",\"table\":\"items\",\"window_id\":\"w-1\"}')";

    @Test
    void anEngineStartedLaterStreamsFromTheSlotsConsistentPointNotFromTheWalEnd(TestServices services)
        throws Exception {
        try (IngestFixture f = IngestFixture.create(services)) {
            f.db.execute("CREATE TABLE items (id int PRIMARY KEY)",
                "CREATE PUBLICATION " + f.publication + " FOR TABLE items",
                "SELECT pg_create_logical_replication_slot('" + f.slot + "', 'pgoutput')");
            f.transaction(MARKER);
            f.db.execute("INSERT INTO items SELECT generate_series(1, 30)");
            ChangesTopic changes = f.changes();

            f.start(f.config("items"));

            List<Received> all = awaitMarkerAndChanges(changes, 30);
            assertThat(ChangeCaptureIT.changeEvents(all)).hasSize(30);
        }
    }

    @Test
    void onceTheSlotIsReadyTheTablesArePublishedAndAMarkerCommittedThenIsCaptured(TestServices services)
        throws Exception {
        try (IngestFixture f = IngestFixture.create(services)) {
            f.db.execute("CREATE TABLE items (id int PRIMARY KEY)");
            ChangesTopic changes = f.changes();
            IngestService ingest = f.startNoWait(f.config("items"));

            ingest.awaitSlotReady(WAIT);
            f.transaction(MARKER);
            f.db.execute("INSERT INTO items SELECT generate_series(1, 30)");

            assertThat(confirmedPositionOf(f)).as("the slot is consistent").isTrue();
            assertThat(published(f)).containsExactly("items");
            awaitMarkerAndChanges(changes, 30);
        }
    }

    private static List<Received> awaitMarkerAndChanges(ChangesTopic changes, int rows) {
        return changes.awaitUntil(WAIT, got -> ChangeCaptureIT.changeEvents(got).size() == rows
            && got.stream().filter(r -> r.message() instanceof TableWindowMarker).count()
            == IngestFixture.PARTITIONS);
    }

    private static boolean confirmedPositionOf(IngestFixture f) throws Exception {
        try (Connection c = f.db.connect(); PreparedStatement s = c.prepareStatement(
            "SELECT confirmed_flush_lsn IS NOT NULL FROM pg_replication_slots WHERE slot_name = ?")) {
            s.setString(1, f.slot);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }

    private static List<String> published(IngestFixture f) throws Exception {
        try (Connection c = f.db.connect(); PreparedStatement s = c.prepareStatement(
            "SELECT tablename FROM pg_publication_tables WHERE pubname = ? ORDER BY 1")) {
            s.setString(1, f.publication);
            try (ResultSet rs = s.executeQuery()) {
                List<String> tables = new ArrayList<>();
                while (rs.next()) {
                    tables.add(rs.getString(1));
                }
                return tables;
            }
        }
    }
}
