package io.tributary.source.encoding;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.UUID;
import java.util.function.Function;

/**
 * The columns of the parity test table, one per supported type and array type, each with a generator of random
 * values as Postgres input text ({@code null} for SQL NULL), edge cases included with raised probability.
 */
final class ParityColumns {

    /** One column: its name, SQL type and value generator. */
    record Column(String name, String sqlType, Function<Random, String> values) {
    }

    private static final String[] TEXT_EDGES = {
        "", " ", "NULL", "null", "a\"b", "back\\slash", "{braces}", "comma,comma", "quote'quote",
        "tab\tnew\nline\rret", "\u0001\u001f\u007f", "é ü ß", "漢字", "😀👍🏽", "\ud834\udd1e clef", "\u2028\u2029",
        "</script>", "trailing space ", "  ",
    };
    private static final double[] DOUBLE_EDGES = {
        0.0, -0.0, 1, -1, 0.1, 1e21, 1e20, 1.5e-7, 1e-7, 1e-6, 1e-310, Double.MIN_VALUE, -Double.MIN_VALUE,
        Double.MAX_VALUE, Double.MIN_NORMAL, 9007199254740993d, 123456789012345680000d, 0.30000000000000004,
        Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
    };
    private static final float[] FLOAT_EDGES = {
        0f, -0f, 0.1f, 3.1f, 1e-40f, Float.MIN_VALUE, Float.MAX_VALUE, Float.MIN_NORMAL, 16777217f, 1e21f,
        Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY,
    };
    private static final String[] NUMERIC_EDGES = {
        "0", "0.000", "-0.001", "1.50", "NaN", "Infinity", "-Infinity", "1e40", "1.5e-30", "0.0000001",
        "-99999999999999999999999999999999999999.99", "1234567890123456789012345678901234567890",
        "12345678901234567890.123456789",
    };
    private static final String[] OFFSETS = {"+00", "+02", "-05", "+05:30", "-03:30", "+14", "-12", "+00:00:30"};
    /** Debezium 3.6 stops the connector on a {@code timetz} offset with seconds, so those are not generated. */
    private static final String[] TIME_OFFSETS = {"+00", "+02", "-05", "+05:30", "-03:30", "+14", "-12"};
    private static final String[] MOODS = {"sad", "ok", "happy", "Ünï code"};
    private static final long MIN_DAY = LocalDate.of(1, 1, 1).toEpochDay();
    private static final long MAX_DAY = LocalDate.of(9999, 12, 31).toEpochDay();
    private static final long MICROS_PER_DAY = 86_400_000_000L;

    private ParityColumns() {
    }

    /** The enum type the table uses; create it first. */
    static String createEnum(String type) {
        return "CREATE TYPE " + type + " AS ENUM ('sad', 'ok', 'happy', 'Ünï code')";
    }

