package io.tributary.writer.apply;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.tributary.syncrules.BucketRow;
import io.tributary.topics.json.CanonicalJson;
import io.tributary.topics.json.CanonicalJsonFactory;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code current_data.buckets} text: a JSON array of {@code [bucket, table, id]} triples, e.g.
 * {@code [["by_user[\"u1\"]","todos","t1"]]}, with canonical JSON's escapes and limits ({@link CanonicalJson},
 * {@link CanonicalJsonFactory}). Stateless and thread-safe.
 */
public final class Memberships {

    private Memberships() {
    }

    /** The text of the memberships of {@code rows}, in order. */
    public static String encode(List<BucketRow> rows) {
        StringBuilder out = new StringBuilder(rows.size() * 48 + 2).append('[');
        for (int i = 0; i < rows.size(); i++) {
            BucketRow row = rows.get(i);
            out.append(i == 0 ? "[" : ",[");
            CanonicalJson.quote(row.bucket(), out);
            out.append(',');
            CanonicalJson.quote(row.table(), out);
            out.append(',');
            CanonicalJson.quote(row.id(), out);
            out.append(']');
        }
        return out.append(']').toString();
    }

    /**
     * The memberships in {@code text}.
     *
     * @throws IllegalArgumentException if {@code text} is not such an array (a corrupt {@code current_data} row)
     */
    public static List<Membership> decode(String text) {
        List<Membership> memberships = new ArrayList<>();
        try (JsonParser p = CanonicalJsonFactory.FACTORY.createParser(text)) {
            expect(p.nextToken(), JsonToken.START_ARRAY, text);
            for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
                expect(t, JsonToken.START_ARRAY, text);
                String bucket = string(p, text);
                String table = string(p, text);
                String id = string(p, text);
                expect(p.nextToken(), JsonToken.END_ARRAY, text);
                memberships.add(new Membership(bucket, table, id));
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("Not a bucket membership array: " + text, e);
        }
        return memberships;
    }

    private static String string(JsonParser p, String text) throws IOException {
        expect(p.nextToken(), JsonToken.VALUE_STRING, text);
        return p.getText();
    }

    private static void expect(JsonToken actual, JsonToken expected, String text) {
        if (actual != expected) {
            throw new IllegalArgumentException("Not a bucket membership array (expected " + expected + ", found "
                + actual + "): " + text);
        }
    }
}
