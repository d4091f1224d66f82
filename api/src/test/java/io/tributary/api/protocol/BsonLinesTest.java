package io.tributary.api.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.OptionalLong;
import org.bson.BsonArray;
import org.bson.BsonBinaryReader;
import org.bson.BsonDocument;
import org.bson.BsonType;
import org.bson.BsonValue;
import org.bson.codecs.BsonDocumentCodec;
import org.bson.codecs.DecoderContext;
import org.junit.jupiter.api.Test;

class BsonLinesTest {

    private final LineEncoder encoder = new LineEncoder(List.of("global", "by_user"));

    @Test
    void aDocumentStartsWithItsLengthAndHoldsTheLinesFieldsInOrder() {
        byte[] document = BsonLines.document(encoder.checkpoint(42, OptionalLong.of(7),
            List.of(new BucketChecksum("by_user[\"u1\"]", -5, 3, 1))));

        assertThat(ByteBuffer.wrap(document).order(ByteOrder.LITTLE_ENDIAN).getInt()).isEqualTo(document.length);
        BsonDocument checkpoint = decode(document).getDocument("checkpoint");
        assertThat(checkpoint.keySet()).containsExactly("last_op_id", "write_checkpoint", "buckets", "streams");
        assertThat(checkpoint.get("last_op_id").asString().getValue()).isEqualTo("42");
        assertThat(checkpoint.get("write_checkpoint").asString().getValue()).isEqualTo("7");
        BsonDocument bucket = checkpoint.getArray("buckets").get(0).asDocument();
        assertThat(bucket.keySet()).containsExactly("bucket", "checksum", "count", "priority", "subscriptions");
        assertThat(bucket.get("bucket").asString().getValue()).isEqualTo("by_user[\"u1\"]");
        assertThat(bucket.get("checksum").getBsonType()).isEqualTo(BsonType.INT32);
        assertThat(bucket.get("checksum").asInt32().getValue()).isEqualTo(-5);
        assertThat(bucket.getArray("subscriptions").get(0).asDocument().get("default").asInt32().getValue())
            .isEqualTo(1);
        BsonDocument stream = checkpoint.getArray("streams").get(0).asDocument();
        assertThat(stream.get("is_default").asBoolean().getValue()).isTrue();
        assertThat(stream.getArray("errors")).isEqualTo(new BsonArray());
    }

    @Test
    void anOpsUnsignedChecksumAboveInt32IsAnInt64AndRowTextAndNullsStayAsTheyAre() {
        DataLineWriter writer = new DataLineWriter(true);
        writer.start("b[]", 3);
        writer.op(4, OpEntry.OpType.PUT, bytes("todos"), bytes("ü-1"), 4_000_000_000L,
            bytes("{\"title\":\"milk \\\"2%\\\"\",\"n\":1.5}"));
        writer.op(5, OpEntry.OpType.MOVE, bytes(""), bytes(""), 12, null);
        BsonDocument data = decode(BsonLines.document(writer.finish(true))).getDocument("data");

        assertThat(data.keySet()).containsExactly("bucket", "after", "next_after", "has_more", "data");
        assertThat(data.get("after").asString().getValue()).isEqualTo("3");
        assertThat(data.get("has_more").asBoolean().getValue()).isTrue();
        BsonDocument put = data.getArray("data").get(0).asDocument();
        assertThat(put.get("op_id").asString().getValue()).isEqualTo("4");
        assertThat(put.get("object_id").asString().getValue()).isEqualTo("ü-1");
        assertThat(put.get("checksum").getBsonType()).isEqualTo(BsonType.INT64);
        assertThat(put.get("checksum").asInt64().getValue()).isEqualTo(4_000_000_000L);
        assertThat(put.get("data").asString().getValue()).isEqualTo("{\"title\":\"milk \\\"2%\\\"\",\"n\":1.5}");
        BsonDocument move = data.getArray("data").get(1).asDocument();
        assertThat(move.get("checksum").asInt32().getValue()).isEqualTo(12);
        assertThat(move.get("data").getBsonType()).isEqualTo(BsonType.NULL);
    }

    @Test
    void numbersWithAFractionAreDoublesAndKeepalivesInt32() {
        BsonValue value = decode(BsonLines.document(bytes("{\"a\":-2.5e3,\"b\":[1,9007199254740993]}\n"))).get("a");
        assertThat(value.asDouble().getValue()).isEqualTo(-2500.0);
        BsonValue big = decode(BsonLines.document(bytes("{\"b\":[1,9007199254740993]}"))).getArray("b").get(1);
        assertThat(big.asInt64().getValue()).isEqualTo(9_007_199_254_740_993L);
        assertThat(decode(BsonLines.document(LineEncoder.keepalive(20))).get("token_expires_in").asInt32().getValue())
            .isEqualTo(20);
    }

    @Test
    void anythingButOneObjectIsRefused() {
        assertThatThrownBy(() -> BsonLines.document(bytes("[1]"))).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("not a JSON object");
        assertThatThrownBy(() -> BsonLines.document(bytes("{} {}"))).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("more than one JSON value");
    }

    private static BsonDocument decode(byte[] document) {
        try (BsonBinaryReader reader = new BsonBinaryReader(ByteBuffer.wrap(document))) {
            return new BsonDocumentCodec().decode(reader, DecoderContext.builder().build());
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
