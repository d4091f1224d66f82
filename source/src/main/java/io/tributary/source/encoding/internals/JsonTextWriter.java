package io.tributary.source.encoding.internals;

import com.fasterxml.jackson.core.JsonGenerator;
import io.tributary.topics.json.CanonicalJsonFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;

/**
 * A canonical JSON generator writing into a reusable in-memory buffer: write one value, take its text, write the
 * next. Not thread-safe: one per encoder, one encoder per thread.
 */
public final class JsonTextWriter {

    private final Buffer buffer = new Buffer();
    private JsonGenerator generator;

    public JsonTextWriter() {
        this.generator = newGenerator();
    }

    private JsonGenerator newGenerator() {
        try {
            JsonGenerator g = CanonicalJsonFactory.DOCUMENT_FACTORY.createGenerator(buffer);
            g.setRootValueSeparator(null);
            return g;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The generator to write the next value with. */
    public JsonGenerator generator() {
        return generator;
    }

    /** The text written since the last call (one complete JSON value), and an empty buffer for the next one. */
    public String take() throws IOException {
        generator.flush();
        String text = buffer.builder.toString();
        buffer.builder.setLength(0);
        return text;
    }

    /** Drops a partly written value (after a failure) and starts afresh. */
    public void discard() {
        try {
            generator.close();
        } catch (IOException | RuntimeException ignored) {
            // the value is abandoned; the generator is replaced below
        }
        buffer.builder.setLength(0);
        generator = newGenerator();
    }

    /** A {@link Writer} over a {@link StringBuilder} that keeps its capacity between values. */
    private static final class Buffer extends Writer {
        private final StringBuilder builder = new StringBuilder(256);

        @Override
        public void write(char[] chars, int offset, int length) {
            builder.append(chars, offset, length);
        }

        @Override
        public void write(String text, int offset, int length) {
            builder.append(text, offset, offset + length);
        }

        @Override
        public void write(int c) {
            builder.append((char) c);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }
}
