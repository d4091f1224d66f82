package io.tributary.syncrules.powersync;

import java.util.List;

/**
 * Values of every column type the canonical row encoding supports, each as Postgres prints it (what PowerSync's
 * replicator reads) and as the canonical encoding writes it (what Tributary's rules read), following the canonical
 * form documented in the source module's {@code io.tributary.source.encoding} package. Postgres text is that of a
 * session in UTC with the default {@code DateStyle} and {@code IntervalStyle}.
 */
final class ColumnCorpus {

    /** Type oids of the types without a fixed oid (an enum, citext): any oid PowerSync does not know. */
    static final int USER_TYPE_OID = 16_385;

    private ColumnCorpus() {
    }

    static PgValue value(String column, int oid, String text, String canonical) {
        return new PgValue(column, oid, text, canonical);
    }

    /** One row per value: {@code id} (text), {@code owner} (int4) and {@code v} of the type under test. */
    static List<PgValue> values() {
        return List.of(
            value("bool_t", 16, "t", "true"),
            value("bool_f", 16, "f", "false"),
            value("int2", 21, "-7", "-7"),
            value("int4", 23, "2147483647", "2147483647"),
            value("int8", 20, "9007199254740993", "9007199254740993"),
            value("oid", 26, "4294967295", "4294967295"),
            value("numeric", 1700, "1.50", "\"1.50\""),
            value("numeric_int", 1700, "42", "\"42\""),
            value("numeric_nan", 1700, "NaN", "\"NaN\""),
            value("float8", 701, "3.25", "3.25"),
            value("float8_int", 701, "3", "3.0"),
            value("float8_big", 701, "1e+21", "1e+21"),
            value("float8_small", 701, "1.5e-07", "1.5e-7"),
            value("float8_neg", 701, "-0.5", "-0.5"),
            value("float8_e20", 701, "1e+20", "100000000000000000000.0"),
            value("float8_zero", 701, "0", "0.0"),
            value("float8_nan", 701, "NaN", "\"NaN\""),
            value("float4", 700, "1.1", "1.1"),
            value("float4_int", 700, "-2", "-2.0"),
            value("text", 25, "He said \"hi\"\n\u00e9\u20ac", "\"He said \\\"hi\\\"\\n\u00e9\u20ac\""),
            value("text_iso", 25, "2024-01-02T01:04:05.123000Z", "\"2024-01-02T01:04:05.123000Z\""),
            value("varchar", 1043, "v", "\"v\""),
            value("bpchar", 1042, "ab  ", "\"ab  \""),
            value("citext", USER_TYPE_OID, "MiXeD", "\"MiXeD\""),
            value("enum", USER_TYPE_OID, "happy", "\"happy\""),
            value("uuid", 2950, "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "\"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11\""),
            value("date", 1082, "2024-01-02", "\"2024-01-02\""),
            value("time", 1083, "01:04:05.5", "\"01:04:05.500000\""),
            value("time_whole", 1083, "01:04:05", "\"01:04:05.000000\""),
            value("time_end", 1083, "24:00:00", "\"24:00:00.000000\""),
            value("timetz", 1266, "01:04:05.5+00", "\"01:04:05.500000Z\""),
            value("timestamp", 1114, "2024-01-02 01:04:05.123", "\"2024-01-02T01:04:05.123000\""),
            value("timestamp_whole", 1114, "2024-01-02 01:04:05", "\"2024-01-02T01:04:05.000000\""),
            value("timestamptz", 1184, "2024-01-02 01:04:05.123456+00", "\"2024-01-02T01:04:05.123456Z\""),
            value("timestamptz_whole", 1184, "2024-01-02 01:04:05+00", "\"2024-01-02T01:04:05.000000Z\""),
            value("timestamptz_infinity", 1184, "infinity", "\"infinity\""),
            value("date_infinity", 1082, "-infinity", "\"-infinity\""),
            value("interval", 1186, "1 year 2 mons -3 days +04:05:06.78", "\"P1Y2M-3DT4H5M6.78S\""),
            value("interval_time", 1186, "-01:02:03.5", "\"P0Y0M0DT-1H-2M-3.5S\""),
            value("interval_zero", 1186, "00:00:00", "\"P0Y0M0DT0H0M0S\""),
            value("bytea", 17, "\\x0102ff", "\"\\\\x0102ff\""),
            value("json", 114, "{\"a\":[1,2.50,\"x\"],\"b\":null}", "{\"a\":[1,2.50,\"x\"],\"b\":null}"),
            value("jsonb", 3802, "{\"b\": [1, true], \"aa\": {\"c\": \"d\"}}", "{\"b\":[1,true],\"aa\":{\"c\":\"d\"}}"),
            value("jsonb_array", 3802, "[1, \"two\"]", "[1,\"two\"]"),
            value("int4_array", 1007, "{1,NULL,3}", "[1,null,3]"),
            value("text_array", 1009, "{a,\"b,c\",\"\\\"q\\\"\",NULL}", "[\"a\",\"b,c\",\"\\\"q\\\"\",null]"),
            value("bool_array", 1000, "{t,f}", "[true,false]"),
            value("float8_array", 1022, "{1.5,2}", "[1.5,2.0]"),
            value("numeric_array", 1231, "{1.50,-2}", "[\"1.50\",\"-2\"]"),
            value("uuid_array", 2951, "{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}",
                "[\"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11\"]"),
            value("date_array", 1182, "{2024-01-02}", "[\"2024-01-02\"]"),
            value("timestamptz_array", 1185, "{\"2024-01-02 01:04:05.5+00\"}", "[\"2024-01-02T01:04:05.500000Z\"]"),
            value("jsonb_array_of", 3807, "{\"{\\\"a\\\": 1}\"}", "[{\"a\":1}]"),
            value("bytea_array", 1001, "{\"\\\\x01\"}", "[\"\\\\x01\"]"),
            value("null", 25, null, "null"));
    }
}
