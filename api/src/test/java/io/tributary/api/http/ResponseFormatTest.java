package io.tributary.api.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ResponseFormatTest {

    @Test
    void thePowerSyncClientsAcceptHeaderGetsBson() {
        assertThat(ResponseFormat.negotiate(
            "application/vnd.powersync.bson-stream;q=0.9,application/x-ndjson;q=0.8"))
            .isEqualTo(ResponseFormat.BSON);
    }

    @Test
    void noHeaderAWildcardOrAPreferenceForNdjsonGetNdjson() {
        assertThat(ResponseFormat.negotiate(null)).isEqualTo(ResponseFormat.NDJSON);
        assertThat(ResponseFormat.negotiate("")).isEqualTo(ResponseFormat.NDJSON);
        assertThat(ResponseFormat.negotiate("*/*")).isEqualTo(ResponseFormat.NDJSON);
        assertThat(ResponseFormat.negotiate("application/*")).isEqualTo(ResponseFormat.NDJSON);
        assertThat(ResponseFormat.negotiate("application/x-ndjson")).isEqualTo(ResponseFormat.NDJSON);
        assertThat(ResponseFormat.negotiate("application/vnd.powersync.bson-stream;q=0.5, application/x-ndjson"))
            .isEqualTo(ResponseFormat.NDJSON);
        assertThat(ResponseFormat.negotiate("text/html")).isEqualTo(ResponseFormat.NDJSON);
    }

    @Test
    void bsonNamedAloneFirstAtEqualQualityOrMoreSpecificallyThanAWildcardWins() {
        assertThat(ResponseFormat.negotiate("application/vnd.powersync.bson-stream")).isEqualTo(ResponseFormat.BSON);
        assertThat(ResponseFormat.negotiate("application/vnd.powersync.bson-stream, application/x-ndjson"))
            .isEqualTo(ResponseFormat.BSON);
        assertThat(ResponseFormat.negotiate("*/*, application/vnd.powersync.bson-stream"))
            .isEqualTo(ResponseFormat.BSON);
    }

    @Test
    void bsonAtQualityZeroIsRefused() {
        assertThat(ResponseFormat.negotiate("application/vnd.powersync.bson-stream;q=0, */*;q=0.1"))
            .isEqualTo(ResponseFormat.NDJSON);
    }
}
