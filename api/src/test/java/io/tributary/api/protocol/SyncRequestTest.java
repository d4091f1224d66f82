package io.tributary.api.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class SyncRequestTest {

    @Test
    void readsPositionsClientIdParametersAndRawData() throws Exception {
        SyncRequest request = parse("{\"buckets\":[{\"name\":\"a[]\",\"after\":\"12\"},{\"name\":\"b[]\",\"after\":3}],"
            + "\"include_checksum\":true,\"raw_data\":true,\"client_id\":\"c1\",\"parameters\":{\"x\":1},"
            + "\"app_metadata\":{\"v\":\"1\"},\"streams\":{\"include_defaults\":true,\"subscriptions\":[]}}");

        assertThat(request.positions()).containsExactly(java.util.Map.entry("a[]", 12L),
            java.util.Map.entry("b[]", 3L));
        assertThat(request.rawData()).isTrue();
        assertThat(request.clientId()).isEqualTo("c1");
        assertThat(request.parameters().get("x").asInt()).isEqualTo(1);
    }

    @Test
    void anEmptyBodyIsAFreshClient() throws Exception {
        SyncRequest request = SyncRequest.parse(new byte[0]);

        assertThat(request.positions()).isEmpty();
        assertThat(request.rawData()).isFalse();
        assertThat(request.clientId()).isEmpty();
    }

    @Test
    void malformedRequestsNameTheField() {
        assertThatThrownBy(() -> parse("[1]")).isInstanceOf(ProtocolException.class).hasMessageContaining("object");
        assertThatThrownBy(() -> parse("{\"buckets\":{}}")).hasMessageContaining("buckets must be an array");
        assertThatThrownBy(() -> parse("{\"buckets\":[{\"name\":\"a[]\",\"after\":\"x\"}]}"))
            .hasMessageContaining("buckets[].after of a[]");
        assertThatThrownBy(() -> parse("{\"buckets\":[{\"after\":\"1\"}]}"))
            .hasMessageContaining("buckets[].name");
        assertThatThrownBy(() -> parse("{\"parameters\":[]}")).hasMessageContaining("parameters");
        assertThatThrownBy(() -> parse("{")).hasMessageContaining("not JSON");
    }

    @Test
    void streamsSelectDefinitionsByNameAndDefaultToAll() throws Exception {
        assertThat(parse("{}").streams()).isEqualTo(StreamSelection.DEFAULTS);
        StreamSelection selection = parse("{\"streams\":{\"include_defaults\":false,\"subscriptions\":["
            + "{\"stream\":\"by_user\",\"parameters\":null,\"override_priority\":null},"
            + "{\"stream\":\"by_user\",\"parameters\":{}}]}}").streams();

        assertThat(selection.includes("by_user")).isTrue();
        assertThat(selection.includes("global")).isFalse();
        assertThat(selection.streams(java.util.List.of("global", "by_user"))).containsExactly("by_user");
        assertThat(selection.problemWith(java.util.List.of("global", "by_user"))).isEmpty();
        assertThat(selection.problemWith(java.util.List.of("global")).orElseThrow())
            .contains("by_user").contains("do not define").contains("global");
    }

    @Test
    void subscriptionsWithParametersOrAPriorityOverrideAreRefused() {
        assertThatThrownBy(() -> parse("{\"streams\":{\"subscriptions\":[{\"stream\":\"s\","
            + "\"parameters\":{\"list\":\"l1\"}}]}}")).hasMessageContaining("subscription to s carries parameters");
        assertThatThrownBy(() -> parse("{\"streams\":{\"subscriptions\":[{\"stream\":\"s\","
            + "\"override_priority\":0}]}}")).hasMessageContaining("overrides its priority");
        assertThatThrownBy(() -> parse("{\"streams\":{\"subscriptions\":[{}]}}"))
            .hasMessageContaining("subscriptions[].stream");
        assertThatThrownBy(() -> parse("{\"streams\":{\"include_defaults\":\"no\"}}"))
            .hasMessageContaining("include_defaults");
    }

    private static SyncRequest parse(String json) throws ProtocolException {
        return SyncRequest.parse(json.getBytes(StandardCharsets.UTF_8));
    }
}
