package io.tributary.stream.merge;

import io.tributary.topics.messages.Barrier;
import io.tributary.topics.messages.ChangeEvent;
import io.tributary.topics.messages.ChangesMessage;
import io.tributary.topics.messages.ChunkDone;
import io.tributary.topics.messages.KeyValues;
import io.tributary.topics.messages.Lsn;
import io.tributary.topics.messages.PgSnapshot;
import io.tributary.topics.messages.RowJson;
import io.tributary.topics.messages.RowKey;
import io.tributary.topics.messages.SnapshotRow;
import io.tributary.topics.messages.SnapshotRowsMessage;
import io.tributary.topics.messages.TableId;
import io.tributary.topics.messages.TableWindowMarker;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * A tiny Postgres for merge tests: tables of {@code (id, v)} rows, transactions with 64-bit xids, row locks,
 * commit LSNs and snapshots with Postgres's visibility rule. Committing appends the transaction's change events
 * to {@link #changes()} in commit order (what ingest would publish); chunk reads see the committed state under a
 * {@link PgSnapshot} taken like {@code pg_current_snapshot()}. Rows loaded with {@link #load} predate capture.
 */
final class SourceModel {

    static final TableId ITEMS = TableId.of("public", "items");
    static final TableId ORDERS = TableId.of("public", "orders");

    private final Map<RowKey, RowJson> committed = new LinkedHashMap<>();
    private final Map<Long, Transaction> active = new TreeMap<>();
    private final List<ChangesMessage> changes = new ArrayList<>();
    private long nextXid = 500;
    private long latestCompleted = 499;
    private long lsn = 0x10000;
    private long epoch;

    static RowKey key(TableId table, int id) {
        return RowKey.of(table, KeyValues.of("[" + id + "]"));
    }

    static RowJson row(int id, String value) {
        return RowJson.of("{\"id\":" + id + ",\"v\":\"" + value + "\"}");
    }

    static int idOf(RowKey key) {
        String json = key.pk().json();
        return Integer.parseInt(json.substring(1, json.length() - 1));
    }

    /** A row that existed before capture started: only a chunk read can find it. */
    void load(TableId table, int id, String value) {
        committed.put(key(table, id), row(id, value));
    }

    Transaction begin() {
        Transaction tx = new Transaction(nextXid++);
        active.put(tx.xid, tx);
        return tx;
    }

    /** Opens a snapshot window: the marker commits in its own transaction, through the WAL. */
    TableWindowMarker openWindow(TableId table, String windowId) {
        long xid = nextXid++;
        latestCompleted = Math.max(latestCompleted, xid);
        lsn += 0x100;
        TableWindowMarker marker = TableWindowMarker.of(table, Lsn.of(lsn), windowId);
        changes.add(marker);
        return marker;
    }

    Barrier barrier() {
        Barrier barrier = Barrier.of(epoch++, Lsn.of(lsn));
        changes.add(barrier);
        return barrier;
    }

    /** {@code pg_current_snapshot()} now. */
    PgSnapshot snapshot() {
        long xmax = latestCompleted + 1;
        List<Long> xip = active.keySet().stream().filter(x -> x < xmax).toList();
        long xmin = xip.isEmpty() ? xmax : xip.get(0);
        return PgSnapshot.of(xmin, xmax, xip);
    }

    /** A chunk read now: the committed rows of {@code table} with {@code lo <= id < hi}, and the done marker. */
    ChunkRead readChunk(TableId table, String windowId, String chunkId, int attempt, int lo, int hi) {
        PgSnapshot snapshot = snapshot();
        List<SnapshotRow> rows = committed.entrySet().stream()
            .filter(e -> e.getKey().table().equals(table))
            .filter(e -> idOf(e.getKey()) >= lo && idOf(e.getKey()) < hi)
            .sorted(Comparator.comparingInt(e -> idOf(e.getKey())))
            .map(e -> new SnapshotRow(table, e.getKey().pk(), e.getValue(), chunkId, windowId, attempt, snapshot))
            .toList();
        ChunkDone done = new ChunkDone(chunkId, table, windowId, attempt, Lsn.of(lsn), rows.size());
        return new ChunkRead(rows, done, snapshot);
    }

    /** Everything committed to {@code changes} so far, in commit order. */
    List<ChangesMessage> changes() {
        return List.copyOf(changes);
    }

    /** The committed state of every table. */
    Map<RowKey, RowJson> state() {
        return new HashMap<>(committed);
    }

    boolean exists(RowKey key) {
        return committed.containsKey(key);
    }

    Set<Long> activeXids() {
        return active.keySet();
    }

    Optional<Transaction> holderOf(RowKey key) {
        return active.values().stream().filter(tx -> tx.locks.contains(key)).findFirst();
    }

    private void finish(Transaction tx, boolean commit) {
        if (active.remove(tx.xid) == null) {
            throw new IllegalStateException("Transaction " + tx.xid + " is not active");
        }
        latestCompleted = Math.max(latestCompleted, tx.xid);
        if (!commit || tx.writes.isEmpty()) {
            return;
        }
        lsn += 0x100;
        long seq = 0;
        for (ChangeEvent write : tx.writes) {
            ChangeEvent event = new ChangeEvent(write.table(), write.op(), write.pk(), write.row(), Lsn.of(lsn),
                seq++, tx.xid);
            if (event.row().isPresent()) {
                committed.put(event.rowKey(), event.row().get());
            } else {
                committed.remove(event.rowKey());
            }
            changes.add(event);
        }
    }

    /** One transaction: writes take row locks and become visible (and captured) at commit. */
    final class Transaction {

        final long xid;
        private final List<ChangeEvent> writes = new ArrayList<>();
        private final Map<RowKey, Optional<RowJson>> own = new HashMap<>();
        private final Set<RowKey> locks = new HashSet<>();

        private Transaction(long xid) {
            this.xid = xid;
        }

        boolean sees(RowKey key) {
            return own.containsKey(key) ? own.get(key).isPresent() : committed.containsKey(key);
        }

        boolean canLock(RowKey key) {
            Optional<Transaction> holder = holderOf(key);
            return holder.isEmpty() || holder.get() == this;
        }

        Transaction insert(TableId table, int id, String value) {
            return write(table, id, Optional.of(row(id, value)), false);
        }

        Transaction update(TableId table, int id, String value) {
            return write(table, id, Optional.of(row(id, value)), true);
        }

        Transaction delete(TableId table, int id) {
            return write(table, id, Optional.empty(), true);
        }

        private Transaction write(TableId table, int id, Optional<RowJson> row, boolean mustExist) {
            RowKey key = key(table, id);
            if (!canLock(key)) {
                throw new IllegalStateException("Row " + key + " is locked by another transaction");
            }
            if (sees(key) != mustExist) {
                throw new IllegalStateException("Row " + key + (mustExist ? " does not exist" : " exists"));
            }
            locks.add(key);
            own.put(key, row);
            Lsn unknown = Lsn.ZERO;
            writes.add(row.isPresent()
                ? (mustExist ? ChangeEvent.update(table, key.pk(), row.get(), unknown, 0, xid)
                    : ChangeEvent.insert(table, key.pk(), row.get(), unknown, 0, xid))
                : ChangeEvent.delete(table, key.pk(), unknown, 0, xid));
            return this;
        }

        void commit() {
            finish(this, true);
        }

        void rollback() {
            finish(this, false);
        }
    }

    /** The rows and done marker of one chunk attempt, and the snapshot it read under. */
    record ChunkRead(List<SnapshotRow> rows, ChunkDone done, PgSnapshot snapshot) {

        /** The rows, then the done marker: what one snapshot worker writes to a partition. */
        List<SnapshotRowsMessage> messages() {
            List<SnapshotRowsMessage> messages = new ArrayList<>(rows);
            messages.add(done);
            return messages;
        }
    }
}
