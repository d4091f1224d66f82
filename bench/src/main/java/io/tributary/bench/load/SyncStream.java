package io.tributary.bench.load;

import java.time.Instant;
import java.util.concurrent.Flow;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One simulated sync client reading its stream's NDJSON lines: counts the ops of its data lines and its
 * {@code checkpoint_complete} lines, and keeps when it read its first {@code checkpoint_diff} after
 * {@link #expectDiff()} and that diff's {@code last_op_id}. Lines arrive on the HTTP client's threads; the fields
 * are read by the bench's thread.
 */
final class SyncStream implements Flow.Subscriber<String> {

    private static final Pattern LAST_OP_ID = Pattern.compile("\"last_op_id\":\"(\\d+)\"");
    private static final String OP_ID = "\"op_id\"";

    private volatile Flow.Subscription subscription;
    private volatile long completes;
    private volatile long ops;
    private volatile boolean expectDiff;
    private volatile long diffMicros = -1;
    private volatile long diffOpId = -1;
    private volatile String failure;

    @Override
    public void onSubscribe(Flow.Subscription s) {
        subscription = s;
        s.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(String line) {
        String head = line.length() > 32 ? line.substring(0, 32) : line;
        if (head.startsWith("{\"data\"")) {
            ops += count(line);
        } else if (head.startsWith("{\"checkpoint_complete\"")) {
            completes++;
        } else if (head.startsWith("{\"checkpoint_diff\"")) {
            if (expectDiff && diffMicros < 0) {
                Instant now = Instant.now();
                Matcher m = LAST_OP_ID.matcher(line);
                diffOpId = m.find() ? Long.parseLong(m.group(1)) : -1;
                diffMicros = now.getEpochSecond() * 1_000_000 + now.getNano() / 1_000;
            }
        } else if (head.startsWith("{\"error\"")) {
            failure = line;
        }
    }

    @Override
    public void onError(Throwable t) {
        if (failure == null) {
            failure = t.toString();
        }
    }

    @Override
    public void onComplete() {
        if (failure == null) {
            failure = "the stream ended";
        }
    }

    private static long count(String line) {
        long n = 0;
        for (int i = line.indexOf(OP_ID); i >= 0; i = line.indexOf(OP_ID, i + OP_ID.length())) {
            n++;
        }
        return n;
    }

    /** From now on the first {@code checkpoint_diff} read is timed. */
    void expectDiff() {
        expectDiff = true;
    }

    long completes() {
        return completes;
    }

    long ops() {
        return ops;
    }

    /** Epoch microseconds the timed diff was read at, -1 before. */
    long diffMicros() {
        return diffMicros;
    }

    /** The timed diff's {@code last_op_id}, -1 before. */
    long diffOpId() {
        return diffOpId;
    }

    /** Why the stream failed or ended, null while it runs. */
    String failure() {
        return failure;
    }

    /** Closes the stream's connection. */
    void close() {
        Flow.Subscription s = subscription;
        if (s != null) {
            s.cancel();
        }
    }
}
