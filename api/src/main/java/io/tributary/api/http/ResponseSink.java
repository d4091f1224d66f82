package io.tributary.api.http;

import io.tributary.api.stream.LineSink;
import io.tributary.api.stream.SlowClientException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Writes stream lines to a Jetty response, one write per line (sent at once, nothing aggregated), waiting for
 * each to be taken by the network. A line still waiting after the write timeout means the client reads too
 * slowly: {@link SlowClientException}, and the caller aborts the response, so the server never holds more than
 * one line and the socket buffers per stream.
 *
 * <p>Not thread-safe: one stream's thread.
 */
final class ResponseSink implements LineSink {

    private final Response response;
    private final Duration writeTimeout;

    ResponseSink(Response response, Duration writeTimeout) {
        this.response = response;
        this.writeTimeout = writeTimeout;
    }

    @Override
    public void write(byte[] line) throws IOException {
        Callback.Completable written = new Callback.Completable();
        response.write(false, ByteBuffer.wrap(line), written);
        try {
            written.get(writeTimeout.toMillis(), TimeUnit.MILLISECONDS);
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
