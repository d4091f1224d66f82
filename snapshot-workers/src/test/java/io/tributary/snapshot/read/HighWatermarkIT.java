package io.tributary.snapshot.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.postgres.PgEndpoint;
import io.tributary.snapshot.ReadSettings;
import io.tributary.snapshot.publish.ChunkPublication;
import io.tributary.snapshot.publish.ChunkPublisher;
import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.topics.TopicLayout;
import io.tributary.topics.TopicNames;
import io.tributary.topics.clients.ClusterIdentity;
import io.tributary.topics.messages.ChunkRange;
import io.tributary.topics.messages.ChunkTask;
import io.tributary.topics.messages.Lsn;
import io.tributary.topics.messages.TableId;
import io.tributary.topics.messages.TaskPriority;
import io.tributary.topics.provision.TopicProvisioner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/**
 * A chunk's high watermark covers every commit its snapshot sees, also one committed with
 * {@code synchronous_commit = off} whose commit record is not written out of the WAL buffers yet. The WAL writer is
 * held (SIGSTOP) between that commit and the chunk read, so nothing writes the commit record in between; this needs
 * the Postgres server on this machine (the embedded one, or Testcontainers' on a local engine).
 */
@RealServices
class HighWatermarkIT {

    private static final TopicLayout LAYOUT = TopicLayout.of(3, 3, (short) 1);
    private static final TableId ITEMS = TableId.of("public", "items");

    @Test
    void theHighWatermarkCoversACommitTheSnapshotSeesBeforeItsCommitRecordIsWritten(TestServices services)
        throws Exception {
        PostgresDatabase source = services.newDatabase();
        TopicNames topics = TopicNames.withPrefix(services.topicPrefix());
        try (Admin admin = Admin.create(services.kafkaProperties())) {
            TopicProvisioner.ensure(admin, topics, LAYOUT);
        }
        source.execute("CREATE TABLE items (id integer PRIMARY KEY, name text)",
            "INSERT INTO items SELECT g, 'item ' || g FROM generate_series(1, 10) g");
        PgEndpoint endpoint = new PgEndpoint(source.jdbcUrl(), source.user(), source.password());
        Properties props = services.kafkaProperties();
        ClusterIdentity cluster = new ClusterIdentity();
        try (KafkaProducer<byte[], byte[]> producer =
                 new KafkaProducer<>(props, cluster, new ByteArraySerializer());
             SourceSession session = new SourceSession(endpoint, ReadSettings.DEFAULT, "tributary hw-test");
             Connection writer = source.connect(); Statement w = writer.createStatement()) {
            ChunkReader reader = new ChunkReader(session, new Semaphore(1),
                new ChunkPublisher(producer, cluster, topics, LAYOUT), 100);
            session.connection();
            w.execute("SET synchronous_commit = off");
            long walWriter = walWriterPid(w);
            Lsn commitEnd;
            ChunkPublication publication;
            signal("STOP", walWriter);
            try {
                w.execute("UPDATE items SET name = 'async' WHERE id = 1");
                commitEnd = Lsn.parse(scalar(w, "SELECT pg_current_wal_insert_lsn()::text"));
                assertThat(Lsn.parse(scalar(w, "SELECT pg_current_wal_lsn()::text")))
                    .as("WAL written when the chunk is read").isLessThan(commitEnd);
                publication = reader.read(ChunkTask.first("w-items#0", ITEMS,
                    new ChunkRange(Optional.empty(), Optional.empty()), TaskPriority.ACTIVE_SNAPSHOT, "w-items"),
                    rows -> { });
            } finally {
                signal("CONT", walWriter);
            }
            assertThat(publication.rows()).isEqualTo(10);
            assertThat(publication.highWatermark()).as("high watermark of a chunk that saw the async commit")
                .isGreaterThanOrEqualTo(commitEnd);
            while (!publication.settle()) {
                publication.pending().get(30, TimeUnit.SECONDS);
            }
            publication.acknowledged().get(30, TimeUnit.SECONDS);
        }
    }

    private static long walWriterPid(Statement s) throws Exception {
        long pid = Long.parseLong(scalar(s, "SELECT pid::text FROM pg_stat_activity WHERE backend_type = 'walwriter'"));
        assertThat(ProcessHandle.of(pid)).as("the WAL writer (pid %d) is a process on this machine; this test needs"
            + " the Postgres server here", pid).isPresent();
        return pid;
    }

    private static void signal(String signal, long pid) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0).as("kill -%s %d", signal, pid)
            .isTrue();
        boolean stop = "STOP".equals(signal);
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(5))
            .until(() -> stopped(pid) == stop);
    }

    /** Whether the process is stopped by a signal now (state {@code T} in {@code /proc/<pid>/stat}). */
    private static boolean stopped(long pid) throws Exception {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        return stat.charAt(stat.lastIndexOf(')') + 2) == 'T';
    }

    private static String scalar(Statement s, String sql) throws Exception {
        try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
