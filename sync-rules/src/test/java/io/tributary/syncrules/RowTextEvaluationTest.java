package io.tributary.syncrules;

import static io.tributary.syncrules.TestRows.yaml;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.syncrules.internals.eval.RowJsonParser;
import io.tributary.testing.random.Seeds;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Evaluating a row from its JSON text (bytes or string) gives exactly what evaluating its parsed tree gives: the
 * canonical texts the scan reads without a tree, and every other text (non-canonical, invalid) the tree path reads.
 * Random rows; the seed is in the assertion description.
 */
class RowTextEvaluationTest {

    private static final String TABLE = "public.t";

    private static final List<SyncRules> RULES = List.of(
        SyncRules.parse(yaml(
            "bucket_definitions:",
            "  by_owner:",
            "    parameters: SELECT request.user_id() AS u",
            "    data:",
            "      - SELECT * FROM t WHERE owner = bucket.u")),
        SyncRules.parse(yaml(
            "bucket_definitions:",
            "  global:",
            "    data:",
            "      - SELECT id, title, n AS num, 'x' AS tag FROM t WHERE n > 3 OR title = 'a\"b'",
            "      - SELECT * FROM t WHERE n IS NULL")),
        SyncRules.parse(yaml(
            "bucket_definitions:",
            "  mixed:",
            "    parameters: SELECT request.user_id() AS u",
            "    data:",
            "      - SELECT *, title AS heading FROM t WHERE owner = bucket.u")),
        SyncRules.parse(yaml(
            "bucket_definitions:",
            "  tagged:",
            "    parameters: SELECT request.user_id() AS u",
            "    data:",
            "      - SELECT * FROM t WHERE bucket.u IN tags OR owner = bucket.u",
            "      - SELECT id, body, \"w\"\"k\", \"é\" FROM t WHERE owner = bucket.u AND n <> 7")));

    private static final String[] KEYS = {"id", "owner", "title", "n", "tags", "body", "w\"k", "é", "extra"};
    private static final String[] STRINGS = {"u1", "u2", "a\"b", "back\\slash", "tab\tnew\nline", "\u0001\u001f",
        "é日", "😀", "\u007f", "", "/", "2024-01-02T03:04:05.120000", "2024-01-02T03:04:05.000000Z",
        "01:02:03.500000", "01:02:03.500000Z", "P1Y2M-3DT4H5M6.780000S", "P", "Plain"};

    @Test
    void textsEvaluateAsTheirTrees() {
        long seed = Seeds.fromProperty("tributary.seed");
        Random random = new Random(seed);
        for (int i = 0; i < 10_000; i++) {
            String text = randomRow(random);
            byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
            if (random.nextInt(50) == 0) {
                bytes = corrupt(random, bytes);
                text = new String(bytes, StandardCharsets.UTF_8);
            }
            for (SyncRules rules : RULES) {
                assertSameAsTree(rules, bytes, seed, i);
            }
        }
    }

    @Test
    void aStringWithAnUnpairedSurrogateEvaluatesAsItsTree() {
        String text = "{\"id\":\"x\",\"owner\":\"a\uD800b\"}";

        EvaluationResult result = RULES.get(0).evaluate(TABLE, text);

        assertThat(result).isEqualTo(RULES.get(0).evaluate(TABLE, RowJsonParser.parseObject(text)));
        assertThat(result.rows()).extracting(BucketRow::bucket).containsExactly("by_owner[\"a\uD800b\"]");
    }

    @Test
    void selectStarWritesTheClientValuesOfTheText() {
        String text = "{\"id\":1,\"owner\":\"u1\",\"d\":1.50,\"b\":true,\"j\":{\"k\":[true,null]}}";

        EvaluationResult result = RULES.get(0).evaluate(TABLE, text.getBytes(StandardCharsets.UTF_8));

        assertThat(result.rows()).containsExactly(new BucketRow("by_owner[\"u1\"]", "t", "1",
            "{\"id\":1,\"owner\":\"u1\",\"d\":1.5,\"b\":1,\"j\":\"{\\\"k\\\": [true, null]}\"}"));
    }

    private static void assertSameAsTree(SyncRules rules, byte[] bytes, long seed, int i) {
        String text = new String(bytes, StandardCharsets.UTF_8);
        String description = String.format("seed %d, row %d: %s", seed, i, text);
        ObjectNode tree;
        try {
            tree = RowJsonParser.parseObject(bytes);
        } catch (IllegalArgumentException e) {
            assertThatThrownBy(() -> rules.evaluate(TABLE, bytes)).as(description)
                .isInstanceOf(IllegalArgumentException.class);
            return;
        }
        EvaluationResult expected = rules.evaluate(TABLE, tree);
        assertThat(rules.evaluate(TABLE, bytes)).as(description).isEqualTo(expected);
        assertThat(rules.evaluate(TABLE, text)).as(description).isEqualTo(rules.evaluate(TABLE,
            RowJsonParser.parseObject(text)));
    }

