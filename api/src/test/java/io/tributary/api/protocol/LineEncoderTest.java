package io.tributary.api.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class LineEncoderTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final LineEncoder encoder = new LineEncoder(List.of("global", "by_user"));

    @Test
    void aCheckpointListsBucketsWithTheirDefinitionAsDefaultSubscription() throws Exception {
        byte[] line = encoder.checkpoint(42, OptionalLong.of(7), List.of(new BucketChecksum("by_user[\"u1\"]",
            -5, 3, 1)));

        assertThat(new String(line, StandardCharsets.UTF_8)).endsWith("}\n").doesNotContain("\n{");
        JsonNode checkpoint = JSON.readTree(line).get("checkpoint");
        assertThat(checkpoint.get("last_op_id").textValue()).isEqualTo("42");
        assertThat(checkpoint.get("write_checkpoint").textValue()).isEqualTo("7");
        JsonNode bucket = checkpoint.get("buckets").get(0);
        assertThat(bucket.get("bucket").asText()).isEqualTo("by_user[\"u1\"]");
        assertThat(bucket.get("checksum").asInt()).isEqualTo(-5);
        assertThat(bucket.get("count").asLong()).isEqualTo(3);
        assertThat(bucket.get("priority").asInt()).isEqualTo(1);
        assertThat(bucket.get("subscriptions").toString()).isEqualTo("[{\"default\":1}]");
        assertThat(checkpoint.get("streams").toString()).isEqualTo("[{\"name\":\"global\",\"is_default\":true,"
            + "\"errors\":[]},{\"name\":\"by_user\",\"is_default\":true,\"errors\":[]}]");
    }

    @Test
    void aCheckpointWithoutWriteCheckpointOmitsTheField() throws Exception {
        JsonNode diff = JSON.readTree(encoder.checkpointDiff(9, OptionalLong.empty(), List.of(),
            List.of("global[]"))).get("checkpoint_diff");

        assertThat(diff.has("write_checkpoint")).isFalse();
        assertThat(diff.get("updated_buckets")).isEmpty();
        assertThat(diff.get("removed_buckets").toString()).isEqualTo("[\"global[]\"]");
    }

    @Test
    void rawDataSendsTheRowAsTextAndOtherwiseAsObject() throws Exception {
        DataBatch batch = new DataBatch("global[]", 3, 5, true, List.of(
            new OpEntry(4, OpEntry.OpType.PUT, "lists", "l1", 4_000_000_000L, "{\"id\":\"l1\",\"n\":1.50}"),
            new OpEntry(5, OpEntry.OpType.REMOVE, "lists", "l2", 1, null)));

        JsonNode raw = JSON.readTree(encoder.data(batch, true)).get("data");
        assertThat(raw.get("after").textValue()).isEqualTo("3");
        assertThat(raw.get("next_after").textValue()).isEqualTo("5");
        assertThat(raw.get("has_more").asBoolean()).isTrue();
        JsonNode put = raw.get("data").get(0);
        assertThat(put.get("op_id").textValue()).isEqualTo("4");
        assertThat(put.get("op").asText()).isEqualTo("PUT");
        assertThat(put.get("checksum").asLong()).isEqualTo(4_000_000_000L);
        assertThat(put.get("data").textValue()).isEqualTo("{\"id\":\"l1\",\"n\":1.50}");
        assertThat(raw.get("data").get(1).get("data").isNull()).isTrue();

        String embedded = new String(encoder.data(batch, false), StandardCharsets.UTF_8);
        assertThat(embedded).contains("\"data\":{\"id\":\"l1\",\"n\":1.50}");
    }

    @Test
    void moveAndClearCarryOnlyTheirIdNameAndChecksum() throws Exception {
        DataBatch batch = new DataBatch("global[]", 0, 7, false, List.of(
            new OpEntry(6, OpEntry.OpType.CLEAR, "", "", 4_000_000_000L, null),
            new OpEntry(7, OpEntry.OpType.MOVE, "lists", "l1", 12, null)));

        JsonNode ops = JSON.readTree(encoder.data(batch, true)).get("data").get("data");
        assertThat(ops.get(0).toString())
            .isEqualTo("{\"op_id\":\"6\",\"op\":\"CLEAR\",\"checksum\":4000000000,\"data\":null}");
        assertThat(ops.get(1).toString())
            .isEqualTo("{\"op_id\":\"7\",\"op\":\"MOVE\",\"checksum\":12,\"data\":null}");
    }

    @Test
    void storageCodesMapToEveryOp() {
        assertThat(List.of(1, 2, 3, 4)).extracting(OpEntry.OpType::ofStorageCode)
            .containsExactly(OpEntry.OpType.PUT, OpEntry.OpType.REMOVE, OpEntry.OpType.MOVE, OpEntry.OpType.CLEAR);
        assertThatThrownBy(() -> OpEntry.OpType.ofStorageCode(5)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aRowsPutsAndRemoveShareTheirSubkey() {
        OpEntry put = new OpEntry(4, OpEntry.OpType.PUT, "lists", "l1", 1, "{}");
        OpEntry remove = new OpEntry(9, OpEntry.OpType.REMOVE, "lists", "l1", 2, null);
        OpEntry other = new OpEntry(10, OpEntry.OpType.REMOVE, "todos", "l1", 2, null);

        assertThat(put.subkey()).isEqualTo(remove.subkey()).isNotEqualTo(other.subkey());
    }

    @Test
    void completionsAndKeepalives() throws Exception {
        assertThat(JSON.readTree(encoder.partialCheckpointComplete(8, 1)).toString())
            .isEqualTo("{\"partial_checkpoint_complete\":{\"last_op_id\":\"8\",\"priority\":1}}");
        assertThat(JSON.readTree(encoder.checkpointComplete(8)).toString())
            .isEqualTo("{\"checkpoint_complete\":{\"last_op_id\":\"8\"}}");
        assertThat(new String(LineEncoder.keepalive(-3), StandardCharsets.UTF_8))
            .isEqualTo("{\"token_expires_in\":0}\n");
    }
}
