package io.tributary.ingest.capture;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.topics.messages.TableId;
import io.tributary.topics.messages.TableWindowMarker;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

@RealServices
class WindowMarkerIT {

    @Test
    void aWindowMessageReachesEveryPartitionBetweenEarlierAndLaterChanges(TestServices services) throws Exception {
        try (IngestFixture f = IngestFixture.create(services)) {
            f.db.execute("CREATE TABLE items (id int PRIMARY KEY)");
            f.start(f.config("items"));
            ChangesTopic changes = f.changes();

            f.db.execute("INSERT INTO items SELECT generate_series(1, 30)");
            f.transaction("SELECT pg_logical_emit_message(true, 'tributary.window',"
                + " '{\"schema\":\"public\",\"table\":\"items\",\"window_id\":\"w-1\"}')");
            f.db.execute("INSERT INTO items SELECT generate_series(31, 60)");

            List<Received> all = changes.awaitUntil(Duration.ofSeconds(60),
                got -> ChangeCaptureIT.changeEvents(got).size() == 60
                    && got.stream().filter(r -> r.message() instanceof TableWindowMarker).count()
                    == IngestFixture.PARTITIONS);

            for (int p = 0; p < IngestFixture.PARTITIONS; p++) {
                List<Received> partition = ChangesTopic.partition(all, p);
                List<Received> markers = partition.stream().filter(r -> r.message() instanceof TableWindowMarker)
                    .collect(Collectors.toList());
                assertThat(markers).hasSize(1);
                TableWindowMarker marker = (TableWindowMarker) markers.get(0).message();
                assertThat(marker.table()).isEqualTo(TableId.of("public", "items"));
                assertThat(marker.windowId()).isEqualTo("w-1");
                for (Received event : partition) {
                    if (event.isChange()) {
                        int id = Integer.parseInt(event.change().pk().json().replaceAll("[\\[\\]]", ""));
                        boolean earlier = id <= 30;
                        assertThat(event.offset() < markers.get(0).offset()).isEqualTo(earlier);
                        assertThat(event.change().lsn().isBefore(marker.lsn())).isEqualTo(earlier);
                    }
                }
            }
        }
    }
}
