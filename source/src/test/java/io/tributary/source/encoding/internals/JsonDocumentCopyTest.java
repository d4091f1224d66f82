package io.tributary.source.encoding.internals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.topics.json.CanonicalJsonFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class JsonDocumentCopyTest {

    private static String canonical(String json) throws IOException {
        JsonTextWriter writer = new JsonTextWriter();
        JsonDocumentCopy.copy(json, writer.generator());
        return text(writer);
    }

    private static String text(JsonTextWriter writer) throws IOException {
        return new String(writer.takeUtf8(), StandardCharsets.UTF_8);
    }

    @Test
    void whitespaceIsRemovedAndKeyOrderKept() throws IOException {
        assertThat(canonical("{\"b\": 1, \"a\": [1, 2, {\"z\": null}]}"))
            .isEqualTo("{\"b\":1,\"a\":[1,2,{\"z\":null}]}");
    }

    @Test
    void numbersKeepTheirText() throws IOException {
        assertThat(canonical("[1.0, 2e3, -0, 123456789012345678901234567890.5, 1E-400]"))
            .isEqualTo("[1.0,2e3,-0,123456789012345678901234567890.5,1E-400]");
    }

    @Test
    void duplicateKeysOfJsonAreKept() throws IOException {
        assertThat(canonical("{\"a\":1,\"a\":2}")).isEqualTo("{\"a\":1,\"a\":2}");
    }

    @Test
    void stringsAreReEscapedCanonically() throws IOException {
        assertThat(canonical("\"\\u0041\\/\\u00e9\\ud83d\\ude00\\u0001\\n\"")).isEqualTo("\"A/é😀\\u0001\\n\"");
    }

    @Test
    void scalarDocumentsAreAllowed() throws IOException {
        assertThat(canonical(" 42 ")).isEqualTo("42");
        assertThat(canonical("\"x\"")).isEqualTo("\"x\"");
    }

    @Test
    void trailingContentIsRejected() {
        assertThatThrownBy(() -> canonical("1 2")).isInstanceOf(UnencodableValueException.class);
    }

    @Test
    void malformedJsonIsRejected() {
        assertThatThrownBy(() -> canonical("{\"a\":}")).isInstanceOf(UnencodableValueException.class);
    }

    @Test
    void documentsNestedToTheCanonicalBoundAreCopied() throws IOException {
        String deepest = nested(CanonicalJsonFactory.MAX_NESTING_DEPTH);
        assertThat(canonical(deepest)).isEqualTo(deepest);
    }

    @Test
    void documentsNestedDeeperThanTheCanonicalBoundAreRejected() {
        assertThatThrownBy(() -> canonical(nested(CanonicalJsonFactory.MAX_NESTING_DEPTH + 1)))
            .isInstanceOf(UnencodableValueException.class);
    }

    private static String nested(int depth) {
        return "[".repeat(depth) + "]".repeat(depth);
    }

    @Test
    void writerProducesOneValuePerTake() throws IOException {
        JsonTextWriter writer = new JsonTextWriter();
        writer.generator().writeStartArray();
        writer.generator().writeEndArray();
        assertThat(text(writer)).isEqualTo("[]");
        writer.generator().writeNumber(1);
        assertThat(text(writer)).isEqualTo("1");
    }

    @Test
    void discardDropsAPartlyWrittenValue() throws IOException {
        JsonTextWriter writer = new JsonTextWriter();
        writer.generator().writeStartObject();
        writer.generator().writeFieldName("a");
        writer.discard();
        writer.generator().writeString("b");
        assertThat(text(writer)).isEqualTo("\"b\"");
    }
}
