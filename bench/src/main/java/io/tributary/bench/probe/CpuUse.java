package io.tributary.bench.probe;

import java.util.Locale;

/**
 * CPU time in seconds (user + system), as a running total or the difference of two totals: the bench JVM's
 * (Kafka broker, every Tributary role and the Debezium engines run in it), the part of it its JIT compiler
 * threads spent, and the Postgres server's (postmaster and every backend, exited ones included).
 */
public record CpuUse(double jvmSeconds, double jitSeconds, double postgresSeconds) {

    public CpuUse {
        if (jvmSeconds < 0 || jitSeconds < 0 || postgresSeconds < 0) {
            throw new IllegalArgumentException(
                "CPU seconds must be >= 0: " + jvmSeconds + ", " + jitSeconds + ", " + postgresSeconds);
        }
    }

    /**
     * What was used between {@code earlier} and this total. A part that went down (compiler threads that the JVM
     * retired take their time with them) counts as 0.
     */
    public CpuUse since(CpuUse earlier) {
        return new CpuUse(Math.max(0, jvmSeconds - earlier.jvmSeconds), Math.max(0, jitSeconds - earlier.jitSeconds),
            Math.max(0, postgresSeconds - earlier.postgresSeconds));
    }

    /** {@code "<jvm> (JIT <jit>) / <postgres>"} in microseconds per row, or {@code "-"} for no rows. */
    public String perRow(long rows) {
        if (rows <= 0) {
            return "-";
        }
        double micros = 1e6 / rows;
        return String.format(Locale.ROOT, "%,.0f (JIT %,.0f) / %,.0f", jvmSeconds * micros, jitSeconds * micros,
            postgresSeconds * micros);
    }
}
