package io.tributary.bench.storage;

import io.tributary.embedded.EmbeddedPostgres;
import io.tributary.postgres.PgEndpoint;
import io.tributary.storage.groups.SyncRulesGroups;
import io.tributary.storage.schema.Migrations;
import io.tributary.writer.apply.OpIds;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

/**
 * Postgres CPU per row of each statement shape the storage writer could use for a batch of new rows, measured on the
 * backend that runs it ({@code /proc/<backend pid>/stat}, so nothing else on the box counts): the ops into
 * {@code bucket_data} by text and by binary COPY, in change order (each batch spread over its 1,000 buckets) and in
 * the order of the key (the writer's), {@code current_data} by insert-if-absent from {@code unnest} arrays
 * returning the inserted keys and by binary COPY (through the partitioned table and into the group's partition), and
 * op ids from {@code nextval} per op and as the writer takes them (one {@code nextval} per block of 1,000). Each
 * shape writes {@code rows} rows of the bench's ~500 B shape into a fresh group, in transactions of {@code batch}
 * rows. Two more shapes change {@code current_data} rows that are all stored already (streamed updates):
 * insert-if-absent, then a select and an update of the keys it did not insert; and one update that returns the rows
 * as they were.
 *
 * <p>Usage: {@code java -cp <bench classpath> io.tributary.bench.storage.StatementCosts [rows] [batch] [rounds]
 * [only]} (defaults 200,000, 5,000, 3, every shape); prints one line per shape and round. With {@code only}, only the
 * first shapes whose names contain it run. Starts its own embedded Postgres.
 */
public final class StatementCosts {

    private static final long TICKS_PER_SECOND = 100;

    private StatementCosts() {
    }

    /** One way to write a batch of rows {@code from..from+count-1} of group {@code group}. */
    @FunctionalInterface
    private interface Shape {
        void write(Connection c, long group, int from, int count) throws Exception;
    }

    public static void main(String[] args) throws Exception {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        int batch = args.length > 1 ? Integer.parseInt(args[1]) : 5_000;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        String only = args.length > 3 ? args[3] : "";
        try (EmbeddedPostgres server = EmbeddedPostgres.start()) {
            server.createDatabase("costs");
            PgEndpoint storage = new PgEndpoint(server.jdbcUrl("costs"), server.superuser(), "");
            try (Connection c = storage.connect()) {
                Migrations.migrate(c);
            }
            List<String> names = List.of("bucket_data COPY text", "bucket_data COPY binary",
                "bucket_data COPY binary in key order (the writer's)",
                "current_data INSERT unnest ON CONFLICT RETURNING", "current_data COPY binary",
                "current_data COPY binary into its partition", "op ids: nextval per op",
                "op ids: nextval per block of 1,000 (the writer's)");
            List<Shape> shapes = List.of(StatementCosts::opsText, StatementCosts::opsBinary,
                StatementCosts::opsBinaryInKeyOrder,
                StatementCosts::currentInsert, StatementCosts::currentBinary, StatementCosts::currentBinaryPartition,
                StatementCosts::nextvals, StatementCosts::nextvalBlocks);
            for (int round = 0; round < rounds; round++) {
                for (int i = 0; i < shapes.size(); i++) {
                    if (names.get(i).contains(only)) {
                        measure(storage, names.get(i), shapes.get(i), rows, batch);
                    }
                }
                if (!only.isEmpty()) {
                    continue;
                }
                loadThenIndex(storage, "bucket_data", "(group_id, bucket, op_id)", StatementCosts::opsBinary, rows,
                    batch);
                loadThenIndex(storage, "current_data", "(group_id, source_key)", StatementCosts::currentBinary, rows,
                    batch);
                measureOverStored(storage, "current_data stored: INSERT ON CONFLICT, SELECT, UPDATE",
                    StatementCosts::storedInsertSelectUpdate, rows, batch);
                measureOverStored(storage, "current_data stored: UPDATE returning rows before",
                    StatementCosts::storedUpdateReturning, rows, batch);
            }
        }
    }

