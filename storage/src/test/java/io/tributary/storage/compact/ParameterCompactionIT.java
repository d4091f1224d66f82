package io.tributary.storage.compact;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.storage.groups.SyncRulesGroups;
import io.tributary.storage.parameters.ParameterLookupsAt;
import io.tributary.storage.schema.Migrations;
import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.testing.random.Seeds;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Compaction of parameter lookups: after a pass up to the published checkpoint P, a lookup at every checkpoint
 * from P on sees what it saw before, one version per live (lookup, source row) remains at or below P, a lookup
 * below P is refused rather than answered wrong, the next pass reads only what was appended since, and a writer's
 * open transaction does not hold a pass up. Random histories; the seed is printed and taken back with
 * {@code -Dtributary.seed}.
 */
@RealServices
class ParameterCompactionIT {

    private static final List<String> LOOKUPS = List.of("[\"d\",0,\"u1\"]", "[\"d\",0,\"u2\"]", "[\"d\",0,\"u3\"]",
        "[\"e\",0,7]");
    private static final int KEYS = 12;
    private static final String INSERT = "INSERT INTO tributary.bucket_parameters"
        + " (group_id, lookup, source_key, op_id, source_partition, parameters) VALUES (?, ?, ?, ?, 0, ?)";

    @Test
    void aLookupFromTheCompactedCheckpointOnSeesWhatItSawBefore(TestServices services) throws Exception {
        Random random = new Random(Seeds.fromProperty("tributary.seed"));
        PostgresDatabase db = services.newDatabase();
        try (Connection c = db.connect()) {
            Migrations.migrate(c);
            long group = SyncRulesGroups.create(c, "bucket_definitions: {}").id();
            History history = new History(c, group, random);
            history.append(600);
            long first = history.publishAt(0.6);
            Map<Long, Map<String, List<String>>> before = history.readAll(first, history.last());

            CompactionResult result = BucketCompactor.ofBatch(7).compact(c, group);

            assertThat(result.checkpoint()).isEqualTo(first);
            assertThat(result.parameterVersions()).as("superseded versions deleted").isPositive();
            assertThat(history.readAll(first, history.last())).as("lookups at every checkpoint from P on")
                .isEqualTo(before);
            assertThat(ParameterLookupsAt.read(c, group, LOOKUPS, first - 1)).as("a lookup below P").isEmpty();
            assertThat(ParameterLookupsAt.changedBetween(c, group, first - 1, first)).isEmpty();
            assertThat(history.versionsAtOrBelow(first)).as("one version per live pair at or below P")
                .isEqualTo(history.livePairsAt(first));
            assertThat(history.cursor()).isEqualTo(first);

            history.append(300);
            long second = history.publishAt(0.8);
            Set<String> changed = ParameterLookupsAt.changedBetween(c, group, first, second).orElseThrow();
            assertThat(changed).as("lookups with a version since P").isEqualTo(history.lookupsWrittenIn(first, second));
            before = history.readAll(second, history.last());
            long untouchedBelowFirst = history.versionsAtOrBelow(first);

            CompactionResult again = BucketCompactor.ofBatch(7).compact(c, group);

            assertThat(again.checkpoint()).isEqualTo(second);
            assertThat(history.readAll(second, history.last())).isEqualTo(before);
            assertThat(history.versionsAtOrBelow(second)).isEqualTo(history.livePairsAt(second));
            assertThat(again.parameterVersions()).as("only pairs written since the last pass are compacted")
                .isLessThanOrEqualTo(history.versionsWrittenIn(first, second) + untouchedBelowFirst);
            assertThat(history.cursor()).isEqualTo(second);
        }
    }

