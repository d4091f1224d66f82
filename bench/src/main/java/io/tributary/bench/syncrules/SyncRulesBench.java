package io.tributary.bench.syncrules;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.syncrules.BucketRow;
import io.tributary.syncrules.Checksums;
import io.tributary.syncrules.EvaluationResult;
import io.tributary.syncrules.SyncRules;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.Random;

/**
 * Single-threaded throughput of sync rules evaluation: rows/s through three data queries (a global bucket with a
 * filter, a per-user bucket over {@code *}, a per-list bucket with aliases and a filter) reading one table, for
 * rows given as Jackson trees and as JSON bytes, plus the PUT checksums of the produced bucket rows.
 *
 * <p>Usage: {@code java -cp <classpath> io.tributary.bench.syncrules.SyncRulesBench [rows] [rounds]}
 * (defaults: 1,000,000 rows, 5 measured rounds after one warm-up round). Rows are drawn from a pool of
 * distinct generated rows so that generation is not measured.
 */
public final class SyncRulesBench {

    private static final String RULES = String.join("\n",
        "bucket_definitions:",
        "  global:",
        "    data:",
        "      - SELECT id, title, list_id FROM todos WHERE status <> 'deleted'",
        "  by_user:",
        "    parameters: SELECT request.user_id() AS user_id",
        "    data:",
        "      - SELECT * FROM todos WHERE owner_id = bucket.user_id",
        "  by_list:",
        "    parameters: SELECT request.jwt() ->> 'lists' AS list_id",
        "    data:",
        "      - SELECT id, list_id, title AS name, completed FROM todos",
        "          WHERE list_id = bucket.list_id AND completed = false AND priority >= 2",
        "");

    private static final int POOL = 50_000;

    private SyncRulesBench() {
    }

    public static void main(String[] args) {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        SyncRules rules = SyncRules.parse(RULES);
        ObjectNode[] trees = new ObjectNode[POOL];
        byte[][] bytes = new byte[POOL][];
        Random random = new Random(42);
        for (int i = 0; i < POOL; i++) {
            trees[i] = row(random, i);
            bytes[i] = trees[i].toString().getBytes(StandardCharsets.UTF_8);
        }
        System.out.printf(Locale.ROOT, "sync rules bench: %,d rows per round, %d rounds, 3 data queries, 1 core%n",
            rows, rounds);
        report("evaluate(ObjectNode)", rows, rounds, () -> evaluateTrees(rules, trees, rows));
        report("evaluate(byte[] JSON)", rows, rounds, () -> evaluateBytes(rules, bytes, rows));
        report("evaluate + checksums", rows, rounds, () -> evaluateAndChecksum(rules, trees, rows));
    }

    private static ObjectNode row(Random random, int i) {
        ObjectNode row = JsonNodeFactory.instance.objectNode();
        row.put("id", "todo-" + i);
        row.put("list_id", "list-" + random.nextInt(1000));
        row.put("owner_id", "user-" + random.nextInt(10_000));
        row.put("title", "Buy " + random.nextInt(100_000) + " things, \"quoted\"");
        row.put("completed", random.nextInt(4) == 0);
        row.put("priority", random.nextInt(5));
        row.put("status", random.nextInt(10) == 0 ? "deleted" : "open");
        row.put("created_at", "2024-05-0" + (1 + random.nextInt(9)) + "T12:34:56.789Z");
        return row;
    }

    private static long evaluateTrees(SyncRules rules, ObjectNode[] pool, int rows) {
        long bucketRows = 0;
        for (int i = 0; i < rows; i++) {
            bucketRows += rules.evaluate("public.todos", pool[i % pool.length]).rows().size();
        }
        return bucketRows;
    }

    private static long evaluateBytes(SyncRules rules, byte[][] pool, int rows) {
        long bucketRows = 0;
        for (int i = 0; i < rows; i++) {
            bucketRows += rules.evaluate("public.todos", pool[i % pool.length]).rows().size();
        }
        return bucketRows;
    }

    private static long evaluateAndChecksum(SyncRules rules, ObjectNode[] pool, int rows) {
        long bucketRows = 0;
        long checksum = 0;
        for (int i = 0; i < rows; i++) {
            EvaluationResult result = rules.evaluate("public.todos", pool[i % pool.length]);
            for (BucketRow row : result.rows()) {
                checksum = Checksums.add(checksum, row.checksum());
                bucketRows++;
            }
        }
        return checksum == -1 ? -1 : bucketRows;
    }

    private static void report(String name, int rows, int rounds, Round round) {
        round.run();
        double[] rates = new double[rounds];
        long bucketRows = 0;
        for (int r = 0; r < rounds; r++) {
            long start = System.nanoTime();
            bucketRows = round.run();
            rates[r] = rows / ((System.nanoTime() - start) / 1e9);
        }
        Arrays.sort(rates);
        System.out.printf(Locale.ROOT, "%-24s median %,12.0f rows/s  best %,12.0f rows/s  (%,d bucket rows per round,"
            + " %.2f s per 1M rows)%n", name, rates[rounds / 2], rates[rounds - 1], bucketRows,
            1_000_000 / rates[rounds / 2]);
    }

    @FunctionalInterface
    private interface Round {
        long run();
    }
}
