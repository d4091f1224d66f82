package io.tributary.syncrules.internals.eval;

import io.tributary.topics.json.CanonicalJson;
import java.util.Arrays;

/**
 * One pass over a row's UTF-8 JSON text that decides whether the text is <em>canonical</em>, i.e. exactly the
 * bytes {@link CanonicalJson} writes for the tree {@link RowJsonParser} parses from it, and meanwhile finds the value
 * spans of some top-level columns and of every top-level member. For a canonical text, a consumer may use the text
 * itself as the canonical output of the whole row and read only the columns it needs, and get the results of the
 * tree byte for byte.
 *
 * <p>Canonical means: a JSON object, the whole input, without whitespace, with strictly well-formed UTF-8; strings
 * escape only {@code "}, {@code \} and control characters, with the short forms {@code \b \t \n \f \r} and
 * otherwise {@code \}{@code u00XX} (upper-case hex); no object (at any depth) repeats a key; numbers are integers
 * without {@code -0}, or plain decimals that {@code BigDecimal.toString()} prints as written (no exponent, no
 * {@code -0.0}, at most six zeros after the point before the first significant digit). Anything else, including
 * every invalid text, is reported as not canonical, so that callers take the tree path and its exact behaviour
 * (errors included); nesting deeper than {@value #MAX_DEPTH} is reported as not canonical too.
 *
 * <p>Duplicate keys are found by comparing hashes, then bytes, with the earlier keys of the same object: linear
 * per key, which is cheap for rows of up to a few dozen columns. Not thread-safe: one instance per scan.
 */
final class CanonicalRowScan {

    static final int MAX_DEPTH = 200;

    /** The bytes a canonical string holds as they are: printable ASCII except {@code "} and {@code \\}. */
    private static final boolean[] PLAIN = new boolean[256];

    static {
        for (int b = 0x20; b < 0x80; b++) {
            PLAIN[b] = b != '"' && b != '\\';
        }
    }

    private final byte[] text;
    private final int end;
    private final byte[][] wanted;
    private final int[] wantedHash;
    private final int[] valueStart;
    private final int[] valueEnd;
    private final boolean canonical;

    private int pos;
    private int lastHash;
    private int[] keyStart = new int[16];
    private int[] keyEnd = new int[16];
    private int[] keyHash = new int[16];
    private int keys;
    private int[] members = new int[24];
    private int memberCount;

    /**
     * Scans {@code text}.
     *
     * @param wanted the top-level keys whose values to locate, each as the UTF-8 bytes of its canonical JSON
     *               string content (escaped, without quotes; see {@link #keyBytes(String)})
     * @param wantedHash {@link #hash(byte[])} of each wanted key
     */
    CanonicalRowScan(byte[] text, byte[][] wanted, int[] wantedHash) {
        this.text = text;
        this.end = text.length;
        this.wanted = wanted;
        this.wantedHash = wantedHash;
        this.valueStart = new int[wanted.length];
        this.valueEnd = new int[wanted.length];
        this.canonical = end >= 2 && text[0] == '{' && object(0) && pos == end;
    }

    /** Whether the text is canonical; only then are the value spans meaningful. */
    boolean isCanonical() {
        return canonical;
    }

    /** Whether the row has wanted key {@code i}. */
    boolean has(int i) {
        return valueEnd[i] > 0;
    }

    /** Where the value of wanted key {@code i} starts, if the row {@link #has(int) has} it. */
    int valueStart(int i) {
        return valueStart[i];
    }

    /** Where the value of wanted key {@code i} ends (exclusive). */
    int valueEnd(int i) {
        return valueEnd[i];
    }

    /** The number of top-level members (columns) of a canonical text, in text order. */
    int memberCount() {
        return memberCount;
    }

    /** Where top-level member {@code i} starts: the opening quote of its key. */
    int memberStart(int i) {
        return members[3 * i];
    }

    /** Where the value of top-level member {@code i} starts (after the key's {@code :}). */
    int memberValueStart(int i) {
        return members[3 * i + 1];
    }

    /** Where the value of top-level member {@code i} ends (exclusive). */
    int memberValueEnd(int i) {
        return members[3 * i + 2];
    }