    @Test
    void aWritersOpenTransactionDoesNotHoldAPassUp(TestServices services) throws Exception {
        Random random = new Random(Seeds.fromProperty("tributary.seed"));
        PostgresDatabase db = services.newDatabase();
        try (Connection c = db.connect(); Connection writer = db.connect()) {
            Migrations.migrate(c);
            long group = SyncRulesGroups.create(c, "bucket_definitions: {}").id();
            History history = new History(c, group, random);
            history.append(200);
            long published = history.publishAt(1.0);
            writer.setAutoCommit(false);
            new History(writer, group, random).appendFrom(published + 1, 50);
            try (Statement read = writer.createStatement()) {
                read.executeQuery("SELECT DISTINCT ON (source_key, lookup) source_key, lookup FROM"
                    + " tributary.bucket_parameters WHERE group_id = " + group + " ORDER BY source_key, lookup,"
                    + " op_id DESC").close();
            }

            CompletableFuture<CompactionResult> pass = CompletableFuture.supplyAsync(() -> {
                try (Connection compactor = db.connect()) {
                    return BucketCompactor.ofBatch(7).compact(compactor, group);
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            });

            assertThat(pass.get(60, TimeUnit.SECONDS).parameterVersions()).isPositive();
            writer.commit();
            assertThat(history.versionsAtOrBelow(published)).isEqualTo(history.livePairsAt(published));
        }
    }

    /** A random history of versions written as the storage writers write them, and reads of it. */
    private static final class History {
        private final Connection connection;
        private final long group;
        private final Random random;
        private final Map<String, String> current = new HashMap<>();
        private final List<long[]> written = new ArrayList<>();
        private final List<String> writtenLookups = new ArrayList<>();
        private long last;

        History(Connection connection, long group, Random random) {
            this.connection = connection;
            this.group = group;
            this.random = random;
        }

        void append(int versions) throws SQLException {
            appendFrom(last + 1, versions);
        }

        /** Appends {@code versions} versions from op id {@code from}: a new value or, for a live pair, a removal. */
        void appendFrom(long from, int versions) throws SQLException {
            long opId = from - 1;
            try (PreparedStatement insert = connection.prepareStatement(INSERT)) {
                for (int i = 0; i < versions; i++) {
                    opId += 1 + random.nextInt(3);
                    String lookup = LOOKUPS.get(random.nextInt(LOOKUPS.size()));
                    int key = random.nextInt(KEYS);
                    String pair = lookup + "/" + key;
                    String parameters = current.containsKey(pair) && random.nextInt(3) == 0 ? null
                        : "{\"list_id\":\"l" + random.nextInt(4) + "\"}";
                    if (parameters == null) {
                        current.remove(pair);
                    } else {
                        current.put(pair, parameters);
                    }
                    insert.setLong(1, group);
                    insert.setString(2, lookup);
                    insert.setBytes(3, new byte[] {(byte) key});
                    insert.setLong(4, opId);
                    insert.setString(5, parameters);
                    insert.addBatch();
                    written.add(new long[] {opId});
                    writtenLookups.add(lookup);
                }
                insert.executeBatch();
            }
            last = Math.max(last, opId);
        }

        long last() {
            return last;
        }

        /** Publishes the op id of the version at {@code fraction} of the history as the group's checkpoint. */
        long publishAt(double fraction) throws SQLException {
            long opId = written.get((int) Math.round(fraction * (written.size() - 1)))[0];
            try (Statement publish = connection.createStatement()) {
                publish.executeUpdate("UPDATE tributary.sync_rules SET checkpoint_op_id = " + opId
                    + ", checkpoint_lsn = '0/1', checkpoint_epoch = 1 WHERE group_id = " + group);
            }
            return opId;
        }

        Map<Long, Map<String, List<String>>> readAll(long from, long to) throws SQLException {
            Map<Long, Map<String, List<String>>> reads = new LinkedHashMap<>();
            for (long checkpoint = from; checkpoint <= to; checkpoint++) {
                Optional<Map<String, List<String>>> read = ParameterLookupsAt.read(connection, group, LOOKUPS,
                    checkpoint);
                assertThat(read).as("a lookup at %d", checkpoint).isPresent();
                reads.put(checkpoint, read.get());
            }
            return reads;
        }

        long versionsAtOrBelow(long opId) throws SQLException {
            return count("SELECT count(*) FROM tributary.bucket_parameters WHERE group_id = " + group
                + " AND op_id <= " + opId);
        }

        long livePairsAt(long opId) throws SQLException {
            return count("SELECT count(*) FROM (SELECT DISTINCT ON (lookup, source_key) parameters FROM"
                + " tributary.bucket_parameters WHERE group_id = " + group + " AND op_id <= " + opId
                + " ORDER BY lookup, source_key, op_id DESC) n WHERE parameters IS NOT NULL");
        }

        long cursor() throws SQLException {
            return count("SELECT parameters_compacted_to FROM tributary.compaction_state WHERE group_id = " + group);
        }

        long versionsWrittenIn(long from, long to) {
            return written.stream().filter(w -> w[0] > from && w[0] <= to).count();
        }

        Set<String> lookupsWrittenIn(long from, long to) {
            Set<String> lookups = new java.util.TreeSet<>();
            for (int i = 0; i < written.size(); i++) {
                if (written.get(i)[0] > from && written.get(i)[0] <= to) {
                    lookups.add(writtenLookups.get(i));
                }
            }
            return lookups;
        }

        private long count(String sql) throws SQLException {
            try (Statement statement = connection.createStatement(); ResultSet rs = statement.executeQuery(sql)) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
