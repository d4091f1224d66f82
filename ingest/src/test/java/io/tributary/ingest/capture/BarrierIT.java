package io.tributary.ingest.capture;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.topics.messages.Barrier;
import io.tributary.topics.messages.ChangeEvent;
import io.tributary.topics.messages.Lsn;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

@RealServices
class BarrierIT {

    private static final Duration WAIT = Duration.ofSeconds(60);

    @Test
    void anIdleSourceGetsABarrierInEveryPartitionAtLeastEverySecond(TestServices services) throws Exception {
        try (IngestFixture f = IngestFixture.create(services)) {
            f.db.execute("CREATE TABLE items (id int PRIMARY KEY)");
            f.start(f.config("items"));
            ChangesTopic changes = f.changes();

            List<Received> all = changes.awaitUntil(WAIT, got -> everyPartitionHas(got, 8));

            for (int p = 0; p < IngestFixture.PARTITIONS; p++) {
                List<Received> barriers = barriers(all, p);
                for (int i = 1; i < barriers.size(); i++) {
                    Barrier previous = barriers.get(i - 1).barrier();
                    Barrier barrier = barriers.get(i).barrier();
                    assertThat(barrier.epoch()).isEqualTo(previous.epoch() + 1);
                    assertThat(barrier.lsn()).isGreaterThanOrEqualTo(previous.lsn());
                    assertThat(barriers.get(i).timestamp() - barriers.get(i - 1).timestamp())
                        .as("milliseconds between barriers %s and %s in partition %d", previous, barrier, p)
                        .isLessThanOrEqualTo(1000);
                }
                assertThat(barriers.get(barriers.size() - 1).barrier().lsn())
                    .isGreaterThan(barriers.get(0).barrier().lsn());
            }
        }
    }

    @Test
    void everyEventPrecedesEveryBarrierCoveringItsCommitLsn(TestServices services) throws Exception {
        try (IngestFixture f = IngestFixture.create(services)) {
            f.db.execute("CREATE TABLE items (id int PRIMARY KEY, v int)");
            f.start(f.config("items"));
            ChangesTopic changes = f.changes();
            ExecutorService writers = Executors.newFixedThreadPool(3);
            try {
                List<Future<?>> done = new java.util.ArrayList<>();
                for (int w = 0; w < 3; w++) {
                    int writer = w;
                    done.add(writers.submit(() -> {
                        for (int i = 0; i < 60; i++) {
                            int id = writer * 1000 + i;
                            f.transaction("INSERT INTO items VALUES (" + id + ", 0)",
                                "UPDATE items SET v = 1 WHERE id = " + (writer * 1000 + i / 2));
                        }
                        return null;
                    }));
                }
                for (Future<?> future : done) {
                    future.get();
                }
            } finally {
                writers.shutdown();
            }

            List<Received> all = changes.awaitUntil(WAIT, got -> {
                List<ChangeEvent> events = ChangeCaptureIT.changeEvents(got);
                if (events.size() < 360) {
                    return false;
                }
                Lsn last = events.stream().map(ChangeEvent::lsn).max(Lsn::compareTo).orElseThrow();
                for (int p = 0; p < IngestFixture.PARTITIONS; p++) {
                    if (barriers(got, p).stream().noneMatch(b -> !b.barrier().lsn().isBefore(last))) {
                        return false;
                    }
                }
                return true;
            });

            for (int p = 0; p < IngestFixture.PARTITIONS; p++) {
                List<Received> partition = ChangesTopic.partition(all, p);
                for (Received barrier : barriers(all, p)) {
                    for (Received event : partition) {
                        if (event.isChange() && !event.change().lsn().isAfter(barrier.barrier().lsn())) {
                            assertThat(event.offset()).as("event %s vs %s", event.message(), barrier.message())
                                .isLessThan(barrier.offset());
                        }
                    }
                }
            }
        }
    }

    @Test
    void aChangeIsVisibleOnceItsBatchCommitsWithoutWaitingForTheNextBarrier(TestServices services) throws Exception {
        try (IngestFixture f = IngestFixture.create(services)) {
            f.db.execute("CREATE TABLE items (id int PRIMARY KEY)");
            f.start(f.config("items").withBarrierInterval(Duration.ofMinutes(10)));
            ChangesTopic changes = f.changes();
            changes.awaitUntil(WAIT, got -> everyPartitionHas(got, 1));

            f.transaction("INSERT INTO items VALUES (1)");
            List<Received> all = changes.awaitUntil(WAIT, got -> ChangeCaptureIT.changeEvents(got).size() == 1);

            assertThat(all.stream().filter(Received::isBarrier).count())
                .as("the change is read before any barrier after the first (the next is due in 10 minutes)")
                .isEqualTo(IngestFixture.PARTITIONS);
        }
    }

    @Test
    void epochsKeepIncreasingAcrossARestart(TestServices services) throws Exception {
        try (IngestFixture f = IngestFixture.create(services)) {
            f.db.execute("CREATE TABLE items (id int PRIMARY KEY)");
            IngestConfig config = f.config("items");
            ChangesTopic changes = f.changes();
            IngestService first = f.start(config);
            changes.awaitUntil(WAIT, got -> everyPartitionHas(got, 3));
            first.close();
            long before = changes.poll().stream().filter(Received::isBarrier).count();

            f.start(config);
            List<Received> all = changes.awaitUntil(WAIT,
                got -> got.stream().filter(Received::isBarrier).count() >= before + 3L * IngestFixture.PARTITIONS);

            for (int p = 0; p < IngestFixture.PARTITIONS; p++) {
                List<Barrier> barriers = barriers(all, p).stream().map(Received::barrier)
                    .collect(Collectors.toList());
                for (int i = 1; i < barriers.size(); i++) {
                    assertThat(barriers.get(i).epoch()).isEqualTo(barriers.get(i - 1).epoch() + 1);
                    assertThat(barriers.get(i).lsn()).isGreaterThanOrEqualTo(barriers.get(i - 1).lsn());
                }
            }
        }
    }

    private static List<Received> barriers(List<Received> all, int partition) {
        return ChangesTopic.partition(all, partition).stream().filter(Received::isBarrier)
            .collect(Collectors.toList());
    }

    private static boolean everyPartitionHas(List<Received> all, int barriers) {
        for (int p = 0; p < IngestFixture.PARTITIONS; p++) {
            if (barriers(all, p).size() < barriers) {
                return false;
            }
        }
        return true;
    }
}
