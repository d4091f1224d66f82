package io.tributary.stream.simulation;

import io.tributary.testing.PostgresDatabase;
import io.tributary.topics.TopicNames;
import io.tributary.topics.codec.TopicCodec;
import io.tributary.topics.messages.Barrier;
import io.tributary.topics.messages.ChangeEvent;
import io.tributary.topics.messages.ChangesMessage;
import io.tributary.topics.messages.Lsn;
import io.tributary.topics.messages.PgSnapshot;
import io.tributary.topics.messages.RowJson;
import io.tributary.topics.messages.TableWindowMarker;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.KafkaProducer;

/**
 * A test stand-in for ingest: reads the source's WAL through a logical replication slot with the built-in
 * {@code test_decoding} plugin (whole transactions, in commit order, with their xids and commit LSNs) and
 * publishes it to {@code changes} like ingest would: row changes by key (a primary key change as delete + insert),
 * {@code pg_logical_emit_message} window markers and a barrier after every batch to every partition.
 */
public final class LogicalCapture implements AutoCloseable {

    /** The message prefix of window markers; the content is the window id. */
    public static final String WINDOW_PREFIX = "tributary.window";

    private static final Pattern CHANGE = Pattern.compile("^table public\\.items: (INSERT|UPDATE|DELETE): (.*)$");
    private static final Pattern MESSAGE = Pattern.compile("^message: transactional: 1 prefix: "
        + Pattern.quote(WINDOW_PREFIX) + ", sz: \\d+ content:(.*)$");

    private final PostgresDatabase db;
    private final KafkaProducer<byte[], byte[]> producer;
    private final TopicNames names;
    private final int partitions;
    private final String slot;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicLong lastEmptyPollStart = new AtomicLong(Long.MIN_VALUE);
    private final AtomicLong published = new AtomicLong();
    private final AtomicReference<Lsn> publishedThrough = new AtomicReference<>(Lsn.ZERO);
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final Thread thread;
    private long epoch;

    private LogicalCapture(PostgresDatabase db, KafkaProducer<byte[], byte[]> producer, TopicNames names,
                           int partitions, String slot) {
        this.db = db;
        this.producer = producer;
        this.names = names;
        this.partitions = partitions;
        this.slot = slot;
        this.thread = new Thread(this::run, "logical-capture");
    }

    /** Creates the slot (capture starts here: rows written before are only found by chunk reads) and starts. */
    public static LogicalCapture start(PostgresDatabase db, KafkaProducer<byte[], byte[]> producer, TopicNames names,
                                       int partitions) throws SQLException {
        String slot = "capture_" + db.name();
        db.execute("SELECT pg_create_logical_replication_slot('" + slot + "', 'test_decoding')");
        LogicalCapture capture = new LogicalCapture(db, producer, names, partitions, slot);
        capture.thread.start();
        return capture;
    }

    /** Whether a poll that started at or after {@code nanoTime} found nothing left (and everything is sent). */
    public boolean caughtUpSince(long nanoTime) {
        if (failure.get() != null) {
            throw new IllegalStateException("Capture failed", failure.get());
        }
        return lastEmptyPollStart.get() - nanoTime >= 0;
    }

    /** The commit LSN of the last transaction published (and acknowledged by Kafka). */
    public Lsn publishedThrough() {
        return publishedThrough.get();
    }

    /** Change events published so far. */
    public long published() {
        return published.get();
    }

    private void run() {
        try (Connection c = db.connect();
             PreparedStatement poll = c.prepareStatement("SELECT lsn::text, xid::text, data FROM "
                 + "pg_logical_slot_get_changes(?, NULL, 5000, 'include-xids', '1', 'skip-empty-xacts', '1')");
             Statement reference = c.createStatement()) {
            poll.setString(1, slot);
            while (running.get()) {
                long started = System.nanoTime();
                if (pollOnce(poll, reference) == 0) {
                    lastEmptyPollStart.set(started);
                }
            }
        } catch (SQLException | RuntimeException e) {
            failure.set(e);
        }
    }

