package io.tributary.syncrules.internals.eval;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.testing.random.Seeds;
import io.tributary.topics.json.CanonicalJson;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CanonicalRowScanTest {

    private static boolean canonical(String json) {
        return canonical(json.getBytes(StandardCharsets.UTF_8));
    }

    private static boolean canonical(byte[] json) {
        return new CanonicalRowScan(json, new byte[0][], new int[0]).isCanonical();
    }

    /** What the scan promises: a text it calls canonical is what the tree writes. */
    private static boolean writtenAsIs(String json) {
        return CanonicalJson.toJson(RowJsonParser.parseObject(json)).equals(json);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "{}",
        "{\"id\":1,\"owner\":\"u1\",\"n\":-12,\"ok\":true,\"no\":false,\"x\":null}",
        "{\"a\":\"q\\\"b\\\\s\\b\\t\\n\\f\\r\\u0000\\u001F\\u000B\"}",
        "{\"é\":\"日本 😀 \u007f\"}",
        "{\"d\":[1.50,-0.5,0.000001,0.000000,10.0,123456789012345678901234567890.0001]}",
        "{\"big\":-123456789012345678901234567890,\"zero\":0}",
        "{\"j\":{\"a\":[{\"a\":1},{\"a\":2}],\"b\":{}},\"k\":[]}",
    })
    void acceptsCanonicalTexts(String json) {
        assertThat(canonical(json)).isTrue();
        assertThat(writtenAsIs(json)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "{ \"id\":1}",
        "{\"id\": 1}",
        "{\"id\":1}\n",
        "{\"id\":1} {}",
        "{\"s\":\"\\/\"}",
        "{\"s\":\"\\u0041\"}",
        "{\"s\":\"\\u001f\"}",
        "{\"s\":\"\\u0008\"}",
        "{\"s\":\"\\u000a\"}",
        "{\"s\":\"\\uD83D\\uDE00\"}",
        "{\"n\":-0}",
        "{\"n\":-0.0}",
        "{\"n\":1e5}",
        "{\"n\":1.5E-7}",
        "{\"n\":0.0000001}",
        "{\"n\":0.0000000}",
        "{\"n\":01}",
        "{\"n\":1.}",
        "{\"n\":.5}",
        "{\"n\":+1}",
        "{\"a\":1,\"a\":2}",
        "{\"o\":{\"a\":1,\"b\":{},\"a\":2}}",
        "{\"a\":tru}",
        "{\"a\":1,}",
        "{\"a\"}",
        "[1]",
        "{\"a\":\"unterminated}",
    })
    void rejectsTextsTheTreeWouldWriteDifferentlyOrNotAtAll(String json) {
        assertThat(canonical(json)).isFalse();
    }

    @Test
    void rejectsMalformedUtf8AndRawControlCharacters() {
        byte[][] texts = {
            {'{', '"', 'a', '"', ':', '"', (byte) 0xC0, (byte) 0xAF, '"', '}'},
            {'{', '"', 'a', '"', ':', '"', (byte) 0xED, (byte) 0xA0, (byte) 0x80, '"', '}'},
            {'{', '"', 'a', '"', ':', '"', (byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80, '"', '}'},
            {'{', '"', 'a', '"', ':', '"', (byte) 0xE6, (byte) 0x97, '"', '}'},
            {'{', '"', 'a', '"', ':', '"', (byte) 0x80, '"', '}'},
            {'{', '"', 'a', '"', ':', '"', 0x01, '"', '}'},
            {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF, '{', '}'},
        };
        for (byte[] text : texts) {
            assertThat(canonical(text)).as(new String(text, StandardCharsets.ISO_8859_1)).isFalse();
        }
    }

    @Test
    void plainDecimalsAreCanonicalExactlyWhenBigDecimalPrintsThemAsWritten() {
        long seed = Seeds.fromProperty("tributary.seed");
        Random random = new Random(seed);
        for (int i = 0; i < 20_000; i++) {
            StringBuilder number = new StringBuilder();
            if (random.nextBoolean()) {
                number.append('-');
            }
            number.append(random.nextInt(3) == 0 ? "0" : Integer.toString(1 + random.nextInt(1000)));
            number.append('.');
            int zeros = random.nextInt(9);
            number.append("0".repeat(zeros));
            if (random.nextInt(4) > 0) {
                number.append(random.nextInt(100_000));
            }
            if (number.charAt(number.length() - 1) == '.') {
                number.append('0');
            }
            String text = number.toString();
            assertThat(canonical("{\"n\":" + text + "}")).as("seed %d: %s", seed, text)
                .isEqualTo(new BigDecimal(text).toString().equals(text));
        }
    }

    @Test
    void locatesTopLevelValuesOnly() {
        byte[] text = "{\"o\":{\"id\":7},\"id\":\"x\\\"y\",\"w\\\"k\":[1]}".getBytes(StandardCharsets.UTF_8);
        byte[][] wanted = {CanonicalRowScan.keyBytes("id"), CanonicalRowScan.keyBytes("w\"k"),
            CanonicalRowScan.keyBytes("missing")};
        int[] hashes = new int[wanted.length];
        for (int i = 0; i < wanted.length; i++) {
            hashes[i] = CanonicalRowScan.hash(wanted[i]);
        }

        CanonicalRowScan scan = new CanonicalRowScan(text, wanted, hashes);

        assertThat(scan.isCanonical()).isTrue();
        assertThat(new String(text, scan.valueStart(0), scan.valueEnd(0) - scan.valueStart(0),
            StandardCharsets.UTF_8)).isEqualTo("\"x\\\"y\"");
        assertThat(new String(text, scan.valueStart(1), scan.valueEnd(1) - scan.valueStart(1),
            StandardCharsets.UTF_8)).isEqualTo("[1]");
        assertThat(scan.has(2)).isFalse();
    }

    @Test
    void nestingBeyondTheLimitIsLeftToTheTree() {
        int depth = CanonicalRowScan.MAX_DEPTH + 5;
        String json = "{\"a\":" + "[".repeat(depth) + "]".repeat(depth) + "}";

        assertThat(canonical(json)).isFalse();
        assertThat(writtenAsIs(json)).isTrue();
    }
}
