package io.tributary.client.proxy;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.bson.RawBsonDocument;
import org.bson.json.JsonMode;
import org.bson.json.JsonWriterSettings;

/**
 * Splits a BSON sync stream ({@code application/vnd.powersync.bson-stream}) into its documents the way the PowerSync
 * client does (a 32-bit little-endian length that counts itself, then the rest), and shows a document as the JSON
 * line it stands for.
 */
final class BsonStream {

    static final String CONTENT_TYPE = "application/vnd.powersync.bson-stream";
    private static final JsonWriterSettings PLAIN_JSON = JsonWriterSettings.builder().outputMode(JsonMode.RELAXED)
        .build();

    private BsonStream() {
    }

    /** The next document's bytes, or null where the stream ends between documents. */
    static byte[] next(InputStream in) throws IOException {
        byte[] length = in.readNBytes(4);
        if (length.length == 0) {
            return null;
        }
        if (length.length < 4) {
            throw new EOFException("The BSON stream ended inside a document's length");
        }
        int size = ByteBuffer.wrap(length).order(ByteOrder.LITTLE_ENDIAN).getInt();
        if (size < 5) {
            throw new IOException("A BSON document of " + size + " bytes");
        }
        byte[] document = new byte[size];
        System.arraycopy(length, 0, document, 0, 4);
        if (in.readNBytes(document, 4, size - 4) != size - 4) {
            throw new EOFException("The BSON stream ended inside a document of " + size + " bytes");
        }
        return document;
    }

    /** A document as JSON text: int32, int64 and double as plain numbers. */
    static String json(byte[] document) {
        return new RawBsonDocument(document).toJson(PLAIN_JSON);
    }
}
