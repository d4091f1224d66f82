package io.tributary.api.http;

import io.tributary.api.protocol.WireFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The encodings of a sync stream and how a request picks one from its {@code Accept} header, as PowerSync's service
 * negotiates it: the type with the higher quality wins; at equal quality the one named by the more specific range
 * ({@code type/subtype} over {@code type/*} over {@code *}{@code /*}), then the one listed first in the header, then
 * NDJSON. Without an {@code Accept} header, or when it accepts neither, the stream is NDJSON. The PowerSync client
 * SDKs send {@code application/vnd.powersync.bson-stream;q=0.9,application/x-ndjson;q=0.8} and read either.
 */
enum ResponseFormat {

    /** {@code application/x-ndjson}: one JSON object per line. */
    NDJSON("application/x-ndjson", WireFormat.NDJSON),
    /** {@code application/vnd.powersync.bson-stream}: one BSON document after another, each with its length. */
    BSON("application/vnd.powersync.bson-stream", WireFormat.BSON);

    private final String contentType;
    private final WireFormat wire;

    ResponseFormat(String contentType, WireFormat wire) {
        this.contentType = contentType;
        this.wire = wire;
    }

    /** How the stream's lines are encoded. */
    WireFormat wire() {
        return wire;
    }

    /** The response's {@code Content-Type}. */
    String contentType() {
        return contentType;
    }

    /** The format for a request's {@code Accept} header ({@code null} when it has none). */
    static ResponseFormat negotiate(String accept) {
        if (accept == null || accept.isBlank()) {
            return NDJSON;
        }
        List<Range> ranges = Range.parseAll(accept);
        Match ndjson = Match.best(NDJSON.contentType, ranges);
        Match bson = Match.best(BSON.contentType, ranges);
        return bson.beats(ndjson) ? BSON : NDJSON;
    }

    /** One media range of an {@code Accept} header, its quality and its position in the header. */
    private record Range(String type, String subtype, double quality, int position) {

        static List<Range> parseAll(String accept) {
            String[] parts = accept.split(",");
            ArrayList<Range> ranges = new ArrayList<>(parts.length);
            for (int i = 0; i < parts.length; i++) {
                String[] pieces = parts[i].split(";");
                String media = pieces[0].trim().toLowerCase(Locale.ROOT);
                int slash = media.indexOf('/');
                if (slash <= 0) {
                    continue;
                }
                double quality = 1;
                for (int p = 1; p < pieces.length; p++) {
                    String parameter = pieces[p].trim();
                    if (parameter.length() > 2 && (parameter.startsWith("q=") || parameter.startsWith("Q="))) {
                        try {
                            quality = Double.parseDouble(parameter.substring(2).trim());
                        } catch (NumberFormatException e) {
                            quality = 0;
                        }
                    }
                }
                ranges.add(new Range(media.substring(0, slash), media.substring(slash + 1), quality, i));
            }
            return ranges;
        }

        /** How specifically this range names {@code type/subtype}: 2 exactly, 1 by type, 0 any, -1 not at all. */
        int specificity(String type, String subtype) {
            if (this.type.equals(type) && this.subtype.equals(subtype)) {
                return 2;
            }
            if (this.type.equals(type) && this.subtype.equals("*")) {
                return 1;
            }
            return this.type.equals("*") && this.subtype.equals("*") ? 0 : -1;
        }
    }

    /** How a header accepts one type: through its most specific range. */
    private record Match(double quality, int specificity, int position) {

        static final Match NONE = new Match(0, -1, Integer.MAX_VALUE);

        static Match best(String contentType, List<Range> ranges) {
            int slash = contentType.indexOf('/');
            String type = contentType.substring(0, slash);
            String subtype = contentType.substring(slash + 1);
            Match best = NONE;
            for (Range range : ranges) {
                int specificity = range.specificity(type, subtype);
                if (specificity > best.specificity) {
                    best = new Match(range.quality(), specificity, range.position());
                }
            }
            return best;
        }

        boolean beats(Match other) {
            if (quality <= 0) {
                return false;
            }
            if (quality != other.quality) {
                return quality > other.quality;
            }
            if (specificity != other.specificity) {
                return specificity > other.specificity;
            }
            return position < other.position;
        }
    }
}
