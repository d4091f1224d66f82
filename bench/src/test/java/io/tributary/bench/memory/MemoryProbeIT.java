package io.tributary.bench.memory;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
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
            long postmaster = MemoryProbe.parentOf(backend);
            try (MemoryProbe probe = MemoryProbe.start(postmaster)) {
                assertThat(probe.serverProcesses()).contains(postmaster, backend);
                assertThat(probe.peak().postgresKib()).isPositive();
            }
        }
    }
}
