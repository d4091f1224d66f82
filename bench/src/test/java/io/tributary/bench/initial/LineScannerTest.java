package io.tributary.bench.initial;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LineScannerTest {

    @Test
    void findsTheEndOfTheCompletingBsonDocumentAcrossChunks() {
        ByteArrayOutputStream stream = new ByteArrayOutputStream();
        stream.writeBytes(document("checkpoint", 40));
        stream.writeBytes(document("data", 5_000));
        stream.writeBytes(document("checkpoint_complete", 20));
        int end = stream.size();
        stream.writeBytes(document("token_expires_in", 10));

        assertThat(endInChunks(stream.toByteArray(), true, 7)).isEqualTo(end);
        assertThat(endInChunks(stream.toByteArray(), true, 64 * 1024)).isEqualTo(end);
    }

    @Test
    void findsTheEndOfTheCompletingJsonLineAcrossChunks() {
        String lines = "{\"checkpoint\":{}}\n{\"data\":{\"checkpoint_complete\":1," + "x".repeat(100) + "}}\n"
            + "{\"checkpoint_complete\":{\"last_op_id\":\"5\"}}\n{\"token_expires_in\":60}\n";
        byte[] bytes = lines.getBytes(StandardCharsets.UTF_8);
        int end = lines.indexOf("{\"token_expires_in\"");

        assertThat(endInChunks(bytes, false, 5)).isEqualTo(end);
    }

    @Test
    void findsNothingBeforeTheCompletingLineArrives() {
        byte[] bytes = document("checkpoint_complete", 20);

        assertThat(new RecordedStream.LineScanner(true).feed(Arrays.copyOf(bytes, bytes.length - 1),
            bytes.length - 1)).isEqualTo(-1);
    }

    /** The stream's offset where the scanner says the recording ends, fed in chunks of at most {@code size}. */
    private static int endInChunks(byte[] bytes, boolean bson, int size) {
        RecordedStream.LineScanner scanner = new RecordedStream.LineScanner(bson);
        for (int from = 0; from < bytes.length; from += size) {
            byte[] chunk = Arrays.copyOfRange(bytes, from, Math.min(bytes.length, from + size));
            int end = scanner.feed(chunk, chunk.length);
            if (end >= 0) {
                return from + end;
            }
        }
        return -1;
    }

    /** A BSON-framed document whose first key is {@code key}, padded with {@code padding} random bytes. */
    private static byte[] document(String key, int padding) {
        byte[] name = key.getBytes(StandardCharsets.US_ASCII);
        byte[] filler = new byte[padding];
        new Random(padding).nextBytes(filler);
        int length = 4 + 1 + name.length + 1 + filler.length + 1;
        return ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN).putInt(length).put((byte) 3).put(name)
            .put((byte) 0).put(filler).put((byte) 0).array();
    }
}