    private static String randomRow(Random random) {
        boolean tidy = random.nextInt(4) > 0;
        StringBuilder row = new StringBuilder("{");
        int columns = random.nextInt(8);
        List<String> keys = new ArrayList<>();
        for (int c = 0; c < columns; c++) {
            String key = KEYS[random.nextInt(KEYS.length)];
            if (tidy && keys.contains(key)) {
                continue;
            }
            keys.add(key);
            if (row.length() > 1) {
                row.append(',');
            }
            space(random, tidy, row);
            string(random, tidy, key, row);
            row.append(':');
            space(random, tidy, row);
            value(random, tidy, key, 2, row);
        }
        return row.append('}').toString();
    }

    private static void value(Random random, boolean tidy, String key, int depth, StringBuilder out) {
        int kind = random.nextInt(depth > 0 ? 9 : 7);
        if (key.equals("owner") && random.nextInt(3) > 0) {
            kind = 0;
        }
        switch (kind) {
            case 0 -> string(random, tidy, randomText(random), out);
            case 1 -> out.append(random.nextBoolean());
            case 2 -> out.append("null");
            case 3 -> out.append(random.nextInt(20) - 5);
            case 4 -> out.append(new String[] {"9223372036854775807", "-9223372036854775808",
                "123456789012345678901234567890", "2147483648", "-0", "0"}[random.nextInt(6)]);
            case 5 -> out.append(new String[] {"1.50", "-0.5", "0.000001", "0.0000001", "-0.0", "1e5", "1.5E-7",
                "0.000000", "0.0000000", "3.0", "12.25"}[random.nextInt(11)]);
            case 6 -> string(random, tidy, "[\"u1\",\"u2\"]", out);
            case 7 -> {
                out.append('[');
                int n = random.nextInt(4);
                for (int i = 0; i < n; i++) {
                    if (i > 0) {
                        out.append(',');
                    }
                    value(random, tidy, "", depth - 1, out);
                }
                out.append(']');
            }
            default -> {
                out.append('{');
                int n = random.nextInt(3);
                for (int i = 0; i < n; i++) {
                    if (i > 0) {
                        out.append(',');
                    }
                    string(random, tidy, KEYS[random.nextInt(3)], out);
                    out.append(':');
                    value(random, tidy, "", depth - 1, out);
                }
                out.append('}');
            }
        }
    }

    /** One of {@link #STRINGS}, or several of them with ASCII runs of up to 20 characters between. */
    private static String randomText(Random random) {
        if (random.nextBoolean()) {
            return STRINGS[random.nextInt(STRINGS.length)];
        }
        StringBuilder text = new StringBuilder();
        for (int n = 1 + random.nextInt(5); n > 0; n--) {
            text.append("abcdefghijklmnopqrst", 0, random.nextInt(21));
            text.append(STRINGS[random.nextInt(STRINGS.length)]);
        }
        return text.toString();
    }

    /** A JSON string: canonical escapes when tidy, otherwise sometimes other valid escapes. */
    private static void string(Random random, boolean tidy, String value, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (!tidy && random.nextInt(4) == 0) {
                out.append(String.format(random.nextBoolean() ? "\\u%04x" : "\\u%04X", (int) c));
            } else if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c == '/' && !tidy && random.nextBoolean()) {
                out.append("\\/");
            } else if (c < 0x20) {
                String shortForm = switch (c) {
                    case '\b' -> "\\b";
                    case '\t' -> "\\t";
                    case '\n' -> "\\n";
                    case '\f' -> "\\f";
                    case '\r' -> "\\r";
                    default -> null;
                };
                out.append(shortForm != null ? shortForm : String.format("\\u%04X", (int) c));
            } else {
                out.append(c);
            }
        }
        out.append('"');
    }

    private static void space(Random random, boolean tidy, StringBuilder out) {
        if (!tidy && random.nextBoolean()) {
            out.append(' ');
        }
    }

    private static byte[] corrupt(Random random, byte[] bytes) {
        byte[] copy = bytes.clone();
        copy[random.nextInt(copy.length)] = (byte) random.nextInt(256);
        return copy;
    }
}
