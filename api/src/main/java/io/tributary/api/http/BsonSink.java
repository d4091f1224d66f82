package io.tributary.api.http;

import io.tributary.api.protocol.BsonLines;
import io.tributary.api.stream.LineSink;
import java.io.IOException;

/**
 * A {@link LineSink} for a BSON stream: takes the stream's NDJSON lines and hands each to the response as the BSON
 * document of {@link BsonLines}, with the response sink's gathering, write bounds and slow-client cut-off.
 *
 * <p>Not thread-safe: one stream's thread.
 */
final class BsonSink implements LineSink {

    private final LineSink response;

    BsonSink(LineSink response) {
        this.response = response;
    }

    @Override
    public void write(byte[] line) throws IOException {
        response.write(BsonLines.document(line));
    }

    @Override
    public void flush() throws IOException {
        response.flush();
    }
}
