package io.tributary.syncrules.internals.eval;

import com.fasterxml.jackson.databind.JsonNode;
import io.tributary.syncrules.Edition;
import io.tributary.topics.json.CanonicalJson;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The elements of a JSON array as lookup values, the way PowerSync expands an {@code IN} over an array: the value's
 * SQLite text is parsed as JSON (numbers as JavaScript doubles), and each element becomes a lookup value, an
 * integer-valued number as that integer ({@code 1.0} and {@code 1} look up the same, {@code 9007199254740993}
 * looks up {@code 9007199254740992}), another number as JavaScript prints it, a string quoted. Elements that are
 * null, booleans, arrays or objects are left out: no stored or requested value is ever one of those. Stateless and
 * thread-safe.
 */
final class ExpandedValues {

    private ExpandedValues() {
    }

    /**
     * The lookup values of a request value {@code value} expanded by {@code column IN <request value>}: an array
     * gives its elements; a string is parsed as JSON text and gives the elements when that is an array, unless
     * {@code jsonText} (the value came from {@code ->}, which yields the JSON text of the string, never an array);
     * anything else gives none.
     */
    static List<String> ofRequest(JsonNode value, boolean jsonText) {
        if (value == null) {
            return List.of();
        }
        if (value.isArray()) {
            return elements(value);
        }
        if (value.isTextual() && !jsonText) {
            JsonNode parsed = RowJsonParser.parseOrMissing(value.textValue());
            return parsed.isArray() ? elements(parsed) : List.of();
        }
        return List.of();
    }

    /**
     * The lookup values a row's {@code value} stores under for {@code <request value> IN column}: the elements of
     * the array its client value holds (a Postgres array, a json array, or text holding a JSON array); none for
     * null; empty when the client value is not an array, which PowerSync reports as an error of the row.
     */
    static Optional<List<String>> ofRow(JsonNode value, Edition edition) {
        if (value == null || value.isNull() || value.isMissingNode()) {
            return Optional.of(List.of());
        }
        StringBuilder client = new StringBuilder();
        ClientValues.write(value, edition, client);
        JsonNode sqlite = RowJsonParser.parseOrMissing(client.toString());
        if (!sqlite.isTextual()) {
            return Optional.empty();
        }
        JsonNode parsed = RowJsonParser.parseOrMissing(sqlite.textValue());
        return parsed.isArray() ? Optional.of(elements(parsed)) : Optional.empty();
    }

    private static List<String> elements(JsonNode array) {
        List<String> texts = new ArrayList<>(array.size());
        for (JsonNode element : array) {
            element(element).ifPresent(texts::add);
        }
        return texts;
    }

    private static Optional<String> element(JsonNode element) {
        StringBuilder text = new StringBuilder();
        if (element.isTextual()) {
            CanonicalJson.quote(element.textValue(), text);
            return Optional.of(text.toString());
        }
        if (!element.isNumber()) {
            return Optional.empty();
        }
        double number = element.doubleValue();
        if (!Double.isFinite(number)) {
            return Optional.empty();
        }
        if (number == Math.rint(number)) {
            return Optional.of(new BigDecimal(number).toBigInteger().toString());
        }
        ClientNumbers.appendJs(new BigDecimal(Double.toString(number)), text);
        return Optional.of(text.toString());
    }
}