    /** The bytes a key is matched by: the UTF-8 of its canonical JSON string content. */
    static byte[] keyBytes(String key) {
        StringBuilder quoted = new StringBuilder(key.length() + 2);
        CanonicalJson.quote(key, quoted);
        return quoted.substring(1, quoted.length() - 1).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    /** The hash the scan computes over a key's bytes. */
    static int hash(byte[] key) {
        int h = 0;
        for (byte b : key) {
            h = 31 * h + b;
        }
        return h;
    }

    private boolean object(int depth) {
        pos++;
        if (pos >= end) {
            return false;
        }
        if (text[pos] == '}') {
            pos++;
            return true;
        }
        int firstKey = keys;
        while (true) {
            if (pos >= end || text[pos] != '"') {
                return false;
            }
            int start = pos + 1;
            if (!key()) {
                return false;
            }
            int stop = pos - 1;
            int hash = lastHash;
            if (!newKey(firstKey, start, stop, hash)) {
                return false;
            }
            if (pos >= end || text[pos] != ':') {
                return false;
            }
            pos++;
            int value = pos;
            if (!value(depth)) {
                return false;
            }
            if (depth == 0) {
                locate(start, stop, hash, value, pos);
                member(start - 1, value, pos);
            }
            if (pos >= end) {
                return false;
            }
            byte next = text[pos++];
            if (next == '}') {
                keys = firstKey;
                return true;
            }
            if (next != ',') {
                return false;
            }
        }
    }

    private boolean newKey(int firstKey, int start, int stop, int hash) {
        int length = stop - start;
        for (int k = firstKey; k < keys; k++) {
            if (keyHash[k] == hash && keyEnd[k] - keyStart[k] == length
                && Arrays.equals(text, keyStart[k], keyEnd[k], text, start, stop)) {
                return false;
            }
        }
        if (keys == keyStart.length) {
            keyStart = Arrays.copyOf(keyStart, keys * 2);
            keyEnd = Arrays.copyOf(keyEnd, keys * 2);
            keyHash = Arrays.copyOf(keyHash, keys * 2);
        }
        keyStart[keys] = start;
        keyEnd[keys] = stop;
        keyHash[keys] = hash;
        keys++;
        return true;
    }

    private void member(int start, int valueFrom, int valueTo) {
        if (3 * memberCount + 3 > members.length) {
            members = Arrays.copyOf(members, members.length * 2);
        }
        members[3 * memberCount] = start;
        members[3 * memberCount + 1] = valueFrom;
        members[3 * memberCount + 2] = valueTo;
        memberCount++;
    }

    private void locate(int start, int stop, int hash, int from, int to) {
        for (int i = 0; i < wanted.length; i++) {
            if (wantedHash[i] == hash && Arrays.equals(text, start, stop, wanted[i], 0, wanted[i].length)) {
                valueStart[i] = from;
                valueEnd[i] = to;
                return;
            }
        }
    }

    private boolean value(int depth) {
        if (pos >= end) {
            return false;
        }
        switch (text[pos]) {
            case '"':
                return string();
            case '{':
                return depth < MAX_DEPTH && object(depth + 1);
            case '[':
                return depth < MAX_DEPTH && array(depth + 1);
            case 't':
                return literal("true");
            case 'f':
                return literal("false");
            case 'n':
                return literal("null");
            default:
                return number();
        }
    }

    private boolean array(int depth) {
        pos++;
        if (pos >= end) {
            return false;
        }
        if (text[pos] == ']') {
            pos++;
            return true;
        }
        while (true) {
            if (!value(depth)) {
                return false;
            }
            if (pos >= end) {
                return false;
            }
            byte next = text[pos++];
            if (next == ']') {
                return true;
            }
            if (next != ',') {
                return false;
            }
        }
    }

    private boolean literal(String word) {
        if (end - pos < word.length()) {
            return false;
        }
        for (int i = 0; i < word.length(); i++) {
            if (text[pos + i] != word.charAt(i)) {
                return false;
            }
        }
        pos += word.length();
        return true;
    }

    /** A string value at {@code pos} (its opening quote); leaves {@code pos} after the closing quote. */
    private boolean string() {
        int p = pos + 1;
        while (p < end) {
            byte c = text[p];
            if (PLAIN[c & 0xFF]) {
                p++;
            } else if (c == '"') {
                pos = p + 1;
                return true;
            } else {
                int length = c == '\\' ? escape(p) : c < 0 ? utf8(p) : 0;
                if (length == 0) {
                    return false;
                }
                p += length;
            }
        }
        return false;
    }

    /** A key at {@code pos}, as {@link #string()}; sets {@code lastHash} to its {@link #hash(byte[]) hash}. */
    private boolean key() {
        int start = pos + 1;
        if (!string()) {
            return false;
        }
        int h = 0;
        for (int i = start; i < pos - 1; i++) {
            h = 31 * h + text[i];
        }
        lastHash = h;
        return true;
    }

    /** The length of the canonical escape at {@code p}, or 0 if it is not one. */
    private int escape(int p) {
        if (p + 1 >= end) {
            return 0;
        }
        switch (text[p + 1]) {
            case '"', '\\', 'b', 't', 'n', 'f', 'r':
                return 2;
            case 'u':
                if (p + 5 >= end || text[p + 2] != '0' || text[p + 3] != '0') {
                    return 0;
                }
                int high = text[p + 4];
                int low = hexUpper(text[p + 5]);
                if ((high != '0' && high != '1') || low < 0) {
                    return 0;
                }
                int c = (high - '0') << 4 | low;
                return c == '\b' || c == '\t' || c == '\n' || c == '\f' || c == '\r' ? 0 : 6;
            default:
                return 0;
        }
    }

    private static int hexUpper(byte b) {
        if (b >= '0' && b <= '9') {
            return b - '0';
        }
        if (b >= 'A' && b <= 'F') {
            return b - 'A' + 10;
        }
        return -1;
    }

    /** The length of the well-formed multi-byte UTF-8 sequence at {@code p}, or 0 (Unicode table 3-7). */
    private int utf8(int p) {
        int lead = text[p] & 0xFF;
        int length;
        int min = 0x80;
        int max = 0xBF;
        if (lead >= 0xC2 && lead <= 0xDF) {
            length = 2;
        } else if (lead >= 0xE0 && lead <= 0xEF) {
            length = 3;
            if (lead == 0xE0) {
                min = 0xA0;
            } else if (lead == 0xED) {
                max = 0x9F;
            }
        } else if (lead >= 0xF0 && lead <= 0xF4) {
            length = 4;
            if (lead == 0xF0) {
                min = 0x90;
            } else if (lead == 0xF4) {
                max = 0x8F;
            }
        } else {
            return 0;
        }
        if (p + length > end) {
            return 0;
        }
        int second = text[p + 1] & 0xFF;
        if (second < min || second > max) {
            return 0;
        }
        for (int i = 2; i < length; i++) {
            if ((text[p + i] & 0xC0) != 0x80) {
                return 0;
            }
        }
        return length;
    }

    /** A number as {@code Number.toString()} of its parsed value prints it: see the class documentation. */
    private boolean number() {
        boolean negative = text[pos] == '-';
        if (negative) {
            pos++;
        }
        if (pos >= end) {
            return false;
        }
        byte first = text[pos];
        boolean zero = first == '0';
        if (zero) {
            pos++;
        } else if (first >= '1' && first <= '9') {
            pos = digits(pos);
        } else {
            return false;
        }
        if (pos < end && isDigit(text[pos])) {
            return false;
        }
        if (pos < end && (text[pos] == 'e' || text[pos] == 'E')) {
            return false;
        }
        if (pos >= end || text[pos] != '.') {
            return !(negative && zero);
        }
        int fraction = pos + 1;
        pos = digits(fraction);
        int scale = pos - fraction;
        if (scale == 0 || (pos < end && (text[pos] == 'e' || text[pos] == 'E'))) {
            return false;
        }
        if (!zero) {
            return true;
        }
        int leadingZeros = 0;
        while (leadingZeros < scale && text[fraction + leadingZeros] == '0') {
            leadingZeros++;
        }
        if (leadingZeros == scale) {
            return !negative && scale <= 6;
        }
        return leadingZeros <= 5;
    }

    private int digits(int p) {
        while (p < end && isDigit(text[p])) {
            p++;
        }
        return p;
    }

    private static boolean isDigit(byte b) {
        return b >= '0' && b <= '9';
    }
}