    private int pollOnce(PreparedStatement poll, Statement reference) throws SQLException {
        List<String[]> lines = new ArrayList<>();
        try (ResultSet rs = poll.executeQuery()) {
            while (rs.next()) {
                lines.add(new String[] {rs.getString(1), rs.getString(2), rs.getString(3)});
            }
        }
        if (lines.isEmpty()) {
            return 0;
        }
        long recentXid;
        try (ResultSet rs = reference.executeQuery("SELECT pg_snapshot_xmax(pg_current_snapshot())::text")) {
            rs.next();
            recentXid = Long.parseLong(rs.getString(1));
        }
        List<Pending> transaction = new ArrayList<>();
        Lsn last = Lsn.ZERO;
        for (String[] line : lines) {
            String data = line[2];
            if (data.startsWith("BEGIN")) {
                transaction.clear();
            } else if (data.startsWith("COMMIT")) {
                last = Lsn.parse(line[0]);
                publish(transaction, last, PgSnapshot.widenXid(Long.parseLong(line[1]), recentXid));
            } else {
                transaction.addAll(parse(data));
            }
        }
        producer.flush();
        publishedThrough.set(last);
        Barrier barrier = Barrier.of(epoch++, last);
        TopicCodec.CHANGES.recordsToEveryPartition(names.changes(), partitions, barrier).forEach(producer::send);
        producer.flush();
        return lines.size();
    }

    private void publish(List<Pending> transaction, Lsn commitLsn, long txId) {
        long seq = 0;
        for (Pending pending : transaction) {
            ChangesMessage message = pending.toMessage(commitLsn, seq++, txId);
            if (message instanceof TableWindowMarker) {
                TopicCodec.CHANGES.recordsToEveryPartition(names.changes(), partitions, message)
                    .forEach(producer::send);
            } else {
                producer.send(TopicCodec.CHANGES.recordByKey(names.changes(), partitions, message));
                published.incrementAndGet();
            }
        }
    }

    /** One decoded line: zero (other tables), one or two (primary key change) pending messages. */
    private static List<Pending> parse(String data) {
        Matcher message = MESSAGE.matcher(data);
        if (message.matches()) {
            String windowId = message.group(1);
            return List.of((lsn, seq, txId) -> TableWindowMarker.of(ItemsTable.ID, lsn, windowId));
        }
        Matcher change = CHANGE.matcher(data);
        if (!change.matches()) {
            throw new IllegalStateException("Unexpected test_decoding output: " + data);
        }
        String columns = change.group(2);
        switch (change.group(1)) {
            case "INSERT":
                return List.of(insert(columns(columns)));
            case "DELETE":
                return List.of(delete(columns(columns)));
            default:
                int newTuple = columns.indexOf("new-tuple: ");
                if (newTuple < 0) {
                    Map<String, String> row = columns(columns);
                    return List.of((lsn, seq, txId) -> ChangeEvent.update(ItemsTable.ID,
                        ItemsTable.pk(Long.parseLong(row.get("id"))), rowOf(row), lsn, seq, txId));
                }
                Map<String, String> oldKey = columns(columns.substring("old-key: ".length(), newTuple));
                return List.of(delete(oldKey), insert(columns(columns.substring(newTuple + "new-tuple: ".length()))));
        }
    }

    private static Pending insert(Map<String, String> row) {
        return (lsn, seq, txId) -> ChangeEvent.insert(ItemsTable.ID, ItemsTable.pk(Long.parseLong(row.get("id"))),
            rowOf(row), lsn, seq, txId);
    }

    private static Pending delete(Map<String, String> key) {
        return (lsn, seq, txId) -> ChangeEvent.delete(ItemsTable.ID, ItemsTable.pk(Long.parseLong(key.get("id"))),
            lsn, seq, txId);
    }

    private static RowJson rowOf(Map<String, String> row) {
        return ItemsTable.row(Long.parseLong(row.get("id")), row.get("v"), Long.parseLong(row.get("n")));
    }

    /** {@code id[integer]:5 v[text]:'x1' n[integer]:0} as column to value (the simulation's values have no spaces). */
    private static Map<String, String> columns(String text) {
        Map<String, String> values = new HashMap<>();
        for (String token : text.trim().split(" ")) {
            int bracket = token.indexOf('[');
            int colon = token.indexOf("]:");
            String value = token.substring(colon + 2);
            if (value.startsWith("'")) {
                value = value.substring(1, value.length() - 1);
            }
            values.put(token.substring(0, bracket), value);
        }
        return values;
    }

    @Override
    public void close() throws InterruptedException, SQLException {
        running.set(false);
        thread.join();
        db.execute("SELECT pg_drop_replication_slot('" + slot + "')");
    }

    /** A decoded change waiting for its transaction's commit LSN. */
    private interface Pending {
        ChangesMessage toMessage(Lsn commitLsn, long seq, long txId);
    }
}
