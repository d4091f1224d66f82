package io.tributary.ingest.planner;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.ThreadLocalRandom;

/**
 * New snapshot window ids: {@code <UTC time>-<random>}, e.g. {@code 20260131T120000123Z-3f9a1b2c}, so they sort by
 * creation time and never repeat across planners and restarts. A chunk id is {@code <windowId>#<index>}.
 * Thread-safe.
 */
public final class WindowIds {

    private static final DateTimeFormatter TIME =
        DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmssSSS'Z'").withZone(ZoneOffset.UTC);

    private WindowIds() {
    }

    /** A new window id for a window opened at {@code now}. */
    public static String next(Instant now) {
        return TIME.format(now) + "-" + String.format("%08x", ThreadLocalRandom.current().nextInt());
    }

    /** The id of chunk {@code index} of window {@code windowId}. */
    public static String chunkId(String windowId, int index) {
        if (index < 0) {
            throw new IllegalArgumentException("A chunk index is >= 0, got " + index);
        }
        return windowId + "#" + index;
    }
}
