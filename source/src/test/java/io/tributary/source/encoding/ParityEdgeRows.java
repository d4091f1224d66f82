package io.tributary.source.encoding;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Fixed rows of the parity test: the extremes and special values of every type, and all NULLs. */
final class ParityEdgeRows {

    private ParityEdgeRows() {
    }

    static List<Map<String, String>> rows() {
        return List.of(allNull(), minimums(), maximums(), specials(), epochAndUnicode());
    }

    private static Map<String, String> allNull() {
        return new HashMap<>();
    }

    private static Map<String, String> minimums() {
        Map<String, String> row = new HashMap<>();
        row.put("c_bool", "false");
        row.put("c_int2", "-32768");
        row.put("c_int4", "-2147483648");
        row.put("c_int8", "-9223372036854775808");
        row.put("c_oid", "0");
        row.put("c_numeric", "-99999999999999999999999999999999999999.9999999999");
        row.put("c_numeric_fixed", "-999999999.999");
        row.put("c_float4", "-3.4028235E38");
        row.put("c_float8", "-1.7976931348623157E308");
        row.put("c_text", "");
        row.put("c_varchar", "");
        row.put("c_char", "");
        row.put("c_date", "0001-01-01");
        row.put("c_time", "00:00:00");
        row.put("c_timetz", "00:00:00+14");
        row.put("c_ts", "0001-01-01 00:00:00");
        row.put("c_ts3", "0001-01-01 00:00:00");
        row.put("c_tstz", "0001-01-01 00:00:00+00");
        row.put("c_interval", "-178000000 years -2147483648 days -9223372036854 milliseconds");
        row.put("c_bytea", "\\x");
        row.put("c_json", "[]");
        row.put("c_jsonb", "{}");
        for (String array : new String[] {"a_bool", "a_int2", "a_int4", "a_int8", "a_numeric", "a_float4",
            "a_float8", "a_text", "a_varchar", "a_char", "a_mood", "a_uuid", "a_date", "a_ts", "a_tstz", "a_bytea",
            "a_json", "a_jsonb"}) {
            row.put(array, "{}");
        }
        row.put("a_int8", "{-9223372036854775808}");
        return row;
    }

    private static Map<String, String> maximums() {
        Map<String, String> row = new HashMap<>();
        row.put("c_bool", "true");
        row.put("c_int2", "32767");
        row.put("c_int4", "2147483647");
        row.put("c_int8", "9223372036854775807");
        row.put("c_oid", "4294967295");
        row.put("c_numeric", "1234567890123456789012345678901234567890.1234567890123456789012345678901234567890");
        row.put("c_numeric_fixed", "999999999.999");
        row.put("c_float4", "3.4028235E38");
        row.put("c_float8", "1.7976931348623157E308");
        row.put("c_date", "9999-12-31");
        row.put("c_time", "24:00:00");
        row.put("c_timetz", "23:59:59.999999-12");
        row.put("c_ts", "9999-12-31 23:59:59.999999");
        row.put("c_ts3", "9999-12-31 23:59:59.999");
        row.put("c_tstz", "9999-12-31 23:59:59.999999+00");
        row.put("c_interval", "178000000 years 2147483647 days 9223372036854 milliseconds");
        row.put("a_int8", "{9223372036854775807,NULL}");
        row.put("a_float8", "{1.7976931348623157E308,4.9E-324}");
        row.put("a_numeric", "{1e40,-1.5e-30,0.000}");
        row.put("a_date", "{0001-01-01,9999-12-31}");
        row.put("a_ts", "{\"0001-01-01 00:00:00\",\"9999-12-31 23:59:59.999999\"}");
        row.put("a_tstz", "{\"0001-01-01 00:00:00+00\",\"9999-12-31 23:59:59.999999+00\"}");
        return row;
    }

    private static Map<String, String> specials() {
        Map<String, String> row = new HashMap<>();
        row.put("c_numeric", "NaN");
        row.put("c_numeric_fixed", "NaN");
        row.put("c_float4", "NaN");
        row.put("c_float8", "-0");
        row.put("c_date", "infinity");
        row.put("c_ts", "-infinity");
        row.put("c_ts3", "infinity");
        row.put("c_tstz", "infinity");
        row.put("a_float4", "{NaN,Infinity,-Infinity,-0,1e-40,1.4e-45}");
        row.put("a_float8", "{NaN,Infinity,-Infinity,-0,1e-310,1e21,1.5e-7}");
        row.put("a_bool", "{t,NULL,f}");
        row.put("a_text", "{NULL,\"NULL\",\"\",\"a,b\",\"c\\\"d\",\"e\\\\f\",\"{}\"}");
        return row;
    }

    private static Map<String, String> epochAndUnicode() {
        Map<String, String> row = new HashMap<>();
        row.put("c_numeric", "Infinity");
        row.put("c_float4", "-Infinity");
        row.put("c_float8", "1e-310");
        row.put("c_date", "1970-01-01");
        row.put("c_ts", "1970-01-01 00:00:00");
        row.put("c_ts3", "-infinity");
        row.put("c_tstz", "-infinity");
        row.put("c_time", "12:00:00.000001");
        row.put("c_interval", "0 seconds");
        row.put("c_text", "😀\u0001\"\\\u2028 \ud834\udd1e tab\t");
        row.put("c_char", "é");
        row.put("c_bytea", "\\x00ff00");
        row.put("c_json", "{\"a\": 1, \"a\": [1.0, 2e3, \"\\u00e9\\ud83d\\ude00\"], \"b\": {}}");
        row.put("c_jsonb", "{\"b\": 1.0, \"a\": [1e400, \"\\u0001\"], \"aa\": null}");
        row.put("c_uuid", "A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11");
        row.put("a_bytea", "{\"\\\\x00\",NULL,\"\\\\x\"}");
        row.put("a_jsonb", "{\"{\\\"x\\\": [1.50]}\",NULL}");
        return row;
    }
}
