package io.tributary.bench.probe;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The probe finds a running Postgres server's processes and measures them. */
@RealServices
class MemoryProbeIT {

    @Test
    void theServerIsItsPostmasterAndItsBackends(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        try (Connection c = db.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT pg_backend_pid()")) {
            rs.next();
            long backend = rs.getLong(1);
            long postmaster = ServerProcesses.parentOf(backend);
            assertThat(ServerProcesses.of(postmaster)).contains(postmaster, backend);
            try (MemoryProbe probe = MemoryProbe.start(List.of(postmaster))) {
                assertThat(probe.peak().postgresKib()).isPositive();
            }
        }
    }
}
