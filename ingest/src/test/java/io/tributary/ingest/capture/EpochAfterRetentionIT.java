package io.tributary.ingest.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.postgres.PgEndpoint;
import io.tributary.storage.schema.Migrations;
import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.testing.kafka.TopicRetention;
import io.tributary.topics.messages.Barrier;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;

/**
 * Epochs keep increasing after retention removed every barrier from {@code changes} (the storage writers ignore a
 * barrier whose epoch they sealed already, so restarting at 1 would stall checkpoints until the epochs caught up).
 * The removal is done the way retention does it: the log start of every partition moves to its end. When Kafka
 * lost the barrier stored in {@code ingest-offsets} as well, the storage writers' seals keep the epochs going.
 */
@RealServices
class EpochAfterRetentionIT {

    private static final Duration WAIT = Duration.ofSeconds(90);

    @Test
    void epochsContinueAfterRetentionRemovedEveryBarrier(TestServices services) throws Exception {
        try (IngestFixture f = IngestFixture.create(services)) {
            IngestConfig config = f.config("kv");
            Barrier before = runUntilThirdEpoch(f, config);

            try (Admin admin = Admin.create(services.kafkaProperties())) {
                TopicRetention.removeEveryRecord(admin, f.topics.changes());
            }

            assertEpochsContinueAfter(f, config, before);
        }
    }

    @Test
    void epochsContinuePastTheSealedOnesThoughKafkaLostEveryBarrierAndTheStoredOne(TestServices services)
        throws Exception {
        PostgresDatabase storage = services.newDatabase();
        try (Connection c = storage.connect()) {
            Migrations.migrate(c);
        }
        try (IngestFixture f = IngestFixture.create(services)) {
            IngestConfig config = f.config("kv").withSealed(SealedEpochs.in(PgEndpoint.of(storage.jdbcUrl(),
                storage.user(), storage.password())));
            Barrier before = runUntilThirdEpoch(f, config);
            try (Connection c = storage.connect(); PreparedStatement seal = c.prepareStatement("INSERT INTO"
                + " tributary.sealed_epochs (group_id, partition, epoch, lsn, max_op_id) VALUES (1, 0, ?, ?::pg_lsn,"
                + " 0)")) {
                seal.setLong(1, before.epoch());
                seal.setString(2, before.lsn().toString());
                seal.executeUpdate();
            }

            try (Admin admin = Admin.create(services.kafkaProperties())) {
                TopicRetention.removeEveryRecord(admin, f.topics.changes());
                admin.deleteTopics(List.of(f.topics.ingestOffsets())).all().get();
                await().atMost(WAIT).until(() -> !admin.listTopics().names().get()
                    .contains(f.topics.ingestOffsets()));
            }

            assertEpochsContinueAfter(f, config, before);
        }
    }

    /** Runs ingest until it wrote epoch 3 or later, stops it, and returns the newest barrier it wrote. */
    private static Barrier runUntilThirdEpoch(IngestFixture f, IngestConfig config) throws Exception {
        f.db.execute("CREATE TABLE kv (id int PRIMARY KEY, v int)");
        IngestService first = f.start(config);
        f.transaction("INSERT INTO kv VALUES (1, 1)");
        f.changes().awaitUntil(WAIT, got -> newestEpoch(got) >= 3);
        first.close();
        ChangesTopic written = f.changes();
        for (int i = 0; i < 20; i++) {
            written.poll();
        }
        return written.poll().stream().filter(Received::isBarrier).map(Received::barrier)
            .max(Comparator.comparingLong(Barrier::epoch)).orElseThrow();
    }

    /** Starts ingest again: its first barrier's epoch is at least {@code before}'s, and later ones pass it. */
    private static void assertEpochsContinueAfter(IngestFixture f, IngestConfig config, Barrier before)
        throws Exception {
        f.start(config);
        f.transaction("INSERT INTO kv VALUES (2, 2)");
        List<Received> after = f.changes().awaitUntil(WAIT, got -> got.stream().anyMatch(Received::isBarrier));
        long firstAfter = after.stream().filter(Received::isBarrier).mapToLong(r -> r.barrier().epoch()).min()
            .orElseThrow();
        assertThat(firstAfter).as("first epoch after Kafka lost every barrier up to epoch %d", before.epoch())
            .isGreaterThanOrEqualTo(before.epoch());
        f.changes().awaitUntil(WAIT, got -> newestEpoch(got) > before.epoch());
    }

    private static long newestEpoch(List<Received> got) {
        return got.stream().filter(Received::isBarrier).map(Received::barrier).mapToLong(Barrier::epoch).max()
            .orElse(-1);
    }
}
