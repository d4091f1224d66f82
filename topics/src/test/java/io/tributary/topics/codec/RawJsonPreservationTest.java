package io.tributary.topics.codec;

import static io.tributary.topics.codec.Samples.LSN;
import static io.tributary.topics.codec.Samples.ODD_TABLE;
import static io.tributary.topics.codec.Samples.SNAPSHOT;
import static io.tributary.topics.codec.Samples.TASK;
import static io.tributary.topics.codec.Samples.delivered;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.topics.messages.ChangeEvent;
import io.tributary.topics.messages.KeyValues;
import io.tributary.topics.messages.ResolvedRow;
import io.tributary.topics.messages.RowJson;
import io.tributary.topics.messages.RowsMessage;
import io.tributary.topics.messages.SnapshotRow;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RawJsonPreservationTest {

    private static final String TRICKY_ROW = "{\"f\":1e300,\"g\":1.0E10,\"z\":-0.0,\"small\":4.9E-324,"
        + "\"n\":123456789012345678901234567890.123456789012345678901234567890000,"
        + "\"u\":\"\\u00e9\\ud83d\\ude00 raw \u00e9 \ud83d\ude00 \\\" \\\\ \\/ \\n\\t\","
        + "\"j\":{\"a\":[1,{\"b\":null,\"c\":true}],\"s\":\"}]\\\"{[\"},\"e\":[],\"o\":{}}";
    private static final String TRICKY_PK = "[\"\\u00e9t\\u00e9\",1.50E+3,-0.0,99999999999999999999999999]";

    @Test
    void trickyRowSurvivesEveryHopByteForByte() {
        assertSurvivesHops(TRICKY_ROW, TRICKY_PK);
    }

    @Test
    void hugeNumericSurvives() {
        String digits = "9".repeat(5000) + "." + "1".repeat(1000);
        assertSurvivesHops("{\"n\":" + digits + ",\"m\":-" + digits + "e-17}", "[" + "7".repeat(300) + "]");
    }

    @Test
    void deeplyNestedJsonSurvives() {
        String nested = "[".repeat(5000) + "\"x\"" + "]".repeat(5000);
        assertSurvivesHops("{\"doc\":" + nested + "}", "[1]");
    }

    @Test
    void insignificantWhitespaceInsideARowIsKept() {
        assertSurvivesHops("{ \"a\" :\t1 ,\n \"b\" : [ 1 , 2 ] }", "[ 1 ]");
    }

    @Test
    void rowBytesAppearVerbatimInTheEnvelope() {
        ChangeEvent event = ChangeEvent.insert(ODD_TABLE, KeyValues.of(TRICKY_PK), RowJson.of(TRICKY_ROW), LSN, 0, 1);
        assertThat(TopicCodec.CHANGES.encodeValue(event))
            .containsSubsequence(TRICKY_ROW.getBytes(StandardCharsets.UTF_8));
    }

    private static void assertSurvivesHops(String rowText, String pkText) {
        RowJson row = RowJson.of(rowText);
        KeyValues pk = KeyValues.of(pkText);

        ChangeEvent event = ChangeEvent.update(ODD_TABLE, pk, row, LSN, 1, 2);
        ChangeEvent streamed = (ChangeEvent) TopicCodec.CHANGES.decode(
            delivered(TopicCodec.CHANGES.recordByKey("changes", 4, event), 1));
        RowsMessage resolved = TopicCodec.ROWS.decode(
            delivered(TopicCodec.ROWS.recordByKey("rows", 4, ResolvedRow.of(streamed)), 2));
        RowsMessage again = TopicCodec.ROWS.decode(
            delivered(TopicCodec.ROWS.recordByKey("rows", 4, resolved), 3));

        SnapshotRow read = SnapshotRow.of(TASK, pk, row, SNAPSHOT);
        SnapshotRow snapshotted = (SnapshotRow) TopicCodec.SNAPSHOT_ROWS.decode(
            delivered(TopicCodec.SNAPSHOT_ROWS.recordByKey("snapshot-rows", 4, read), 4));

        for (RowJson hop : new RowJson[] {streamed.row().orElseThrow(), ((ResolvedRow) resolved).row(),
            ((ResolvedRow) again).row(), snapshotted.row()}) {
            assertThat(hop.json().getBytes(StandardCharsets.UTF_8)).isEqualTo(rowText.getBytes(StandardCharsets.UTF_8));
        }
        assertThat(((ResolvedRow) again).pk().json()).isEqualTo(pkText);
        assertThat(snapshotted.pk().json()).isEqualTo(pkText);
    }
}
