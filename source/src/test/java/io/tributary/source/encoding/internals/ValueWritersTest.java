package io.tributary.source.encoding.internals;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ValueWritersTest {

    private interface Write {
        void to(JsonGenerator out) throws IOException;
    }

    private static String written(Write write) throws IOException {
        StringWriter text = new StringWriter();
        try (JsonGenerator out = new JsonFactory().createGenerator(text)) {
            write.to(out);
        }
        return text.toString();
    }

    @ParameterizedTest
    @CsvSource({"3, 3.0", "-0.0, 0.0", "2.5, 2.5", "1e21, 1e+21", "1e20, 100000000000000000000.0",
        "1.5e-7, 1.5e-7"})
    void doublesStayFloatsInTheirText(double value, String expected) throws IOException {
        assertThat(written(out -> ValueWriters.float8(value, out))).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource({"-2, -2.0", "0.1, 0.1", "16777216, 16777216.0"})
    void floatsStayFloatsInTheirText(float value, String expected) throws IOException {
        assertThat(written(out -> ValueWriters.float4(value, out))).isEqualTo(expected);
    }

    @Test
    void nonFiniteValuesAreStrings() throws IOException {
        assertThat(written(out -> ValueWriters.float8(Double.NaN, out))).isEqualTo("\"NaN\"");
    }
}
