package io.tributary.bench.probe;

import java.util.Locale;

/**
 * Peak memory of one measurement, in kibibytes: the bench JVM's {@code VmHWM} (Kafka broker, every Tributary role
 * and the Debezium engines run in it) and the highest sampled sum of the Postgres server's proportional set sizes
 * (postmaster and every backend; shared buffers counted once).
 */
public record PeakRss(long jvmKib, long postgresKib) {

    public PeakRss {
        if (jvmKib < 0 || postgresKib < 0) {
            throw new IllegalArgumentException("peak RSS must be >= 0: " + jvmKib + ", " + postgresKib);
        }
    }

    /** {@code "<jvm> / <postgres>"} in MiB. */
    public String toMebibytes() {
        return String.format(Locale.ROOT, "%,d / %,d", jvmKib >> 10, postgresKib >> 10);
    }
}