    /** Every non-key column; key columns are {@code id bigint} and {@code tag text}. */
    static List<Column> columns(String enumType) {
        List<Column> c = new ArrayList<>();
        c.add(new Column("c_bool", "boolean", nullable(r -> r.nextBoolean() ? "true" : "false")));
        c.add(new Column("c_int2", "smallint", nullable(r -> Short.toString(pick(r, new Short[] {
            Short.MIN_VALUE, Short.MAX_VALUE, 0}, (short) r.nextInt())))));
        c.add(new Column("c_int4", "integer", nullable(r -> Integer.toString(pick(r, new Integer[] {
            Integer.MIN_VALUE, Integer.MAX_VALUE, 0}, r.nextInt())))));
        c.add(new Column("c_int8", "bigint", nullable(r -> Long.toString(int8(r)))));
        c.add(new Column("c_oid", "oid", nullable(r -> Long.toString(r.nextInt(8) == 0 ? 4294967295L
            : r.nextLong() & 0xffffffffL))));
        c.add(new Column("c_numeric", "numeric", nullable(r -> numeric(r, true))));
        c.add(new Column("c_numeric_fixed", "numeric(12,3)", nullable(r -> fixedNumeric(r))));
        c.add(new Column("c_float4", "real", nullable(ParityColumns::float4)));
        c.add(new Column("c_float8", "double precision", nullable(ParityColumns::float8)));
        c.add(new Column("c_text", "text", nullable(r -> text(r, 60))));
        c.add(new Column("c_varchar", "varchar(40)", nullable(r -> text(r, 40))));
        c.add(new Column("c_char", "char(6)", nullable(r -> ascii(r, r.nextInt(7)))));
        c.add(new Column("c_citext", "citext", nullable(r -> text(r, 20))));
        c.add(new Column("c_mood", enumType, nullable(r -> MOODS[r.nextInt(MOODS.length)])));
        c.add(new Column("c_uuid", "uuid", nullable(r -> uuid(r))));
        c.add(new Column("c_date", "date", nullable(r -> date(r, true))));
        c.add(new Column("c_time", "time", nullable(ParityColumns::time)));
        c.add(new Column("c_timetz", "timetz", nullable(r -> time(r).replace("24:00:00", "23:59:59")
            + TIME_OFFSETS[r.nextInt(TIME_OFFSETS.length)])));
        c.add(new Column("c_ts", "timestamp", nullable(r -> timestamp(r, true))));
        c.add(new Column("c_ts3", "timestamp(3)", nullable(r -> millis(timestamp(r, true)))));
        c.add(new Column("c_tstz", "timestamptz", nullable(r -> timestamptz(r, true))));
        c.add(new Column("c_interval", "interval", nullable(ParityColumns::interval)));
        c.add(new Column("c_bytea", "bytea", nullable(ParityColumns::bytea)));
        c.add(new Column("c_json", "json", nullable(r -> Json.document(r, false))));
        c.add(new Column("c_jsonb", "jsonb", nullable(r -> Json.document(r, true))));
        c.add(new Column("a_bool", "boolean[]", array(r -> r.nextBoolean() ? "t" : "f")));
        c.add(new Column("a_int2", "smallint[]", array(r -> Short.toString((short) r.nextInt()))));
        c.add(new Column("a_int4", "integer[]", array(r -> Integer.toString(r.nextInt()))));
        c.add(new Column("a_int8", "bigint[]", array(r -> Long.toString(int8(r)))));
        c.add(new Column("a_numeric", "numeric[]", array(r -> numeric(r, false))));
        c.add(new Column("a_float4", "real[]", array(ParityColumns::float4)));
        c.add(new Column("a_float8", "double precision[]", array(ParityColumns::float8)));
        c.add(new Column("a_text", "text[]", array(r -> text(r, 20))));
        c.add(new Column("a_varchar", "varchar(10)[]", array(r -> text(r, 10))));
        c.add(new Column("a_char", "char(3)[]", array(r -> ascii(r, r.nextInt(4)))));
        c.add(new Column("a_mood", enumType + "[]", array(r -> MOODS[r.nextInt(MOODS.length)], false)));
        c.add(new Column("a_uuid", "uuid[]", array(r -> uuid(r))));
        c.add(new Column("a_date", "date[]", array(r -> date(r, false))));
        c.add(new Column("a_ts", "timestamp[]", array(r -> timestamp(r, false))));
        c.add(new Column("a_tstz", "timestamptz[]", array(r -> timestamptz(r, false))));
        c.add(new Column("a_bytea", "bytea[]", array(ParityColumns::bytea)));
        c.add(new Column("a_json", "json[]", array(r -> Json.document(r, false))));
        c.add(new Column("a_jsonb", "jsonb[]", array(r -> Json.document(r, true))));
        return c;
    }

    private static Function<Random, String> nullable(Function<Random, String> values) {
        return r -> r.nextInt(10) == 0 ? null : values.apply(r);
    }

    /** A one-dimensional array literal: empty, NULL elements (unless excluded), quoted elements. */
    private static Function<Random, String> array(Function<Random, String> elements) {
        return array(elements, true);
    }

    private static Function<Random, String> array(Function<Random, String> elements, boolean nullElements) {
        return nullable(r -> {
            int n = r.nextInt(6) == 0 ? 0 : 1 + r.nextInt(5);
            StringBuilder literal = new StringBuilder("{");
            for (int i = 0; i < n; i++) {
                if (i > 0) {
                    literal.append(',');
                }
                if (nullElements && r.nextInt(8) == 0) {
                    literal.append("NULL");
                    continue;
                }
                literal.append('"');
                for (char ch : elements.apply(r).toCharArray()) {
                    if (ch == '"' || ch == '\\') {
                        literal.append('\\');
                    }
                    literal.append(ch);
                }
                literal.append('"');
            }
            return literal.append('}').toString();
        });
    }

    private static <T> T pick(Random r, T[] edges, T random) {
        return r.nextInt(4) == 0 ? edges[r.nextInt(edges.length)] : random;
    }

    private static long int8(Random r) {
        return pick(r, new Long[] {Long.MIN_VALUE, Long.MAX_VALUE, 0L, -1L}, r.nextLong());
    }

