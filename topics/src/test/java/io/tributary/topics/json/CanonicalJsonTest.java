package io.tributary.topics.json;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.testing.random.Seeds;
import java.io.IOException;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Random;
import org.junit.jupiter.api.Test;

class CanonicalJsonTest {

    private static final ObjectMapper JACKSON = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.withExactBigDecimals(true);

    @Test
    void writesWhatJacksonAndTheDocumentGeneratorWriteForRandomTrees() throws Exception {
        long seed = Seeds.fromProperty("tributary.seed");
        Random random = new Random(seed);
        for (int i = 0; i < 2000; i++) {
            JsonNode tree = randomValue(random, 3);
            String text = CanonicalJson.toJson(tree);
            assertThat(text).as("seed %d, tree %d", seed, i).isEqualTo(JACKSON.writeValueAsString(tree));
            assertThat(generated(tree)).as("seed %d, tree %d (document generator)", seed, i).isEqualTo(text);
        }
    }

    @Test
    void escapesQuotesBackslashesAndControlCharacters() {
        assertThat(CanonicalJson.toJson(NODES.textNode("a\"b\\c\n\u0001\u001f/é")))
            .isEqualTo("\"a\\\"b\\\\c\\n\\u0001\\u001F/é\"");
    }

    @Test
    void keepsDecimalTextAndObjectKeyOrder() {
        ObjectNode object = NODES.objectNode();
        object.put("z", new BigDecimal("1.50"));
        object.put("a", 1);

        assertThat(CanonicalJson.toJson(object)).isEqualTo("{\"z\":1.50,\"a\":1}");
    }

    @Test
    void writesJavaNullAsJsonNull() {
        assertThat(CanonicalJson.toJson(null)).isEqualTo("null");
    }

    /** The text the source's generator ({@link CanonicalJsonFactory#DOCUMENT_FACTORY}) writes for {@code tree}. */
    private static String generated(JsonNode tree) throws IOException {
        StringWriter out = new StringWriter();
        try (JsonGenerator generator = CanonicalJsonFactory.DOCUMENT_FACTORY.createGenerator(out)) {
            JACKSON.writeTree(generator, tree);
        }
        return out.toString();
    }

    private static JsonNode randomValue(Random random, int depth) {
        int kind = random.nextInt(depth > 0 ? 10 : 8);
        switch (kind) {
            case 0:
                return NODES.nullNode();
            case 1:
                return NODES.booleanNode(random.nextBoolean());
            case 2:
                return NODES.numberNode(random.nextInt());
            case 3:
                return NODES.numberNode(random.nextLong());
            case 4:
                return NODES.numberNode(new BigDecimal(BigInteger.valueOf(random.nextLong()), random.nextInt(20) - 5));
            case 5:
                return NODES.numberNode(random.nextDouble() * 1e6);
            case 6:
            case 7:
                return NODES.textNode(randomText(random));
            case 8:
                ArrayNode array = NODES.arrayNode();
                for (int i = random.nextInt(4); i > 0; i--) {
                    array.add(randomValue(random, depth - 1));
                }
                return array;
            default:
                ObjectNode object = NODES.objectNode();
                for (int i = random.nextInt(4); i > 0; i--) {
                    object.set(randomText(random), randomValue(random, depth - 1));
                }
                return object;
        }
    }

    private static String randomText(Random random) {
        StringBuilder text = new StringBuilder();
        for (int i = random.nextInt(12); i > 0; i--) {
            int pick = random.nextInt(6);
            if (pick == 0) {
                text.append((char) random.nextInt(0x20));
            } else if (pick == 1) {
                text.append("\"\\/\u007f\u2028".charAt(random.nextInt(5)));
            } else if (pick == 2) {
                text.appendCodePoint(0x1F600 + random.nextInt(50));
            } else if (pick == 3) {
                text.append((char) (0xA0 + random.nextInt(0x2000)));
            } else {
                text.append((char) ('a' + random.nextInt(26)));
            }
        }
        return text.toString();
    }
}
