package io.tributary.writer;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.storage.checkpoint.Checkpoints;
import io.tributary.storage.groups.Checkpoint;
import io.tributary.syncrules.BucketRow;
import io.tributary.syncrules.ExpectedBucket;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.testing.random.Seeds;
import java.sql.Connection;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Invariant 2 under concurrency: accounts spread over partitions, every source transaction moves money between two
 * of them within one epoch, two writers apply them; every checkpoint a reader sees while they run shows exactly
 * the source state at the checkpoint's epoch (so in particular a constant total).
 */
@RealServices
class TransferIT {

    private static final String RULES = """
        bucket_definitions:
          global:
            data:
              - SELECT id, balance, v FROM accounts
        """;
    private static final int ACCOUNTS = 40;
    private static final int EPOCHS = 120;
    private static final int TRANSFERS_PER_EPOCH = 8;

    @Test
    void everyPublishedCheckpointShowsTheSourceStateAtItsEpoch(TestServices services) throws Exception {
        long seed = Seeds.fromProperty("tributary.seed");
        Map<Long, Map<String, Long>> balancesAtEpoch = new ConcurrentHashMap<>();
        try (WriterHarness h = WriterHarness.create(services, 4, RULES);
             StorageWriter first = h.start(7, 1);
             StorageWriter second = h.start(7, 1);
             Connection listener = h.db.connect();
             Connection reader = h.db.connect()) {
            Checkpoints.listen(listener);
            reader.setAutoCommit(false);
            reader.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            CompletableFuture<Void> source = CompletableFuture.runAsync(() -> transfers(h, seed, balancesAtEpoch));

            Map<Long, Map<String, Long>> seen = new HashMap<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (seen.keySet().stream().noneMatch(e -> e == EPOCHS) && System.nanoTime() < deadline) {
                Checkpoints.awaitAdvances(listener, Duration.ofMillis(100));
                Optional<Checkpoint> checkpoint = Checkpoints.current(reader, h.groupId);
                if (checkpoint.isPresent() && !seen.containsKey(checkpoint.get().epoch())) {
                    seen.put(checkpoint.get().epoch(), balances(h.storage.ops(reader, checkpoint.get().opId())));
                }
                reader.commit();
                assertThat(first.failure()).isEmpty();
                assertThat(second.failure()).isEmpty();
            }
            source.get(10, TimeUnit.SECONDS);

            assertThat(seen).as("seed %d", seed).containsKey((long) EPOCHS);
            assertThat(seen.size()).as("checkpoints seen").isGreaterThanOrEqualTo(10);
            for (Map.Entry<Long, Map<String, Long>> checkpoint : seen.entrySet()) {
                assertThat(checkpoint.getValue()).as("state at checkpoint epoch %d, seed %d", checkpoint.getKey(),
                    seed).isEqualTo(balancesAtEpoch.get(checkpoint.getKey()));
                assertThat(checkpoint.getValue().values().stream().mapToLong(Long::longValue).sum())
                    .isEqualTo(ACCOUNTS * 1_000L);
            }
        }
    }

    private static void transfers(WriterHarness h, long seed, Map<Long, Map<String, Long>> balancesAtEpoch) {
        Random random = new Random(seed);
        Map<String, Long> balances = new HashMap<>();
        int version = 0;
        for (int a = 0; a < ACCOUNTS; a++) {
            balances.put("a" + a, 1_000L);
            h.log.upsert("accounts", "a" + a, account("a" + a, 1_000, version++));
        }
        balancesAtEpoch.put(h.log.barrier().epoch(), Map.copyOf(balances));
        for (int e = 1; e <= EPOCHS; e++) {
            for (int t = 0; t < TRANSFERS_PER_EPOCH; t++) {
                String from = "a" + random.nextInt(ACCOUNTS);
                String to = "a" + random.nextInt(ACCOUNTS);
                if (from.equals(to)) {
                    continue;
                }
                long amount = 1 + random.nextInt(100);
                balances.merge(from, -amount, Long::sum);
                balances.merge(to, amount, Long::sum);
                h.log.upsert("accounts", from, account(from, balances.get(from), version++));
                h.log.upsert("accounts", to, account(to, balances.get(to), version++));
            }
            balancesAtEpoch.put(h.log.barrier().epoch(), Map.copyOf(balances));
            if (e % 20 == 0) {
                h.log.flush();
            }
        }
        h.log.flush();
    }

    private static String account(String id, long balance, int version) {
        return "{\"id\":\"" + id + "\",\"balance\":" + balance + ",\"v\":" + version + "}";
    }

    private static Map<String, Long> balances(List<StorageView.Op> ops) throws Exception {
        Map<String, Long> balances = new HashMap<>();
        ExpectedBucket global = StorageView.reduce(ops).get("global[]");
        for (BucketRow row : global == null ? List.<BucketRow>of() : global.rows()) {
            balances.put(row.id(), RowsLog.JSON.readTree(row.data()).get("balance").asLong());
        }
        return balances;
    }
}