    private static String numeric(Random r, boolean specials) {
        if (r.nextInt(3) == 0) {
            String edge = NUMERIC_EDGES[r.nextInt(NUMERIC_EDGES.length)];
            if (specials || !(edge.contains("NaN") || edge.contains("Infinity"))) {
                return edge;
            }
        }
        StringBuilder s = new StringBuilder(r.nextBoolean() ? "-" : "");
        int intDigits = r.nextInt(25);
        s.append(intDigits == 0 ? "0" : Integer.toString(1 + r.nextInt(9)));
        for (int i = 1; i < intDigits; i++) {
            s.append(r.nextInt(10));
        }
        int scale = r.nextInt(20);
        if (scale > 0) {
            s.append('.');
            for (int i = 0; i < scale; i++) {
                s.append(r.nextInt(10));
            }
        }
        return s.toString();
    }

    private static String fixedNumeric(Random r) {
        long units = r.nextLong() % 1_000_000_000_000L;
        return new java.math.BigDecimal(units).movePointLeft(3 + r.nextInt(2)).toPlainString();
    }

    private static String float8(Random r) {
        double d;
        switch (r.nextInt(4)) {
            case 0 -> d = DOUBLE_EDGES[r.nextInt(DOUBLE_EDGES.length)];
            case 1 -> d = Double.longBitsToDouble(r.nextLong());
            case 2 -> d = Double.longBitsToDouble(r.nextLong() & 0x000fffffffffffffL);
            default -> d = (r.nextDouble() - 0.5) * Math.pow(10, r.nextInt(40) - 20);
        }
        return Double.isNaN(d) ? "NaN" : Double.toString(d);
    }

    private static String float4(Random r) {
        float f;
        switch (r.nextInt(4)) {
            case 0 -> f = FLOAT_EDGES[r.nextInt(FLOAT_EDGES.length)];
            case 1 -> f = Float.intBitsToFloat(r.nextInt());
            case 2 -> f = Float.intBitsToFloat(r.nextInt() & 0x007fffff);
            default -> f = (float) ((r.nextDouble() - 0.5) * Math.pow(10, r.nextInt(20) - 10));
        }
        return Float.isNaN(f) ? "NaN" : Float.toString(f);
    }

    private static String text(Random r, int maxLength) {
        if (r.nextInt(4) == 0) {
            String edge = TEXT_EDGES[r.nextInt(TEXT_EDGES.length)];
            return edge.length() <= maxLength ? edge : edge.substring(0, maxLength);
        }
        StringBuilder s = new StringBuilder();
        int n = r.nextInt(maxLength + 1);
        for (int i = 0; i < n; i++) {
            int cp = switch (r.nextInt(6)) {
                case 0 -> 1 + r.nextInt(0x7f);
                case 1 -> 0xa0 + r.nextInt(0x2000);
                case 2 -> 0x1f300 + r.nextInt(0x300);
                case 3 -> 0x4e00 + r.nextInt(0x5000);
                default -> 'a' + r.nextInt(26);
            };
            if (s.length() + Character.charCount(cp) > maxLength) {
                break;
            }
            s.appendCodePoint(cp);
        }
        return s.toString();
    }

