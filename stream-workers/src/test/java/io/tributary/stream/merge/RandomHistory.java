package io.tributary.stream.merge;

import static io.tributary.stream.merge.SourceModel.ITEMS;
import static io.tributary.stream.merge.SourceModel.ORDERS;

import io.tributary.stream.merge.SourceModel.ChunkRead;
import io.tributary.stream.merge.SourceModel.Transaction;
import io.tributary.topics.messages.ChangesMessage;
import io.tributary.topics.messages.RowKey;
import io.tributary.topics.messages.SnapshotRowsMessage;
import io.tributary.topics.messages.TableId;
import io.tributary.topics.messages.TablePlan;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A random source history for one partition: concurrent transactions over a few keys of {@code items} (snapshotted
 * in one window of three chunks, some chunks retried while a zombie first attempt still publishes) and of
 * {@code orders} (streamed only), barriers, and an ingest restart that re-sends a stretch of {@code changes}.
 */
final class RandomHistory {

    static final String WINDOW = "w";
    private static final int KEYS = 6;
    private static final int STEPS = 40;
    private static final int[][] CHUNKS = {{1, 3}, {3, 5}, {5, KEYS + 1}};

    final SourceModel db = new SourceModel();
    final List<ChangesMessage> changes;
    final List<SnapshotRowsMessage> snapshotRows;

    private final Random random;

    RandomHistory(long seed) {
        random = new Random(seed);
        for (int id = 1; id <= KEYS; id++) {
            if (random.nextInt(10) < 6) {
                db.load(ITEMS, id, "init" + id);
            }
        }
        int markerStep = random.nextInt(10);
        int[][] readSteps = new int[CHUNKS.length][];
        for (int c = 0; c < CHUNKS.length; c++) {
            int first = markerStep + 1 + random.nextInt(STEPS - markerStep - 2);
            readSteps[c] = random.nextInt(10) < 3
                ? new int[] {first, first + 1 + random.nextInt(STEPS - first - 1)} : new int[] {first};
        }
        List<List<ChunkRead>> reads = new ArrayList<>();
        for (int c = 0; c < CHUNKS.length; c++) {
            reads.add(new ArrayList<>());
        }
        List<Transaction> active = new ArrayList<>();
        for (int step = 0; step < STEPS; step++) {
            if (step == markerStep) {
                db.openWindow(ITEMS, WINDOW);
            }
            for (int c = 0; c < CHUNKS.length; c++) {
                for (int read : readSteps[c]) {
                    if (read == step) {
                        int attempt = reads.get(c).size() + 1;
                        reads.get(c).add(db.readChunk(ITEMS, WINDOW, WINDOW + "#" + c, attempt, CHUNKS[c][0],
                            CHUNKS[c][1]));
                    }
                }
            }
            act(active);
        }
        active.forEach(Transaction::commit);
        db.barrier();
        changes = withIngestRestart(db.changes());
        snapshotRows = snapshotRows(reads);
    }

    private void act(List<Transaction> active) {
        int dice = random.nextInt(100);
        if (dice < 20 && active.size() < 3) {
            active.add(db.begin());
        } else if (dice < 65 && !active.isEmpty()) {
            write(active.get(random.nextInt(active.size())));
        } else if (dice < 85 && !active.isEmpty()) {
            active.remove(random.nextInt(active.size())).commit();
        } else if (dice < 88 && !active.isEmpty()) {
            active.remove(random.nextInt(active.size())).rollback();
        } else if (dice < 95) {
            db.barrier();
        }
    }

    private void write(Transaction tx) {
        TableId table = random.nextInt(5) == 0 ? ORDERS : ITEMS;
        int id = 1 + random.nextInt(KEYS);
        RowKey key = SourceModel.key(table, id);
        if (!tx.canLock(key)) {
            return;
        }
        String value = "x" + tx.xid + "-" + random.nextInt(1000);
        if (!tx.sees(key)) {
            tx.insert(table, id, value);
        } else if (random.nextInt(10) < 7) {
            tx.update(table, id, value);
        } else {
            tx.delete(table, id);
        }
    }

    /** {@code sent}, with a stretch re-sent right after itself (an ingest restart from an older offset). */
    private List<ChangesMessage> withIngestRestart(List<ChangesMessage> sent) {
        List<ChangesMessage> result = new ArrayList<>(sent);
        if (random.nextBoolean() && sent.size() > 1) {
            int from = random.nextInt(sent.size());
            int to = from + 1 + random.nextInt(sent.size() - from);
            result.addAll(to, sent.subList(from, to));
        }
        return result;
    }

    /**
     * Each chunk's records in producer order (a retried chunk's zombie first attempt interleaved with its second
     * attempt: a prefix of its rows, or all of them and its done marker), chunks interleaved at random, the plan
     * anywhere.
     */
    private List<SnapshotRowsMessage> snapshotRows(List<List<ChunkRead>> reads) {
        List<SnapshotRowsMessage> merged = new ArrayList<>();
        for (List<ChunkRead> attempts : reads) {
            ChunkRead last = attempts.get(attempts.size() - 1);
            List<SnapshotRowsMessage> chunk = last.messages();
            if (attempts.size() > 1) {
                ChunkRead zombie = attempts.get(0);
                List<SnapshotRowsMessage> zombieRecords = random.nextBoolean()
                    ? zombie.messages() : new ArrayList<>(zombie.rows().subList(0, random.nextInt(
                        zombie.rows().size() + 1)));
                chunk = Interleavings.random(zombieRecords, chunk, random);
            }
            merged = Interleavings.random(merged, chunk, random);
        }
        merged.add(random.nextInt(merged.size() + 1), TablePlan.of(ITEMS, WINDOW, CHUNKS.length));
        return merged;
    }

    Random random() {
        return random;
    }
}
