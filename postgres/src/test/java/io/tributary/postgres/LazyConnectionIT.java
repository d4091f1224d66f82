package io.tributary.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Properties;
import org.junit.jupiter.api.Test;

@RealServices
class LazyConnectionIT {

    @Test
    void theConnectionIsOpenedOnceAndPreparedBySetup(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        try (LazyConnection lazy = new LazyConnection(PgEndpointIT.endpoint(db), new Properties(),
            c -> c.setAutoCommit(false))) {
            Connection first = lazy.get();

            assertThat(lazy.get()).isSameAs(first);
            assertThat(first.getAutoCommit()).isFalse();
        }
    }

    @Test
    void aBrokenConnectionIsReplaced(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        try (LazyConnection lazy = new LazyConnection(PgEndpointIT.endpoint(db));
             Connection admin = db.connect()) {
            int pid = PgEndpointIT.pid(lazy.get());
            try (Statement s = admin.createStatement()) {
                s.execute("SELECT pg_terminate_backend(" + pid + ")");
            }

            lazy.discardIfBroken();

            assertThat(PgEndpointIT.pid(lazy.get())).isNotEqualTo(pid);
        }
    }

    @Test
    void aWorkingConnectionIsKeptAndADiscardedOneReplaced(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        try (LazyConnection lazy = new LazyConnection(PgEndpointIT.endpoint(db))) {
            Connection first = lazy.get();
            lazy.discardIfBroken();
            assertThat(lazy.get()).isSameAs(first);

            lazy.discard();

            assertThat(first.isClosed()).isTrue();
            assertThat(lazy.get()).isNotSameAs(first);
        }
    }

    @Test
    void rollbackQuietlyEndsTheOpenTransaction(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        db.execute("CREATE TABLE t (id int)");
        try (LazyConnection lazy = new LazyConnection(PgEndpointIT.endpoint(db), new Properties(),
            c -> c.setAutoCommit(false))) {
            lazy.rollbackQuietly();
            try (Statement s = lazy.get().createStatement()) {
                s.execute("INSERT INTO t VALUES (1)");
            }

            lazy.rollbackQuietly();
            lazy.get().commit();
        }
        try (Connection c = db.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM t")) {
            rs.next();
            assertThat(rs.getLong(1)).isZero();
        }
    }
}