    private static String ascii(Random r, int length) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < length; i++) {
            s.append((char) (' ' + r.nextInt(95)));
        }
        return s.toString();
    }

    private static String uuid(Random r) {
        String u = new UUID(r.nextLong(), r.nextLong()).toString();
        return r.nextBoolean() ? u.toUpperCase(Locale.ROOT) : u;
    }

    private static String date(Random r, boolean infinities) {
        if (infinities && r.nextInt(10) == 0) {
            return r.nextBoolean() ? "infinity" : "-infinity";
        }
        long day = switch (r.nextInt(6)) {
            case 0 -> MIN_DAY;
            case 1 -> MAX_DAY;
            case 2 -> 0;
            default -> MIN_DAY + (long) (r.nextDouble() * (MAX_DAY - MIN_DAY));
        };
        return LocalDate.ofEpochDay(day).toString();
    }

    private static long micros(Random r) {
        return switch (r.nextInt(8)) {
            case 0 -> MIN_DAY * MICROS_PER_DAY;
            case 1 -> (MAX_DAY + 1) * MICROS_PER_DAY - 1;
            case 2 -> 0;
            case 3 -> -1;
            default -> MIN_DAY * MICROS_PER_DAY + (long) (r.nextDouble() * (MAX_DAY - MIN_DAY) * MICROS_PER_DAY);
        };
    }

    private static String timestamp(Random r, boolean infinities) {
        if (infinities && r.nextInt(10) == 0) {
            return r.nextBoolean() ? "infinity" : "-infinity";
        }
        long micros = micros(r);
        LocalDateTime t = LocalDateTime.ofEpochSecond(Math.floorDiv(micros, 1_000_000L),
            (int) Math.floorMod(micros, 1_000_000L) * 1000, ZoneOffset.UTC);
        return t.toLocalDate() + " " + t.toLocalTime();
    }

    /** Drops digits past the millisecond, so {@code timestamp(3)} does not round 9999-12-31 into year 10000. */
    private static String millis(String timestamp) {
        int dot = timestamp.indexOf('.');
        return dot < 0 || timestamp.length() <= dot + 4 ? timestamp : timestamp.substring(0, dot + 4);
    }

    private static String timestamptz(Random r, boolean infinities) {
        String local = timestamp(r, infinities);
        if (local.contains("infinity")) {
            return local;
        }
        String offset = OFFSETS[r.nextInt(OFFSETS.length)];
        if (local.startsWith("0001-01-01") && offset.startsWith("+") || local.startsWith("9999-12-31")
            && offset.startsWith("-")) {
            offset = "+00";
        }
        return local + offset;
    }

    private static String time(Random r) {
        long micros = switch (r.nextInt(6)) {
            case 0 -> 0;
            case 1 -> MICROS_PER_DAY;
            case 2 -> MICROS_PER_DAY - 1;
            default -> (long) (r.nextDouble() * MICROS_PER_DAY);
        };
        if (micros == MICROS_PER_DAY) {
            return "24:00:00";
        }
        return String.format(Locale.ROOT, "%02d:%02d:%02d.%06d", micros / 3_600_000_000L,
            micros / 60_000_000L % 60, micros / 1_000_000L % 60, micros % 1_000_000L);
    }

    private static String interval(Random r) {
        int months = r.nextInt(5) == 0 ? 0 : r.nextInt(4001) - 2000;
        int days = r.nextInt(5) == 0 ? 0 : r.nextInt(2001) - 1000;
        long micros = switch (r.nextInt(5)) {
            case 0 -> 0;
            case 1 -> r.nextInt(2_000_001) - 1_000_000;
            default -> (long) ((r.nextDouble() - 0.5) * 2e14);
        };
        return months + " months " + days + " days " + micros + " microseconds";
    }

    private static String bytea(Random r) {
        int n = r.nextInt(5) == 0 ? 0 : r.nextInt(40);
        StringBuilder hex = new StringBuilder("\\x");
        for (int i = 0; i < n; i++) {
            int b = r.nextInt(4) == 0 ? 0 : r.nextInt(256);
            hex.append(Character.forDigit(b >> 4, 16)).append(Character.forDigit(b & 15, 16));
        }
        return hex.toString();
    }

    /** Random JSON documents as text, with the irregular spacing and number forms people write. */
    private static final class Json {

        private Json() {
        }

        static String document(Random r, boolean binary) {
            StringBuilder s = new StringBuilder();
            value(r, s, 0, binary);
            return s.toString();
        }

        private static void value(Random r, StringBuilder s, int depth, boolean binary) {
            switch (depth > 3 ? 2 + r.nextInt(4) : r.nextInt(6)) {
                case 0 -> {
                    s.append(r.nextBoolean() ? "{ " : "{");
                    int n = r.nextInt(4);
                    for (int i = 0; i < n; i++) {
                        if (i > 0) {
                            s.append(", ");
                        }
                        string(r, s, i >= 1 && !binary ? "dup" : null);
                        s.append(r.nextBoolean() ? ": " : ":");
                        value(r, s, depth + 1, binary);
                    }
                    s.append('}');
                }
                case 1 -> {
                    s.append('[');
                    int n = r.nextInt(4);
                    for (int i = 0; i < n; i++) {
                        if (i > 0) {
                            s.append(r.nextBoolean() ? " ," : ",");
                        }
                        value(r, s, depth + 1, binary);
                    }
                    s.append(']');
                }
                case 2 -> string(r, s, null);
                case 3 -> s.append(new String[] {"0", "-0", "1.0", "2e3", "1E-7", "-12.500", "1e400",
                    "123456789012345678901234567890", "0.1", "3.14159265358979323846"}[r.nextInt(10)]);
                case 4 -> s.append(r.nextInt(3) == 0 ? "null" : r.nextBoolean() ? "true" : "false");
                default -> s.append(r.nextInt());
            }
        }

        private static void string(Random r, StringBuilder s, String fixed) {
            String text = fixed != null ? fixed : text(r, 12);
            s.append('"');
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                if (c == '"' || c == '\\') {
                    s.append('\\').append(c);
                } else if (c < 0x20 || r.nextInt(10) == 0 && !Character.isSurrogate(c)) {
                    s.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                } else {
                    s.append(c);
                }
            }
            s.append('"');
        }
    }
}
