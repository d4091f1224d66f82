package io.tributary.bench.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The probe counts a backend's CPU after the backend exited, and the JVM's own. */
@RealServices
class CpuProbeIT {

    @Test
    void anExitedBackendsCpuStaysCounted(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        CpuProbe probe;
        CpuUse before;
        long backend;
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            backend = scalar(s, "SELECT pg_backend_pid()");
            probe = CpuProbe.of(List.of(ServerProcesses.parentOf(backend)));
            before = probe.total();
            scalar(s, "SELECT count(*) FROM generate_series(1, 3000000) i WHERE md5(i::text) LIKE 'a%'");
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> !Files.exists(Path.of("/proc/" + backend)));
        long jvmStart = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
        long spin = 0;
        while (ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - jvmStart < 300_000_000L) {
            spin += Long.hashCode(spin * 31 + 7);
        }

        CpuUse used = probe.total().since(before);

        assertThat(used.postgresSeconds()).as("md5 of 3M numbers in an exited backend").isGreaterThan(0.3);
        assertThat(used.jvmSeconds()).as("0.3 s spun on this thread (%d)", spin).isGreaterThanOrEqualTo(0.25);
        assertThat(used.jitSeconds()).isLessThanOrEqualTo(used.jvmSeconds());
    }

    @Test
    void aJvmsCpuIsReadByItsPid() {
        CpuUse before = CpuProbe.of(List.of()).total();
        long start = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
        long spin = 0;
        while (ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - start < 200_000_000L) {
            spin += Long.hashCode(spin * 31 + 7);
        }

        CpuUse byPid = CpuProbe.ofJvm(ProcessHandle.current().pid());

        assertThat(byPid.jvmSeconds()).as("0.2 s spun on this thread (%d)", spin)
            .isGreaterThanOrEqualTo(before.jvmSeconds() + 0.15);
        assertThat(byPid.jitSeconds()).isLessThanOrEqualTo(byPid.jvmSeconds());
        assertThat(byPid.postgresSeconds()).isZero();
    }

    private static long scalar(Statement s, String sql) throws Exception {
        try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
