package io.tributary.source.encoding.internals;

import io.tributary.source.catalog.ColumnType;
import java.io.ByteArrayOutputStream;

/** Element writers for arrays read as text (Postgres's output of each element type). */
final class TextElementWriters {

    private TextElementWriters() {
    }

    static TextElementWriter forArrayElement(ColumnType type) {
        return switch (type) {
            case BOOL -> (s, out) -> out.writeBoolean(bool(s));
            case INT2, INT4, INT8, OID -> (s, out) -> out.writeNumber(integer(s));
            case FLOAT4 -> (s, out) -> ValueWriters.float4(Float.parseFloat(s), out);
            case FLOAT8 -> (s, out) -> ValueWriters.float8(Double.parseDouble(s), out);
            case NUMERIC -> (s, out) -> out.writeString(finiteNumeric(s));
            case TEXT, VARCHAR, BPCHAR, CITEXT, ENUM -> (s, out) -> out.writeString(s);
            case UUID -> (s, out) -> out.writeString(ColumnTypeText.uuid(s));
            case JSON, JSONB -> JsonDocumentCopy::copy;
            case BYTEA -> (s, out) -> out.writeString(ColumnTypeText.bytea(byteaText(s)));
            case DATE -> (s, out) -> out.writeString(
                ColumnTypeText.date(ValueWriters.finiteInArray(PgTemporalText.date(s))));
            case TIMESTAMP -> (s, out) -> out.writeString(
                ColumnTypeText.timestamp(ValueWriters.finiteInArray(PgTemporalText.timestamp(s))));
            case TIMESTAMPTZ -> (s, out) -> out.writeString(
                ColumnTypeText.timestamptz(ValueWriters.finiteInArray(PgTemporalText.timestamptz(s))));
            case TIME, TIMETZ, INTERVAL ->
                throw new IllegalArgumentException("Arrays of " + type + " are not supported");
        };
    }

    private static boolean bool(String s) {
        return switch (s) {
            case "t" -> true;
            case "f" -> false;
            default -> throw new UnencodableValueException("malformed boolean text '" + s + "'");
        };
    }

    private static long integer(String s) {
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw new UnencodableValueException("malformed integer text '" + s + "'", e);
        }
    }

    private static String finiteNumeric(String s) {
        String canonical = ColumnTypeText.numeric(s);
        if (canonical.endsWith("NaN") || canonical.endsWith("Infinity")) {
            throw new UnencodableValueException(canonical + " inside a numeric array is not supported (Debezium 3.6"
                + " turns the whole array into NULL)");
        }
        return canonical;
    }

    /** Decodes a {@code bytea} element in either output format ({@code hex} or {@code escape}). */
    static byte[] byteaText(String s) {
        if (s.startsWith("\\x")) {
            int n = (s.length() - 2) / 2;
            if ((s.length() - 2) % 2 != 0) {
                throw new UnencodableValueException("malformed bytea hex text");
            }
            byte[] bytes = new byte[n];
            for (int i = 0; i < n; i++) {
                int hi = Character.digit(s.charAt(2 + 2 * i), 16);
                int lo = Character.digit(s.charAt(3 + 2 * i), 16);
                if (hi < 0 || lo < 0) {
                    throw new UnencodableValueException("malformed bytea hex text");
                }
                bytes[i] = (byte) (hi << 4 | lo);
            }
            return bytes;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '\\') {
                bytes.write(c);
            } else if (i + 1 < s.length() && s.charAt(i + 1) == '\\') {
                bytes.write('\\');
                i++;
            } else if (i + 3 < s.length()) {
                bytes.write(Integer.parseInt(s, i + 1, i + 4, 8));
                i += 3;
            } else {
                throw new UnencodableValueException("malformed bytea escape text");
            }
        }
        return bytes.toByteArray();
    }
}
