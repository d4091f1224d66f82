package io.tributary.syncrules.internals.sql;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.LongNode;
import java.math.BigDecimal;
import java.math.BigInteger;

/** Numeric literals as JSON values: integers as int, long or big integer nodes, others as exact decimals. */
final class Numbers {

    private Numbers() {
    }

    static JsonNode parse(String text, boolean negative) {
        String signed = negative ? "-" + text : text;
        boolean integral = text.chars().allMatch(c -> c >= '0' && c <= '9');
        if (!integral) {
            return DecimalNode.valueOf(new BigDecimal(signed));
        }
        BigInteger value = new BigInteger(signed);
        if (value.bitLength() < Integer.SIZE) {
            return IntNode.valueOf(value.intValue());
        }
        if (value.bitLength() < Long.SIZE) {
            return LongNode.valueOf(value.longValue());
        }
        return BigIntegerNode.valueOf(value);
    }
}