    private static void measure(PgEndpoint storage, String name, Shape shape, int rows, int batch) throws Exception {
        try (Connection c = storage.connect()) {
            c.setAutoCommit(true);
            long group = SyncRulesGroups.create(c, "bucket_definitions: {}").id();
            c.setAutoCommit(false);
            long pid = backendPid(c);
            long ticks = ticks(pid);
            long start = System.nanoTime();
            for (int from = 0; from < rows; from += batch) {
                shape.write(c, group, from, Math.min(batch, rows - from));
                c.commit();
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            double cpu = (ticks(pid) - ticks) / (double) TICKS_PER_SECOND;
            System.out.printf(Locale.ROOT, "%-50s %,9d rows  backend CPU %6.2f us/row  wall %6.2f us/row%n", name,
                rows, cpu * 1e6 / rows, seconds * 1e6 / rows);
        }
    }

    /** As {@link #measure}, over a group whose {@code current_data} holds every key already (not measured). */
    private static void measureOverStored(PgEndpoint storage, String name, Shape shape, int rows, int batch)
        throws Exception {
        try (Connection c = storage.connect()) {
            c.setAutoCommit(true);
            long group = SyncRulesGroups.create(c, "bucket_definitions: {}").id();
            c.setAutoCommit(false);
            for (int from = 0; from < rows; from += batch) {
                currentBinary(c, group, from, Math.min(batch, rows - from));
                c.commit();
            }
            try (Statement s = c.createStatement()) {
                s.execute("ANALYZE tributary.current_data_g" + group);
            }
            c.commit();
            long pid = backendPid(c);
            long ticks = ticks(pid);
            long start = System.nanoTime();
            for (int from = 0; from < rows; from += batch) {
                shape.write(c, group, from, Math.min(batch, rows - from));
                c.commit();
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            double cpu = (ticks(pid) - ticks) / (double) TICKS_PER_SECOND;
            System.out.printf(Locale.ROOT, "%-50s %,9d rows  backend CPU %6.2f us/row  wall %6.2f us/row%n", name,
                rows, cpu * 1e6 / rows, seconds * 1e6 / rows);
        }
    }

    /**
     * The load phase of pg_restore: the same binary COPY into a copy of a group's {@code table} partition without
     * its primary key, then the key's unique index built once over the loaded rows.
     */
    private static void loadThenIndex(PgEndpoint storage, String table, String key, Shape shape, int rows, int batch)
        throws Exception {
        try (Connection c = storage.connect()) {
            c.setAutoCommit(true);
            long group = SyncRulesGroups.create(c, "bucket_definitions: {}").id();
            String partition = "tributary." + table + "_g" + group;
            try (Statement s = c.createStatement()) {
                s.execute("ALTER TABLE tributary." + table + " DETACH PARTITION " + partition);
                s.execute("ALTER TABLE " + partition + " DROP CONSTRAINT " + table + "_g" + group + "_pkey");
                s.execute("ALTER TABLE tributary." + table + " RENAME TO " + table + "_parent");
                s.execute("ALTER TABLE " + partition + " RENAME TO " + table);
            }
            c.setAutoCommit(false);
            long pid = backendPid(c);
            long ticks = ticks(pid);
            for (int from = 0; from < rows; from += batch) {
                shape.write(c, group, from, Math.min(batch, rows - from));
                c.commit();
            }
            long loaded = ticks(pid);
            try (Statement s = c.createStatement()) {
                s.execute("CREATE UNIQUE INDEX ON tributary." + table + " " + key);
            }
            c.commit();
            long indexed = ticks(pid);
            System.out.printf(Locale.ROOT, "%-50s %,9d rows  backend CPU %6.2f us/row load + %5.2f us/row index%n",
                table + " COPY binary, no index, then index", rows,
                (loaded - ticks) * 1e6 / TICKS_PER_SECOND / rows, (indexed - loaded) * 1e6 / TICKS_PER_SECOND / rows);
            c.setAutoCommit(true);
            try (Statement s = c.createStatement()) {
                s.execute("DROP TABLE tributary." + table);
                s.execute("ALTER TABLE tributary." + table + "_parent RENAME TO " + table);
            }
        }
    }

    private static String data(int i) {
        return "{\"id\":" + i + ",\"owner\":\"u" + (i % 1000) + "\",\"title\":\"item number " + i + "\",\"body\":\""
            + "0123456789abcdef0123456789abcdef".repeat(13) + "\",\"n\":" + (i % 100)
            + ",\"updated_at\":\"2026-01-01T00:00:00.000000Z\"}";
    }

    private static String bucket(int i) {
        return "by_owner_v1[\"u" + (i % 1000) + "\"]";
    }

    private static byte[] key(int i) {
        return ("[1,\"r\",\"public\",\"items\",[" + i + "]]").getBytes(StandardCharsets.UTF_8);
    }

    private static String memberships(int i) {
        return "[[\"by_owner_v1[\\\"u" + (i % 1000) + "\\\"]\",\"items\",\"" + i + "\"]]";
    }

    private static void opsText(Connection c, long group, int from, int count) throws Exception {
        StringBuilder text = new StringBuilder();
        for (int i = from; i < from + count; i++) {
            text.append(group).append('\t').append(bucket(i)).append('\t').append(i + 1).append("\t1\titems\t")
                .append(i).append('\t').append(i).append('\t').append(data(i)).append('\n');
        }
        copy(c, "COPY tributary.bucket_data (group_id, bucket, op_id, op, source_table, row_id, checksum, data)"
            + " FROM STDIN", text.toString().getBytes(StandardCharsets.UTF_8));
    }

    private static void opsBinary(Connection c, long group, int from, int count) throws Exception {
        copyOps(c, group, IntStream.range(from, from + count).toArray());
    }

    private static void opsBinaryInKeyOrder(Connection c, long group, int from, int count) throws Exception {
        copyOps(c, group, IntStream.range(from, from + count).boxed()
            .sorted(Comparator.comparing(StatementCosts::bucket).thenComparingInt(i -> i)).mapToInt(i -> i).toArray());
    }

    /** Copies the ops of rows {@code rows}, in that order. */
    private static void copyOps(Connection c, long group, int[] rows) throws Exception {
        Binary out = new Binary();
        for (int i : rows) {
            out.tuple(8).int8(group).text(bucket(i)).int8(i + 1).int2(1).text("items").text(Integer.toString(i))
                .int8(i).text(data(i));
        }
        copy(c, "COPY tributary.bucket_data (group_id, bucket, op_id, op, source_table, row_id, checksum, data)"
            + " FROM STDIN (FORMAT binary)", out.finish());
    }

    private static void currentInsert(Connection c, long group, int from, int count) throws Exception {
        byte[][] keys = new byte[count][];
        String[] memberships = new String[count];
        Integer[] partitions = new Integer[count];
        long[] offsets = new long[count];
        for (int i = 0; i < count; i++) {
            keys[i] = key(from + i);
            memberships[i] = memberships(from + i);
            partitions[i] = 0;
            offsets[i] = from + i;
        }
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO tributary.current_data"
            + " (group_id, source_key, buckets, source_partition, source_offset)"
            + " SELECT ?, u.k, u.b, u.p, u.o FROM unnest(?::bytea[], ?::text[], ?::int[], ?::bigint[]) AS u(k, b, p, o)"
            + " ON CONFLICT (group_id, source_key) DO NOTHING RETURNING source_key")) {
            Array keyArray = c.createArrayOf("bytea", keys);
            insert.setLong(1, group);
            insert.setArray(2, keyArray);
            insert.setArray(3, c.createArrayOf("text", memberships));
            insert.setArray(4, c.createArrayOf("int4", partitions));
            insert.setArray(5, c.unwrap(PGConnection.class).createArrayOf("int8", offsets));
            try (ResultSet rs = insert.executeQuery()) {
                while (rs.next()) {
                    rs.getBytes(1);
                }
            }
        }
    }

