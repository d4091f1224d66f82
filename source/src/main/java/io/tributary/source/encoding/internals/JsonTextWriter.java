package io.tributary.source.encoding.internals;

import com.fasterxml.jackson.core.JsonGenerator;
import io.tributary.topics.json.CanonicalJsonFactory;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;

/**
 * A canonical JSON generator writing UTF-8 into a reusable in-memory buffer: write one value, take its bytes, write
 * the next. The bytes are what the messages carry, so taking them skips a text-to-UTF-8 pass. Not thread-safe: one
 * per encoder, one encoder per thread. Its buffer keeps the capacity of the largest value so far (Jackson's
 * {@code ByteArrayBuilder} would keep only its last block, and chain blocks again for every value larger than it).
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

    /** The UTF-8 bytes written since the last take (one complete JSON value), and an empty buffer for the next. */
    public byte[] takeUtf8() throws IOException {
        generator.flush();
        return buffer.take();
    }

    /** Drops a partly written value (after a failure) and starts afresh. */
    public void discard() {
        try {
            generator.close();
        } catch (IOException | RuntimeException ignored) {
            // the value is abandoned; the generator is replaced below
        }
        buffer.reset();
        generator = newGenerator();
    }

    /** A growable byte buffer that keeps its capacity between values. */
    private static final class Buffer extends OutputStream {
        private byte[] bytes = new byte[512];
        private int length;

        @Override
        public void write(int b) {
            ensure(1);
            bytes[length++] = (byte) b;
        }

        @Override
        public void write(byte[] source, int offset, int count) {
            ensure(count);
            System.arraycopy(source, offset, bytes, length, count);
            length += count;
        }

        private void ensure(int more) {
            if (length + more > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + more));
            }
        }

        byte[] take() {
            byte[] value = Arrays.copyOf(bytes, length);
            reset();
            return value;
        }

        void reset() {
            length = 0;
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }
}
