package io.tributary.api.stream;

import java.io.IOException;

/** Where a sync stream's lines go: the HTTP response. Used by one thread at a time. */
public interface LineSink {

    /**
     * Sends one complete line and returns once it is handed to the network.
     *
     * @throws SlowClientException if the client did not take it within the write timeout (the stream must end)
     * @throws IOException         if the client went away
     */
    void write(byte[] line) throws IOException;
}
