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

    private static SyncRequest parse(String json) throws ProtocolException {
        return SyncRequest.parse(json.getBytes(StandardCharsets.UTF_8));
    }
}
