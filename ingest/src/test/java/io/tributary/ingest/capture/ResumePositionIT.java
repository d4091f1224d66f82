package io.tributary.ingest.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.topics.messages.Lsn;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Restarts ingest where the WAL record right after its last acknowledged commit is a change of a transaction that
 * began before that commit and commits after it (chaos seed 188994976: rows [793,1] and [793,2] lost).
 */
@RealServices
class ResumePositionIT {

    private static final int ATTEMPTS = 20;

    @Test
    void aTransactionWithAChangeRightAfterTheLastAcknowledgedCommitSurvivesARestart(TestServices services)
        throws Exception {
        try (IngestFixture f = IngestFixture.create(services)) {
            f.db.execute("CREATE TABLE kv (id int PRIMARY KEY, v int)");
            IngestConfig config = f.config("kv").withHeartbeatInterval(Duration.ofHours(1));
            ChangesTopic changes = f.changes();
            IngestService first = f.startNoWait(config);
            await().atMost(Duration.ofSeconds(90)).ignoreExceptions().until(() -> {
                f.transaction("INSERT INTO kv VALUES (0, 0) ON CONFLICT (id) DO UPDATE SET v = kv.v + 1");
                first.awaitActive(Duration.ofSeconds(1));
                return true;
            });
            try (Connection open = f.db.connect(); Connection other = f.db.connect();
                 Statement inOpen = open.createStatement(); Statement inOther = other.createStatement()) {
                open.setAutoCommit(false);
                inOpen.execute("INSERT INTO kv VALUES (-2, 0)");
                Lsn commitEnd = Lsn.parse(commitJustBeforeTheNextChange(inOpen, inOther));
                // Usually the slot confirms exactly commitEnd. It may confirm further (never before the open
                // transaction's commit); the restart must lose nothing either way.
                await().atMost(Duration.ofSeconds(60)).alias("the slot confirms " + commitEnd)
                    .until(() -> confirmedFlush(f, inOther), confirmed -> confirmed.compareTo(commitEnd) >= 0);
                first.close();
                inOpen.execute("INSERT INTO kv VALUES (-4, 0)");
                open.commit();
            }
            f.start(config);
            f.transaction("INSERT INTO kv VALUES (-1, 0)");
            List<Received> all = changes.awaitUntil(Duration.ofSeconds(60), got -> keys(got).contains("[-1]"));
            assertThat(keys(all)).as("keys in changes").contains("[-2]", "[-3]", "[-4]");
        }
    }

    /**
     * Commits a row through {@code other} and inserts key -3 through {@code open} as the very next WAL record,
     * retried until no other WAL record came between; returns the end of that commit.
     */
    private static String commitJustBeforeTheNextChange(Statement open, Statement other) throws Exception {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            other.execute("INSERT INTO kv VALUES (" + (100 + attempt) + ", 0)");
            String commitEnd = walInsertLsn(other);
            if (commitEnd.equals(walInsertLsn(open))) {
                open.execute("INSERT INTO kv VALUES (-3, 0)");
                return commitEnd;
            }
        }
        throw new AssertionError("Another WAL record came between a commit and the next change in " + ATTEMPTS
            + " attempts");
    }

    private static Lsn confirmedFlush(IngestFixture f, Statement s) throws Exception {
        try (ResultSet rs = s.executeQuery("SELECT confirmed_flush_lsn FROM pg_replication_slots WHERE slot_name = '"
            + f.slot + "'")) {
            String confirmed = rs.next() ? rs.getString(1) : null;
            return confirmed == null ? Lsn.of(0) : Lsn.parse(confirmed);
        }
    }

    private static String walInsertLsn(Statement s) throws Exception {
        try (ResultSet rs = s.executeQuery("SELECT pg_current_wal_insert_lsn()")) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static Set<String> keys(List<Received> got) {
        return ChangeCaptureIT.changeEvents(got).stream().map(e -> e.pk().json()).collect(Collectors.toSet());
    }
}
