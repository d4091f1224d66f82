package io.tributary.api.http;

import io.tributary.api.stream.LineSink;
import io.tributary.api.stream.SlowClientException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Writes stream lines to a Jetty response. Small lines are gathered into writes of up to {@link #GATHER_BYTES};
 * a larger line goes out alone, in writes of at most {@link #WRITE_BYTES}. At most one write is in flight: the
 * stream prepares its next lines (reads storage, encodes) while the network takes the previous ones, and a write
 * waits for the one before it. A write still waiting after the write timeout means the client took less than
 * {@link #WRITE_BYTES} in that time, too slow: {@link SlowClientException}, and the caller aborts the response, so
 * the server holds at most one write in flight, one gathering buffer and the socket buffers per stream. The gathering
 * buffer is given back at each {@link #flush()} (a stream flushes before it waits), so an idle stream holds none.
 *
 * <p>Not thread-safe: one stream's thread.
 */
final class ResponseSink implements LineSink {

    /** The most bytes of small lines gathered into one write. */
    static final int GATHER_BYTES = 32 * 1024;
    /** The most bytes of one write: the client must take this much within the write timeout. */
    static final int WRITE_BYTES = 64 * 1024;

    private final Response response;
    private final Duration writeTimeout;
    private byte[] gathered;
    private int gatheredBytes;
    private Callback.Completable inFlight;

    ResponseSink(Response response, Duration writeTimeout) {
        this.response = response;
        this.writeTimeout = writeTimeout;
    }

    @Override
    public void write(byte[] line) throws IOException {
        if (gathered == null) {
            gathered = new byte[GATHER_BYTES];
        }
        if (gatheredBytes + line.length <= GATHER_BYTES) {
            System.arraycopy(line, 0, gathered, gatheredBytes, line.length);
            gatheredBytes += line.length;
            return;
        }
        sendGathered();
        if (line.length < GATHER_BYTES) {
            System.arraycopy(line, 0, gathered, 0, line.length);
            gatheredBytes = line.length;
        } else {
            send(line);
        }
    }

    /** Sends what is gathered and gives the gathering buffer back until the next write. */
    @Override
    public void flush() throws IOException {
        sendGathered();
        gathered = null;
    }

    private void sendGathered() throws IOException {
        if (gatheredBytes > 0) {
            byte[] bytes = Arrays.copyOf(gathered, gatheredBytes);
            gatheredBytes = 0;
            send(bytes);
        }
    }

    /** Flushes and waits until everything written went out: after it the response may be completed. */
    void drain() throws IOException {
        flush();
        awaitInFlight();
    }

    private void send(byte[] bytes) throws IOException {
        for (int offset = 0; offset < bytes.length; offset += WRITE_BYTES) {
            awaitInFlight();
            Callback.Completable written = new Callback.Completable();
            inFlight = written;
            response.write(false, ByteBuffer.wrap(bytes, offset, Math.min(WRITE_BYTES, bytes.length - offset)),
                written);
        }
    }

    private void awaitInFlight() throws IOException {
        Callback.Completable written = inFlight;
        if (written == null) {
            return;
        }
        try {
            written.get(writeTimeout.toMillis(), TimeUnit.MILLISECONDS);
            inFlight = null;
        } catch (TimeoutException e) {
            throw new SlowClientException("The client took no data for " + writeTimeout.toMillis()
                + " ms; cutting its stream off");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("Interrupted while writing to the client");
        } catch (ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
        }
    }
}
