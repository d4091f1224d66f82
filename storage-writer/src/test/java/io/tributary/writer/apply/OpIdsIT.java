package io.tributary.writer.apply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.storage.schema.Migrations;
import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

@RealServices
class OpIdsIT {

    @Test
    void eachAllocationTakesOneSequenceValuePerBlockAndIdsNeverRepeat(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        try (Connection a = db.connect(); Connection b = db.connect()) {
            Migrations.migrate(a);
            long[] first = OpIds.allocate(a, 1);
            long[] second = OpIds.allocate(b, 2 * OpIds.BLOCK + 500);
            long[] third = OpIds.allocate(a, OpIds.BLOCK);

            assertThat(first).hasSize(1);
            assertThat(second).hasSize(2 * OpIds.BLOCK + 500).isSorted();
            assertThat(third).hasSize(OpIds.BLOCK).isSorted();
            assertThat(second[0]).isGreaterThan(first[0]);
            assertThat(third[0]).isGreaterThan(second[second.length - 1]);
            Set<Long> all = new HashSet<>();
            for (long[] ids : new long[][] {first, second, third}) {
                Arrays.stream(ids).forEach(all::add);
            }
            assertThat(all).hasSize(1 + 3 * OpIds.BLOCK + 500);
            assertThat(sequenceValuesTaken(a)).isEqualTo(1 + 3 + 1);
        }
    }

    @Test
    void aSequenceThatDoesNotIncrementByTheBlockIsRefused(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            Migrations.migrate(c);
            s.execute("ALTER SEQUENCE tributary.op_id_seq INCREMENT BY 1");

            assertThatThrownBy(() -> OpIds.allocate(c, 10))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("tributary.op_id_seq increments by 1,")
                .hasMessageContaining("blocks of " + OpIds.BLOCK);
        }
    }

    private static long sequenceValuesTaken(Connection c) throws Exception {
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT (last_value - 1) / " + OpIds.BLOCK + " + 1"
                 + " FROM tributary.op_id_seq")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
