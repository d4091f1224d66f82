package io.tributary.api.stream;

import java.time.Duration;

/**
 * Limits and timings of sync streams.
 *
 * @param pageOps           the most ops per storage read and per data line, &gt; 0
 * @param cachedBuckets     the most buckets whose checksums a process keeps, &gt; 0
 * @param keepaliveInterval the time between keepalive lines ({@code token_expires_in}), &gt; 0
 * @param pollInterval      how often the served checkpoint is read when no notification arrives, &gt; 0
 * @param writeTimeout      how long a line may wait for a slow client before the stream is cut off, &gt; 0
 * @param sharedOps         the most ops of one checkpoint the process reads once for all its streams, &gt; 0
 *                          (a checkpoint with more is read by each stream itself)
 */
public record StreamSettings(int pageOps, int cachedBuckets, Duration keepaliveInterval, Duration pollInterval,
                             Duration writeTimeout, int sharedOps) {

    public StreamSettings {
        if (pageOps <= 0 || cachedBuckets <= 0 || sharedOps <= 0) {
            throw new IllegalArgumentException("page ops, cached buckets and shared ops must be > 0: " + pageOps + ", "
                + cachedBuckets + ", " + sharedOps);
        }
        for (Duration d : new Duration[] {keepaliveInterval, pollInterval, writeTimeout}) {
            if (d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException("stream intervals and timeouts must be > 0: " + d);
            }
        }
    }

    /**
     * The defaults: 1000 ops per page, 100,000 cached buckets, keepalives every 20 s, polls every second, 30 s, up to
     * 200,000 shared ops per checkpoint.
     */
    public static StreamSettings defaults() {
        return new StreamSettings(1000, 100_000, Duration.ofSeconds(20), Duration.ofSeconds(1),
            Duration.ofSeconds(30), 200_000);
    }

    /** A copy with another write timeout. */
    public StreamSettings withWriteTimeout(Duration timeout) {
        return new StreamSettings(pageOps, cachedBuckets, keepaliveInterval, pollInterval, timeout, sharedOps);
    }

    /** A copy with another keepalive interval. */
    public StreamSettings withKeepaliveInterval(Duration interval) {
        return new StreamSettings(pageOps, cachedBuckets, interval, pollInterval, writeTimeout, sharedOps);
    }

    /** A copy with another page size. */
    public StreamSettings withPageOps(int ops) {
        return new StreamSettings(ops, cachedBuckets, keepaliveInterval, pollInterval, writeTimeout, sharedOps);
    }

    /** A copy with another most of shared ops per checkpoint. */
    public StreamSettings withSharedOps(int ops) {
        return new StreamSettings(pageOps, cachedBuckets, keepaliveInterval, pollInterval, writeTimeout, ops);
    }
}
