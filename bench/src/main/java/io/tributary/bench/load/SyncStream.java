package io.tributary.bench.load;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Flow;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One simulated sync client reading its stream's NDJSON lines as bytes, never decoded: counts the ops of its data
 * lines (occurrences of {@code "op_id"}) and its {@code checkpoint_complete} lines, and keeps when it read its first
 * {@code checkpoint_diff} after {@link #expectDiff()} and that diff's {@code last_op_id}. A line is classified by its
 * first {@link #HEAD} bytes. Bytes arrive on the HTTP client's threads, one buffer list at a time; the fields are read
 * by the bench's thread.
 */
final class SyncStream implements Flow.Subscriber<List<ByteBuffer>> {

    private static final int HEAD = 64;
    private static final byte[] OP_ID = "\"op_id\"".getBytes(StandardCharsets.US_ASCII);
    private static final Pattern LAST_OP_ID = Pattern.compile("\"last_op_id\":\"(\\d+)\"");

    private volatile Flow.Subscription subscription;
    private volatile long completes;
    private volatile long ops;
    private volatile boolean expectDiff;
    private volatile long diffMicros = -1;
    private volatile long diffOpId = -1;
    private volatile String failure;
    private final byte[] head = new byte[HEAD];
    private int headBytes;
    private int matched;
    private long lineOps;

    @Override
    public void onSubscribe(Flow.Subscription s) {
        subscription = s;
        s.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(List<ByteBuffer> buffers) {
        for (ByteBuffer buffer : buffers) {
            while (buffer.hasRemaining()) {
                byte b = buffer.get();
                if (b == '\n') {
                    endLine();
                    continue;
                }
                if (headBytes < HEAD) {
                    head[headBytes++] = b;
                }
                if (b == OP_ID[matched]) {
                    if (++matched == OP_ID.length) {
                        lineOps++;
                        matched = 0;
                    }
                } else {
                    matched = b == OP_ID[0] ? 1 : 0;
                }
            }
        }
    }

    private void endLine() {
        String start = new String(head, 0, headBytes, StandardCharsets.UTF_8);
        if (start.startsWith("{\"data\"")) {
            ops += lineOps;
        } else if (start.startsWith("{\"checkpoint_complete\"")) {
            completes++;
        } else if (start.startsWith("{\"checkpoint_diff\"")) {
            if (expectDiff && diffMicros < 0) {
                Instant now = Instant.now();
                Matcher m = LAST_OP_ID.matcher(start);
                diffOpId = m.find() ? Long.parseLong(m.group(1)) : -1;
                diffMicros = now.getEpochSecond() * 1_000_000 + now.getNano() / 1_000;
            }
        } else if (start.startsWith("{\"error\"")) {
            failure = start;
        }
        headBytes = 0;
        matched = 0;
        lineOps = 0;
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
