package io.tributary.ingest.capture.internals;

import io.tributary.topics.messages.ChangeEvent;
import io.tributary.topics.messages.ChangesMessage;
import io.tributary.topics.messages.Lsn;
import io.tributary.topics.messages.TableTruncate;
import io.tributary.topics.messages.TableWindowMarker;
import java.util.ArrayList;
import java.util.List;

/**
 * Holds the decoded items of the open transaction until its END gives the commit LSN, then turns them into
 * {@code changes} messages in WAL order: row changes and truncations numbered {@code seq = 0, 1, 2, ...}, window
 * markers at their place. pgoutput sends each transaction whole, after it committed, so at most one is open; its
 * items stay in memory (a transaction of n changes holds n encoded rows). Not thread-safe.
 */
final class TransactionBuffer {

    private long openXid = -1;
    private final List<PendingChange> items = new ArrayList<>();

    boolean isOpen() {
        return openXid >= 0;
    }

    int size() {
        return items.size();
    }

    void begin(long xid) {
        if (isOpen()) {
            throw new IllegalStateException("BEGIN of transaction " + xid + " while transaction " + openXid
                + " is still open");
        }
        openXid = xid;
    }

    void add(PendingChange item) {
        if (!isOpen()) {
            throw new IllegalStateException("A change arrived outside a transaction: " + item);
        }
        items.add(item);
    }

    /**
     * Closes the open transaction.
     *
     * @param xid       the transaction's 32-bit id, as in its BEGIN
     * @param commitLsn its commit LSN
     * @param fullTxId  its 64-bit id
     */
    List<ChangesMessage> end(long xid, Lsn commitLsn, long fullTxId) {
        if (openXid != xid) {
            throw new IllegalStateException("END of transaction " + xid + " but the open transaction is "
                + (isOpen() ? Long.toString(openXid) : "none"));
        }
        List<ChangesMessage> messages = new ArrayList<>(items.size());
        long seq = 0;
        for (PendingChange item : items) {
            if (item instanceof PendingChange.Row row) {
                messages.add(new ChangeEvent(row.table(), row.op(), row.pk(), row.row(), commitLsn, seq++, fullTxId));
            } else if (item instanceof PendingChange.Truncate truncate) {
                messages.add(TableTruncate.of(truncate.table(), commitLsn, seq++, fullTxId));
            } else if (item instanceof PendingChange.Window window) {
                if (window.replaces()) {
                    messages.add(TableTruncate.of(window.table(), commitLsn, seq++, fullTxId));
                }
                messages.add(TableWindowMarker.of(window.table(), commitLsn, window.windowId()));
            }
        }
        items.clear();
        openXid = -1;
        return messages;
    }
}
