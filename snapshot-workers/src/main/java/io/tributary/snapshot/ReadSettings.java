package io.tributary.snapshot;

import java.time.Duration;
import java.util.Objects;

/**
 * How chunk reads use the source database.
 *
 * <p>Memory per read is bounded whatever the row size: rows are streamed with a cursor whose fetch size adapts
 * (pgjdbc {@code adaptiveFetch}) so one fetch stays within {@code fetchBufferBytes}, and never exceeds
 * {@code fetchRows} rows. A row larger than {@code fetchBufferBytes} fails its table.
 *
 * <p>Timeouts default to none: a slow Kafka is backpressure on the read (the cursor waits), never a timeout that
 * re-reads the chunk. The session also disables {@code idle_in_transaction_session_timeout} for that reason.
 *
 * @param fetchRows        most rows per fetch, {@code >= 1}
 * @param fetchBufferBytes most bytes per fetch, {@code >= 64 KiB}
 * @param socketTimeout    pgjdbc {@code socketTimeout} of source connections; zero for none
 * @param statementTimeout {@code statement_timeout} of source sessions; zero for none
 * @param pipelineDepth    chunks one worker loop may have read but not yet acknowledged by Kafka, {@code >= 1}
 */
public record ReadSettings(int fetchRows, long fetchBufferBytes, Duration socketTimeout, Duration statementTimeout,
                           int pipelineDepth) {

    /**
     * 1000 rows or 64 MiB per fetch, no timeouts, 32 chunks in flight per loop, taken 16 at a time. A chunk is in
     * flight for about two of the producer's lingers (its rows, then its done markers once the rows are
     * acknowledged), over 200 ms: with small chunks (many small tables) the depth, not the CPU, sets a loop's pace,
     * about depth / 0.2 s chunks per second, and the time a snapshot of many tables takes is what the pipeline's
     * periodic work (polls, barriers, planning rounds, progress reads) costs per table. A read chunk in flight holds
     * no rows (they are in the producer's buffer, which bounds them).
     */
    public static final ReadSettings DEFAULT =
        new ReadSettings(1000, 64L << 20, Duration.ZERO, Duration.ZERO, 32);

    public ReadSettings {
        Objects.requireNonNull(socketTimeout, "socketTimeout");
        Objects.requireNonNull(statementTimeout, "statementTimeout");
        if (fetchRows < 1 || fetchBufferBytes < 64 << 10 || pipelineDepth < 1 || socketTimeout.isNegative()
            || statementTimeout.isNegative()) {
            throw new IllegalArgumentException("Read settings need fetchRows >= 1, fetchBufferBytes >= 64 KiB,"
                + " pipelineDepth >= 1 and timeouts >= 0, got " + fetchRows + ", " + fetchBufferBytes + ", "
                + pipelineDepth + ", " + socketTimeout + ", " + statementTimeout);
        }
    }

    /** These settings with {@code timeout} as the socket timeout (e.g. from the launcher's configuration). */
    public ReadSettings withSocketTimeout(Duration timeout) {
        return new ReadSettings(fetchRows, fetchBufferBytes, timeout, statementTimeout, pipelineDepth);
    }

    /** These settings with {@code timeout} as the statement timeout. */
    public ReadSettings withStatementTimeout(Duration timeout) {
        return new ReadSettings(fetchRows, fetchBufferBytes, socketTimeout, timeout, pipelineDepth);
    }

    /** These settings with at most {@code rows} rows per fetch. */
    public ReadSettings withFetchRows(int rows) {
        return new ReadSettings(rows, fetchBufferBytes, socketTimeout, statementTimeout, pipelineDepth);
    }
}