    /** The lookup path before: insert-if-absent returning the new keys, then select and update the others. */
    private static void storedInsertSelectUpdate(Connection c, long group, int from, int count) throws Exception {
        Batch b = Batch.of(c, from, count);
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO tributary.current_data"
            + " (group_id, source_key, buckets, source_partition, source_offset)"
            + " SELECT ?, u.k, u.b, u.p, u.o FROM unnest(?::bytea[], ?::text[], ?::int[], ?::bigint[]) AS u(k, b, p, o)"
            + " ON CONFLICT (group_id, source_key) DO NOTHING RETURNING source_key")) {
            insert.setLong(1, group);
            insert.setArray(2, b.keys);
            insert.setArray(3, b.memberships);
            insert.setArray(4, b.partitions);
            insert.setArray(5, b.offsets);
            drain(insert);
        }
        try (PreparedStatement select = c.prepareStatement("SELECT source_key, buckets FROM tributary.current_data"
            + " WHERE group_id = ? AND source_key = ANY(?::bytea[])")) {
            select.setLong(1, group);
            select.setArray(2, b.keys);
            drain(select);
        }
        try (PreparedStatement update = c.prepareStatement("UPDATE tributary.current_data c"
            + " SET buckets = u.b, source_partition = u.p, source_offset = u.o"
            + " FROM unnest(?::bytea[], ?::text[], ?::int[], ?::bigint[]) AS u(k, b, p, o)"
            + " WHERE c.group_id = ? AND c.source_key = u.k")) {
            update.setArray(1, b.keys);
            update.setArray(2, b.memberships);
            update.setArray(3, b.partitions);
            update.setArray(4, b.offsets);
            update.setLong(5, group);
            update.executeUpdate();
        }
    }

    /** The lookup path now: one statement updates the stored rows and returns them as they were. */
    private static void storedUpdateReturning(Connection c, long group, int from, int count) throws Exception {
        Batch b = Batch.of(c, from, count);
        try (PreparedStatement update = c.prepareStatement("WITH before AS (SELECT source_key, buckets"
            + " FROM tributary.current_data WHERE group_id = ? AND source_key = ANY(?::bytea[])),"
            + " updated AS (UPDATE tributary.current_data c SET buckets = u.b, source_partition = u.p,"
            + " source_offset = u.o FROM unnest(?::bytea[], ?::text[], ?::int[], ?::bigint[]) AS u(k, b, p, o)"
            + " WHERE c.group_id = ? AND c.source_key = u.k) SELECT source_key, buckets FROM before")) {
            update.setLong(1, group);
            update.setArray(2, b.keys);
            update.setArray(3, b.keys);
            update.setArray(4, b.memberships);
            update.setArray(5, b.partitions);
            update.setArray(6, b.offsets);
            update.setLong(7, group);
            drain(update);
        }
    }

    /** The arrays of a batch of rows {@code from..from+count-1}, as the writer binds them. */
    private record Batch(Array keys, Array memberships, Array partitions, Array offsets) {

        static Batch of(Connection c, int from, int count) throws SQLException {
            byte[][] keys = new byte[count][];
            String[] memberships = new String[count];
            Integer[] partitions = new Integer[count];
            long[] offsets = new long[count];
            for (int i = 0; i < count; i++) {
                keys[i] = key(from + i);
                memberships[i] = StatementCosts.memberships(from + i);
                partitions[i] = 0;
                offsets[i] = from + i + 1_000_000L;
            }
            return new Batch(c.createArrayOf("bytea", keys), c.createArrayOf("text", memberships),
                c.createArrayOf("int4", partitions), c.unwrap(PGConnection.class).createArrayOf("int8", offsets));
        }
    }

    private static void drain(PreparedStatement statement) throws SQLException {
        try (ResultSet rs = statement.executeQuery()) {
            while (rs.next()) {
                rs.getBytes(1);
            }
        }
    }

    private static void currentBinary(Connection c, long group, int from, int count) throws Exception {
        Binary out = new Binary();
        for (int i = from; i < from + count; i++) {
            out.tuple(5).int8(group).bytes(key(i)).text(memberships(i)).int4(0).int8(i);
        }
        copy(c, "COPY tributary.current_data (group_id, source_key, buckets, source_partition, source_offset)"
            + " FROM STDIN (FORMAT binary)", out.finish());
    }

    /** As {@link #currentBinary}, into the group's partition itself (no routing through the parent). */
    private static void currentBinaryPartition(Connection c, long group, int from, int count) throws Exception {
        Binary out = new Binary();
        for (int i = from; i < from + count; i++) {
            out.tuple(5).int8(group).bytes(key(i)).text(memberships(i)).int4(0).int8(i);
        }
        copy(c, "COPY tributary.current_data_g" + group
            + " (group_id, source_key, buckets, source_partition, source_offset) FROM STDIN (FORMAT binary)",
            out.finish());
    }

    private static void nextvals(Connection c, long group, int from, int count) throws Exception {
        try (PreparedStatement allocate = c.prepareStatement(
            "SELECT nextval('tributary.op_id_seq') FROM generate_series(1, ?)")) {
            allocate.setInt(1, count);
            try (ResultSet rs = allocate.executeQuery()) {
                while (rs.next()) {
                    rs.getLong(1);
                }
            }
        }
    }

    private static void nextvalBlocks(Connection c, long group, int from, int count) throws Exception {
        OpIds.allocate(c, count);
    }

    private static void copy(Connection c, String sql, byte[] bytes) throws SQLException {
        CopyIn copy = c.unwrap(PGConnection.class).getCopyAPI().copyIn(sql);
        copy.writeToCopy(bytes, 0, bytes.length);
        copy.endCopy();
    }

    private static long backendPid(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT pg_backend_pid()")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static long ticks(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }

    /** Postgres' binary COPY format. */
    private static final class Binary {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final DataOutputStream out = new DataOutputStream(bytes);

        Binary() throws IOException {
            out.write(HexFormat.of().parseHex("5047434f50590aff0d0a00"));
            out.writeInt(0);
            out.writeInt(0);
        }

        Binary tuple(int fields) throws IOException {
            out.writeShort(fields);
            return this;
        }

        Binary int8(long value) throws IOException {
            out.writeInt(8);
            out.writeLong(value);
            return this;
        }

        Binary int4(int value) throws IOException {
            out.writeInt(4);
            out.writeInt(value);
            return this;
        }

        Binary int2(int value) throws IOException {
            out.writeInt(2);
            out.writeShort(value);
            return this;
        }

        Binary text(String value) throws IOException {
            return bytes(value.getBytes(StandardCharsets.UTF_8));
        }

        Binary bytes(byte[] value) throws IOException {
            out.writeInt(value.length);
            out.write(value);
            return this;
        }

        byte[] finish() throws IOException {
            out.writeShort(-1);
            return bytes.toByteArray();
        }
    }
}
