package io.tributary.ingest.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.topics.messages.ChangeEvent;
import io.tributary.topics.messages.StreamPosition;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Kills an ingest process with SIGKILL while a writer commits, restarts ingest, and checks that every committed
 * change is in {@code changes} at least once, in commit order per key, and that duplicates are identical.
 */
@RealServices
class CrashRecoveryIT {

    private static final int KEYS = 40;
    private static final int TRANSACTIONS = 3000;
    private static final Pattern VALUE = Pattern.compile("\"v\":(\\d+)");

    @Test
    void everyCommittedChangeSurvivesAKillInCommitOrderWithIdenticalDuplicates(TestServices services)
        throws Exception {
        try (IngestFixture f = IngestFixture.create(services)) {
            f.db.execute("CREATE TABLE kv (id int PRIMARY KEY, v bigint)");
            IngestConfig config = f.config("kv");
            ChangesTopic changes = f.changes();
            Process child = IngestProcess.launch(config, "kv", IngestProcess.logFile("crash-recovery-child"));
            ExecutorService writer = Executors.newSingleThreadExecutor();
            try {
                await().atMost(Duration.ofSeconds(120)).until(() -> {
                    assertThat(child.isAlive()).as("ingest child process alive").isTrue();
                    return changes.poll().stream().anyMatch(Received::isBarrier);
                });
                Future<Map<Integer, List<Long>>> written = writer.submit(() -> write(f));
                changes.awaitUntil(Duration.ofSeconds(120),
                    got -> ChangeCaptureIT.changeEvents(got).size() > TRANSACTIONS / 3);
                child.destroyForcibly().waitFor();

                f.start(config);
                Map<Integer, List<Long>> expected = written.get();
                long total = expected.values().stream().mapToLong(List::size).sum();
                List<Received> all = changes.awaitUntil(Duration.ofSeconds(120),
                    got -> firstOccurrences(got).size() >= total);

                Map<StreamPosition, ChangeEvent> seen = new HashMap<>();
                Map<Integer, List<Long>> perKey = new HashMap<>();
                for (ChangeEvent event : ChangeCaptureIT.changeEvents(all)) {
                    ChangeEvent earlier = seen.putIfAbsent(event.position(), event);
                    if (earlier != null) {
                        assertThat(event).as("duplicate of %s", earlier).isEqualTo(earlier);
                        continue;
                    }
                    perKey.computeIfAbsent(key(event), k -> new ArrayList<>()).add(value(event));
                }
                assertThat(perKey).isEqualTo(expected);
                System.out.printf("crash recovery: %d events, %d distinct, %d duplicates after the kill%n",
                    ChangeCaptureIT.changeEvents(all).size(), seen.size(),
                    ChangeCaptureIT.changeEvents(all).size() - seen.size());
            } finally {
                child.destroyForcibly();
                writer.shutdownNow();
            }
        }
    }

    /** Commits {@link #TRANSACTIONS} transactions of two updates each; returns per key the values in commit order. */
    private static Map<Integer, List<Long>> write(IngestFixture f) throws Exception {
        Map<Integer, List<Long>> expected = new LinkedHashMap<>();
        try (Connection c = f.db.connect(); Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            for (int i = 1; i <= TRANSACTIONS; i++) {
                for (int key : new int[] {i % KEYS, (i * 7 + 3) % KEYS}) {
                    long value = i * 10L;
                    s.execute("INSERT INTO kv VALUES (" + key + ", " + value + ") ON CONFLICT (id) DO UPDATE SET v = "
                        + "EXCLUDED.v");
                    expected.computeIfAbsent(key, k -> new ArrayList<>()).add(value);
                }
                c.commit();
            }
        }
        return expected;
    }

    private static Map<StreamPosition, ChangeEvent> firstOccurrences(List<Received> all) {
        Map<StreamPosition, ChangeEvent> first = new HashMap<>();
        for (ChangeEvent event : ChangeCaptureIT.changeEvents(all)) {
            first.putIfAbsent(event.position(), event);
        }
        return first;
    }

    private static int key(ChangeEvent event) {
        return Integer.parseInt(event.pk().json().substring(1, event.pk().json().length() - 1));
    }

    private static long value(ChangeEvent event) {
        Matcher m = VALUE.matcher(event.row().orElseThrow().json());
        assertThat(m.find()).isTrue();
        return Long.parseLong(m.group(1));
    }
}
