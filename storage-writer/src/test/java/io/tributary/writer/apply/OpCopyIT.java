package io.tributary.writer.apply;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.storage.groups.SyncRulesGroups;
import io.tributary.storage.schema.Migrations;
import io.tributary.syncrules.BucketRow;
import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

@RealServices
class OpCopyIT {

    @Test
    void opsWithEscapedAndNonAsciiTextReadBackAsWritten(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        List<BucketOp> ops = new ArrayList<>();
        ops.add(BucketOp.put(new BucketRow("by_user[\"ü\\\\1\"]", "to\tdos", "id\n1\r", "{\"t\":\"a\\\\b é 🙂\"}")));
        ops.add(BucketOp.remove(new Membership("global[]", "lists", "ß")));
        for (int i = 0; i < 3000; i++) {
            ops.add(BucketOp.put(new BucketRow("global[]", "items", Integer.toString(i), "{\"body\":\"" + "x".repeat(40)
                + i + "\"}")));
        }
        try (Connection c = db.connect()) {
            Migrations.migrate(c);
            long group = SyncRulesGroups.create(c, "bucket_definitions: {}").id();
            c.setAutoCommit(false);
            long[] ids = new long[ops.size()];
            for (int i = 0; i < ids.length; i++) {
                ids[i] = i < 10 ? i + 1 : 12_884_901_888L + 1_000_003L * i;
            }
            OpCopy.write(c, group, ops, ids);
            c.commit();

            List<BucketOp> read = new ArrayList<>();
            List<Long> readIds = new ArrayList<>();
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT op, bucket, source_table,"
                + " row_id, checksum, data, op_id FROM tributary.bucket_data WHERE group_id = " + group
                + " ORDER BY op_id")) {
                while (rs.next()) {
                    readIds.add(rs.getLong(7));
                    OpKind kind = rs.getInt(1) == OpKind.PUT.code() ? OpKind.PUT : OpKind.REMOVE;
                    read.add(new BucketOp(kind, rs.getString(2), rs.getString(3), rs.getString(4), rs.getLong(5),
                        Optional.ofNullable(rs.getString(6))));
                }
            }
            assertThat(read).containsExactlyElementsOf(ops);
            assertThat(readIds).containsExactlyElementsOf(Arrays.stream(ids).boxed().toList());
        }
    }

    @Test
    void opsLandInTheOrderOfTheKeyByBucketThenOpId(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        List<String> buckets = List.of("by_owner[\"u2\"]", "by_owner[\"u1\"]", "global[]");
        List<BucketOp> ops = new ArrayList<>();
        long[] ids = new long[300];
        for (int i = 0; i < ids.length; i++) {
            ops.add(BucketOp.put(new BucketRow(buckets.get(i % 3), "items", Integer.toString(i), "{\"n\":" + i + "}")));
            ids[i] = 1000 + i;
        }
        try (Connection c = db.connect()) {
            Migrations.migrate(c);
            long group = SyncRulesGroups.create(c, "bucket_definitions: {}").id();
            c.setAutoCommit(false);
            OpCopy.write(c, group, ops, ids);
            c.commit();

            List<String> stored = new ArrayList<>();
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT bucket, op_id"
                + " FROM tributary.bucket_data_g" + group + " ORDER BY ctid")) {
                while (rs.next()) {
                    stored.add(rs.getString(1) + " " + rs.getLong(2));
                }
            }
            List<String> keyOrder = new ArrayList<>();
            for (String bucket : buckets.stream().sorted().toList()) {
                for (int i = 0; i < ids.length; i++) {
                    if (buckets.get(i % 3).equals(bucket)) {
                        keyOrder.add(bucket + " " + ids[i]);
                    }
                }
            }
            assertThat(stored).containsExactlyElementsOf(keyOrder);
        }
    }
}
