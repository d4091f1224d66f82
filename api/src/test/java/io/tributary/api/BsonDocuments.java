package io.tributary.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Map;
import org.bson.BsonBinaryReader;
import org.bson.BsonDocument;
import org.bson.BsonValue;
import org.bson.codecs.BsonDocumentCodec;
import org.bson.codecs.DecoderContext;

/**
 * Reads a BSON stream ({@code application/vnd.powersync.bson-stream}) the way the PowerSync client splits it:
 * a 32-bit little-endian length, then the rest of the document; each document becomes the JSON tree Jackson would
 * parse from the same line as NDJSON (int32 an int node, int64 a long node, double a double node).
 */
final class BsonDocuments {

    static final String CONTENT_TYPE = "application/vnd.powersync.bson-stream";
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private BsonDocuments() {
    }

    /** The next document of the stream as a JSON tree, or null at its end (between documents). */
    static JsonNode next(InputStream in) throws IOException {
        byte[] length = in.readNBytes(4);
        if (length.length == 0) {
            return null;
        }
        if (length.length < 4) {
            throw new EOFException("The stream ended inside a document's length");
        }
        int size = ByteBuffer.wrap(length).order(ByteOrder.LITTLE_ENDIAN).getInt();
        byte[] document = new byte[size];
        System.arraycopy(length, 0, document, 0, 4);
        if (in.readNBytes(document, 4, size - 4) != size - 4) {
            throw new EOFException("The stream ended inside a document of " + size + " bytes");
        }
        try (BsonBinaryReader reader = new BsonBinaryReader(ByteBuffer.wrap(document))) {
            return tree(new BsonDocumentCodec().decode(reader, DecoderContext.builder().build()));
        }
    }

    private static JsonNode tree(BsonValue value) {
        return switch (value.getBsonType()) {
            case DOCUMENT -> {
                ObjectNode object = NODES.objectNode();
                for (Map.Entry<String, BsonValue> member : ((BsonDocument) value).entrySet()) {
                    object.set(member.getKey(), tree(member.getValue()));
                }
                yield object;
            }
            case ARRAY -> {
                ArrayNode array = NODES.arrayNode();
                value.asArray().forEach(item -> array.add(tree(item)));
                yield array;
            }
            case STRING -> NODES.textNode(value.asString().getValue());
            case INT32 -> NODES.numberNode(value.asInt32().getValue());
            case INT64 -> NODES.numberNode(value.asInt64().getValue());
            case DOUBLE -> NODES.numberNode(value.asDouble().getValue());
            case BOOLEAN -> NODES.booleanNode(value.asBoolean().getValue());
            case NULL -> NODES.nullNode();
            default -> throw new IllegalStateException("A sync line holds no " + value.getBsonType());
        };
    }
}
