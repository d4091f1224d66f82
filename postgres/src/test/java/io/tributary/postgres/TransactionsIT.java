package io.tributary.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

@RealServices
class TransactionsIT {

    @Test
    void workThatReturnsIsCommittedAndAutoCommitRestored(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        db.execute("CREATE TABLE t (id int PRIMARY KEY)");
        try (Connection c = db.connect()) {
            int inserted = Transactions.inTransaction(c, () -> insert(c, 1) + insert(c, 2));

            assertThat(inserted).isEqualTo(2);
            assertThat(c.getAutoCommit()).isTrue();
        }
        assertThat(count(db)).isEqualTo(2);
    }

    @Test
    void workThatThrowsIsRolledBackAndItsFailureRethrown(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        db.execute("CREATE TABLE t (id int PRIMARY KEY)");
        try (Connection c = db.connect()) {
            assertThatThrownBy(() -> Transactions.inTransaction(c, () -> insert(c, 1) + insert(c, 1)))
                .isInstanceOf(SQLException.class).extracting(e -> ((SQLException) e).getSQLState())
                .isEqualTo("23505");
            assertThatThrownBy(() -> Transactions.inTransaction(c, () -> {
                insert(c, 3);
                throw new IllegalStateException("bug");
            })).isInstanceOf(IllegalStateException.class).hasMessage("bug");

            assertThat(c.getAutoCommit()).isTrue();
        }
        assertThat(count(db)).isZero();
    }

    private static int insert(Connection c, int id) throws SQLException {
        try (Statement s = c.createStatement()) {
            return s.executeUpdate("INSERT INTO t VALUES (" + id + ")");
        }
    }

    private static long count(PostgresDatabase db) throws SQLException {
        try (Connection c = db.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM t")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
