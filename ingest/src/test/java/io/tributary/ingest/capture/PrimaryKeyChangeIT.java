package io.tributary.ingest.capture;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.topics.messages.ChangeEvent;
import io.tributary.topics.messages.TableTruncate;
import io.tributary.topics.messages.TableWindowMarker;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A table's primary key changed while ingest streams it, then the table is snapshotted again (what
 * {@code tributary resnapshot} does after such a fix): the window's marker replaces the table's rows, so ingest
 * writes a truncation right before it in every partition, and the changes after it carry the new key, although
 * Debezium's row schema of the table stayed the same.
 */
@RealServices
class PrimaryKeyChangeIT {

    @Test
    void changesAfterAWindowReplacingTheRowsOfATableWhoseKeyChangedCarryTheNewKey(TestServices services)
        throws Exception {
        try (IngestFixture f = IngestFixture.create(services)) {
            f.db.execute("CREATE TABLE orders (id text NOT NULL, owner text NOT NULL, qty int,"
                + " PRIMARY KEY (id, owner))");
            f.start(f.config("orders"));
            ChangesTopic changes = f.changes();
            f.db.execute("INSERT INTO orders VALUES ('a', 'u1', 1)");
            changes.awaitUntil(Duration.ofSeconds(60), got -> ChangeCaptureIT.changeEvents(got).size() == 1);

            f.transaction("ALTER TABLE orders DROP CONSTRAINT orders_pkey", "ALTER TABLE orders ADD PRIMARY KEY (id)");
            f.transaction("SELECT pg_logical_emit_message(true, 'tributary.window',"
                + " '{\"schema\":\"public\",\"table\":\"orders\",\"window_id\":\"w-2\",\"replaces\":true}')");
            f.db.execute("UPDATE orders SET qty = 2 WHERE id = 'a'", "INSERT INTO orders VALUES ('b', 'u2', 3)");

            List<Received> all = changes.awaitUntil(Duration.ofSeconds(60),
                got -> ChangeCaptureIT.changeEvents(got).size() == 3);
            List<String> keys = ChangeCaptureIT.changeEvents(all).stream()
                .sorted(Comparator.comparing(ChangeEvent::position)).map(e -> e.pk().json()).toList();
            assertThat(keys).containsExactly("[\"a\",\"u1\"]", "[\"a\"]", "[\"b\"]");
            for (int p = 0; p < IngestFixture.PARTITIONS; p++) {
                List<Object> markers = ChangesTopic.partition(all, p).stream().map(Received::message)
                    .filter(m -> m instanceof TableTruncate || m instanceof TableWindowMarker).map(m -> (Object) m)
                    .toList();
                assertThat(markers).as("partition %d", p).hasSize(2);
                assertThat(markers.get(0)).isInstanceOf(TableTruncate.class);
                assertThat(markers.get(1)).isInstanceOf(TableWindowMarker.class);
            }
        }
    }
}
