package io.tributary.api.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.testing.random.Seeds;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

class DataLineWriterTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void anOpsSubkeyIsTheNameBasedUuidOfItsTableAndRowId() throws Exception {
        DataLineWriter writer = new DataLineWriter(true);
        writer.start("b[]", 0);
        writer.op(1, OpEntry.OpType.PUT, bytes("todos"), bytes("ü-1"), 7, bytes("{}"));
        writer.op(2, OpEntry.OpType.REMOVE, bytes("lists"), bytes("l\"2"), 8, null);

        JsonNode ops = JSON.readTree(writer.finish(false)).get("data").get("data");
        assertThat(ops.get(0).get("subkey").textValue())
            .isEqualTo(new OpEntry(1, OpEntry.OpType.PUT, "todos", "ü-1", 7, "{}").subkey());
        assertThat(ops.get(1).get("subkey").textValue())
            .isEqualTo(new OpEntry(2, OpEntry.OpType.REMOVE, "lists", "l\"2", 8, null).subkey());
        assertThat(ops.get(1).get("object_id").textValue()).isEqualTo("l\"2");
    }

    @Test
    void rowTextIsEscapedIntoTheSameStringJacksonReadsBack() throws Exception {
        long seed = Seeds.fromProperty("tributary.seed");
        Random random = new Random(seed);
        for (int round = 0; round < 500; round++) {
            String text = randomText(random);
            for (boolean raw : new boolean[] {true, false}) {
                DataLineWriter writer = new DataLineWriter(raw);
                writer.start("by_user[\"" + text + "\"]", 3);
                String row = JSON.writeValueAsString(java.util.Map.of("v", text));
                writer.op(4, OpEntry.OpType.PUT, bytes("t"), bytes(text), 4_000_000_000L, bytes(row));
                byte[] line = writer.finish(true);

                assertThat(line[line.length - 1]).as("seed %d", seed).isEqualTo((byte) '\n');
                JsonNode data = JSON.readTree(line).get("data");
                assertThat(data.get("bucket").textValue()).as("seed %d", seed).isEqualTo("by_user[\"" + text + "\"]");
                JsonNode op = data.get("data").get(0);
                assertThat(op.get("object_id").textValue()).as("seed %d", seed).isEqualTo(text);
                assertThat(op.get("checksum").asLong()).isEqualTo(4_000_000_000L);
                JsonNode value = raw ? JSON.readTree(op.get("data").textValue()) : op.get("data");
                assertThat(value.get("v").textValue()).as("seed %d", seed).isEqualTo(text);
            }
        }
    }

    @Test
    void aLineWithoutOpsOrWithOpsOutOfOrderIsRefused() {
        DataLineWriter writer = new DataLineWriter(true);
        writer.start("b[]", 5);
        assertThatThrownBy(() -> writer.finish(false)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> writer.op(5, OpEntry.OpType.MOVE, bytes(""), bytes(""), 1, null))
            .hasMessageContaining("out of order");
        assertThatThrownBy(() -> writer.op(6, OpEntry.OpType.PUT, bytes("t"), bytes("1"), 1, null))
            .hasMessageContaining("lacks data");
    }

    @Test
    void aWriterThatGaveItsMemoryBackWritesTheSameLines() {
        DataLineWriter writer = new DataLineWriter(true);
        String row = "{\"v\":\"" + "x".repeat(20_000) + "\"}";
        writer.start("b[]", 1);
        writer.op(2, OpEntry.OpType.PUT, bytes("t"), bytes("1"), 9, bytes(row));
        byte[] first = writer.finish(false);

        writer.release();
        writer.start("b[]", 1);
        writer.op(2, OpEntry.OpType.PUT, bytes("t"), bytes("1"), 9, bytes(row));

        assertThat(writer.finish(false)).isEqualTo(first);
    }

    @Test
    void numbersAndUuidsAreWrittenInFull() {
        JsonBytes out = new JsonBytes(1);
        out.number(0).ascii(' ').number(-42).ascii(' ').number(Long.MAX_VALUE).ascii(' ').number(Long.MIN_VALUE)
            .ascii(' ').quotedUuid(0x0123456789abcdefL, 0xfedcba9876543210L);
        assertThat(new String(out.toByteArray(), StandardCharsets.US_ASCII)).isEqualTo("0 -42 " + Long.MAX_VALUE
            + " " + Long.MIN_VALUE + " \"01234567-89ab-cdef-fedc-ba9876543210\"");
    }

    @Test
    void aBsonLineIsTheDocumentOfItsNdjsonLineByteForByte() {
        long seed = Seeds.fromProperty("tributary.seed");
        Random random = new Random(seed);
        DataLineWriter json = new DataLineWriter(true);
        DataLineWriter bson = new DataLineWriter(true, WireFormat.BSON);
        OpEntry.OpType[] kinds = OpEntry.OpType.values();
        for (int round = 0; round < 300; round++) {
            if (random.nextInt(10) == 0) {
                json.release();
                bson.release();
            }
            String bucket = "by_user[\"" + randomText(random) + "\"]";
            long after = random.nextInt(3) == 0 ? 0 : random.nextLong(Long.MAX_VALUE / 2);
            json.start(bucket, after);
            bson.start(bucket, after);
            long opId = after;
            int ops = 1 + random.nextInt(random.nextBoolean() ? 3 : 40);
            for (int i = 0; i < ops; i++) {
                opId += 1 + random.nextInt(1_000_000);
                OpEntry.OpType kind = kinds[random.nextInt(kinds.length)];
                byte[] table = bytes(kind == OpEntry.OpType.CLEAR ? "" : "t" + randomText(random));
                byte[] rowId = bytes(kind == OpEntry.OpType.CLEAR ? "" : randomText(random));
                long checksum = switch (random.nextInt(4)) {
                    case 0 -> 0x7FFF_FFFFL + random.nextInt(2);
                    case 1 -> 0xFFFF_FFFFL;
                    default -> random.nextLong(0x1_0000_0000L);
                };
                byte[] data = kind == OpEntry.OpType.PUT ? bytes(row(random)) : null;
                json.op(opId, kind, table, rowId, checksum, data);
                bson.op(opId, kind, table, rowId, checksum, data);
            }
            boolean hasMore = random.nextBoolean();

            assertThat(bson.finish(hasMore)).as("seed %d, round %d", seed, round)
                .isEqualTo(BsonLines.document(json.finish(hasMore)));
        }
    }

    @Test
    void bsonLinesCarryRowsAsTextOnly() {
        assertThatThrownBy(() -> new DataLineWriter(false, WireFormat.BSON))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("raw_data");
    }

    private static String row(Random random) {
        try {
            return JSON.writeValueAsString(java.util.Map.of("v", randomText(random), "n", random.nextInt(),
                "x", "y".repeat(random.nextInt(3) == 0 ? 5_000 : 3)));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String randomText(Random random) {
        StringBuilder text = new StringBuilder();
        int length = random.nextInt(12);
        for (int i = 0; i < length; i++) {
            switch (random.nextInt(6)) {
                case 0 -> text.append((char) random.nextInt(0x20));
                case 1 -> text.append(random.nextBoolean() ? '"' : '\\');
                case 2 -> text.append('é');
                case 3 -> text.appendCodePoint(0x1F600);
                default -> text.append((char) ('a' + random.nextInt(26)));
            }
        }
        return text.toString();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
