package io.tributary.api.stream;

import java.io.IOException;

/** Where a sync stream's lines go: the HTTP response. Used by one thread at a time. */
public interface LineSink {

    /**
     * Takes one complete line. It may be held back to go out with the lines after it until {@link #flush()}; the
     * call returns once the line is buffered or handed to the network, and waits while the line before it is still
     * going out.
     *
     * @throws SlowClientException if the client did not take the earlier data within the write timeout (the stream
     *                             must end)
     * @throws IOException         if the client went away
     */
    void write(byte[] line) throws IOException;

    /**
     * Hands every line taken so far to the network, without waiting for the client to read it. A stream flushes
     * before it waits for anything but the network (the next checkpoint, a keepalive's time).
     *
     * @throws SlowClientException as {@link #write}
     * @throws IOException         if the client went away
     */
    void flush() throws IOException;
}
