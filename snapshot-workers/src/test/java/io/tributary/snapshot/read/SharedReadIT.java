package io.tributary.snapshot.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.postgres.PgEndpoint;
import io.tributary.snapshot.ReadSettings;
import io.tributary.snapshot.publish.ChunkPublication;
import io.tributary.snapshot.publish.ChunkPublisher;
import io.tributary.source.catalog.TableNotFoundException;
import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.topics.TopicLayout;
import io.tributary.topics.TopicNames;
import io.tributary.topics.clients.ClusterIdentity;
import io.tributary.topics.messages.ChunkRange;
import io.tributary.topics.messages.ChunkTask;
import io.tributary.topics.messages.TableId;
import io.tributary.topics.messages.TaskPriority;
import io.tributary.topics.provision.TopicProvisioner;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/**
 * Chunks read together ({@link ChunkReader#readAll}) are handed on one by one, in order, each read in full with its
 * own high watermark; a chunk that cannot be read ends the shared read after the chunks before it, which stay read.
 */
@RealServices
class SharedReadIT {

    private static final TopicLayout LAYOUT = TopicLayout.of(3, 3, (short) 1);

    private static ChunkTask whole(TableId table) {
        return ChunkTask.first("w-" + table.name() + "#0", table, new ChunkRange(Optional.empty(), Optional.empty()),
            TaskPriority.ACTIVE_SNAPSHOT, "w-" + table.name()).nextAttempt();
    }

    @Test
    void chunksReadTogetherAreHandedOnInOrderAndAFailingOneEndsTheReadAfterThoseBeforeIt(TestServices services)
        throws Exception {
        PostgresDatabase source = services.newDatabase();
        TopicNames topics = TopicNames.withPrefix(services.topicPrefix());
        try (Admin admin = Admin.create(services.kafkaProperties())) {
            TopicProvisioner.ensure(admin, topics, LAYOUT);
        }
        List<TableId> tables = new ArrayList<>();
        for (int i = 1; i <= 4; i++) {
            TableId table = TableId.of("public", "t" + i);
            tables.add(table);
            source.execute("CREATE TABLE " + table.quoted() + " (id integer PRIMARY KEY, note text)",
                "INSERT INTO " + table.quoted() + " SELECT g, 'n' || g FROM generate_series(1, " + i * 10 + ") g");
        }
        PgEndpoint endpoint = new PgEndpoint(source.jdbcUrl(), source.user(), source.password());
        Properties props = services.kafkaProperties();
        ClusterIdentity cluster = new ClusterIdentity();
        try (KafkaProducer<byte[], byte[]> producer =
                 new KafkaProducer<>(props, cluster, new ByteArraySerializer());
             SourceSession session = new SourceSession(endpoint, ReadSettings.DEFAULT, "tributary shared-read-test")) {
            ChunkReader reader = new ChunkReader(session, new Semaphore(1),
                new ChunkPublisher(producer, cluster, topics, LAYOUT), 100);

            List<ChunkPublication> read = new ArrayList<>();
            reader.readAll(tables.stream().map(SharedReadIT::whole).toList(), task -> rows -> { }, read::add);

            assertThat(read).extracting(p -> p.task().table()).containsExactlyElementsOf(tables);
            assertThat(read).extracting(ChunkPublication::rows).containsExactly(10L, 20L, 30L, 40L);
            assertThat(read).allSatisfy(p -> assertThat(p.highWatermark()).isNotNull());
            for (ChunkPublication publication : read) {
                while (!publication.settle()) {
                    publication.pending().get(30, TimeUnit.SECONDS);
                }
                publication.acknowledged().get(30, TimeUnit.SECONDS);
            }

            source.execute("DROP TABLE " + tables.get(2).quoted());
            List<ChunkPublication> partly = new ArrayList<>();
            assertThatThrownBy(() -> reader.readAll(tables.stream().map(SharedReadIT::whole).toList(),
                task -> rows -> { }, partly::add))
                .isInstanceOf(TableNotFoundException.class).hasMessageContaining(tables.get(2).quoted());
            assertThat(partly).extracting(p -> p.task().table()).containsExactly(tables.get(0), tables.get(1));
            assertThat(partly).extracting(ChunkPublication::rows).containsExactly(10L, 20L);

            List<ChunkPublication> after = new ArrayList<>();
            reader.readAll(List.of(whole(tables.get(3))), task -> rows -> { }, after::add);
            assertThat(after).singleElement().satisfies(p -> assertThat(p.rows()).isEqualTo(40));
        }
    }
}
