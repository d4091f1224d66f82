package io.tributary.chaos.workload;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Random;
import java.util.UUID;

/**
 * Random column values from a seeded {@link Random}, with the awkward cases mixed in: quotes, backslashes, control
 * characters and non-BMP text, NULL elements in arrays, special floats and infinite timestamps, values large enough
 * to be TOASTed. Not thread-safe (neither is its {@link Random}).
 */
final class RandomValues {

    private static final String[] FRAGMENTS = {"plain", "héllo wörld", "emoji 😀 🚀", "quote \" and ' apostrophe",
        "back\\slash", "tab\tand\nnewline", "", "comma, {brace} [bracket]", "NULL", "null", "日本語テキスト",
        "x".repeat(40), "zero\u0001ctl", "<tag attr=\"v\">&amp;</tag>", "trailing space "};
    private static final String[] MOODS = {"calm", "busy", "wild", "Mixed Case", "with space"};
    private static final double[] SPECIAL_DOUBLES = {Double.NaN, Double.POSITIVE_INFINITY,
        Double.NEGATIVE_INFINITY, -0.0, 5e-324, 1e21, 1e-7, 123456789012345680000.0, 0.1 + 0.2};

    private final Random random;

    RandomValues(Random random) {
        this.random = random;
    }

    Random random() {
        return random;
    }

    boolean chance(double probability) {
        return random.nextDouble() < probability;
    }

    int between(int lowInclusive, int highInclusive) {
        return lowInclusive + random.nextInt(highInclusive - lowInclusive + 1);
    }

    String owner() {
        return "u" + random.nextInt(8);
    }

    String text() {
        String text = FRAGMENTS[random.nextInt(FRAGMENTS.length)];
        return chance(0.5) ? text + " " + random.nextInt(1000) : text;
    }

    /** Mostly short text; sometimes several KB of low-redundancy text, which Postgres stores out of line. */
    String body() {
        if (!chance(0.2)) {
            return text();
        }
        StringBuilder body = new StringBuilder();
        int length = between(3_000, 9_000);
        while (body.length() < length) {
            body.append(Long.toString(random.nextLong(), 36));
        }
        return body.toString();
    }

    BigDecimal money() {
        return BigDecimal.valueOf(random.nextInt(2_000_000) - 500_000, 2);
    }

    BigDecimal numeric() {
        return chance(0.5) ? new BigDecimal(random.nextInt(100_000) + "." + "0".repeat(random.nextInt(3)) + "5")
            : BigDecimal.valueOf(random.nextLong(), random.nextInt(12));
    }

    double real8() {
        if (chance(0.1)) {
            return SPECIAL_DOUBLES[random.nextInt(SPECIAL_DOUBLES.length)];
        }
        return (random.nextDouble() - 0.5) * Math.pow(10, random.nextInt(40) - 20);
    }

    float real4() {
        return (float) ((random.nextDouble() - 0.5) * Math.pow(10, random.nextInt(20) - 10));
    }

    LocalDate date() {
        return LocalDate.of(1970, 1, 1).plusDays(random.nextInt(30_000) - 5_000);
    }

    OffsetDateTime timestampTz() {
        return OffsetDateTime.of(LocalDateTime.of(2000, 1, 1, 0, 0).plusSeconds(random.nextInt(900_000_000))
            .plusNanos(random.nextInt(1_000_000) * 1_000L), ZoneOffset.ofHours(random.nextInt(25) - 12));
    }

    LocalDateTime timestamp() {
        return LocalDateTime.of(1990, 1, 1, 0, 0).plusSeconds(random.nextInt(1_200_000_000))
            .plusNanos(random.nextInt(1_000_000) * 1_000L);
    }

    LocalTime time() {
        return LocalTime.ofNanoOfDay(random.nextInt(86_400) * 1_000_000_000L + random.nextInt(1_000_000) * 1_000L);
    }

    /** An interval literal, e.g. {@code 1 year 2 mons -3 days 04:05:06.789}. */
    String interval() {
        return random.nextInt(5) + " years " + (random.nextInt(25) - 12) + " mons " + (random.nextInt(61) - 30)
            + " days " + random.nextInt(100) + ":" + random.nextInt(60) + ":" + random.nextInt(60) + "."
            + random.nextInt(1_000_000);
    }

    String[] textArray() {
        String[] array = new String[random.nextInt(5)];
        for (int i = 0; i < array.length; i++) {
            array[i] = chance(0.1) ? null : text();
        }
        return array;
    }

    Integer[] intArray() {
        Integer[] array = new Integer[random.nextInt(6)];
        for (int i = 0; i < array.length; i++) {
            array[i] = chance(0.1) ? null : random.nextInt() / (1 + random.nextInt(1000));
        }
        return array;
    }

    /** A JSON object text with nested values. */
    String json() {
        return "{\"k\": " + random.nextInt(1000) + ", \"s\": \"" + text().replace("\\", "\\\\").replace("\"", "\\\"")
            .replace("\t", "\\t").replace("\n", "\\n").replace("\u0001", "\\u0001") + "\", \"f\": "
            + random.nextInt(100) + ".50, \"a\": [true, null, " + random.nextInt(9) + "], \"o\": {\"z\": 1, \"a\": 2}}";
    }

    byte[] bytes() {
        byte[] bytes = new byte[random.nextInt(48)];
        random.nextBytes(bytes);
        return bytes;
    }

    String mood() {
        return MOODS[random.nextInt(MOODS.length)];
    }

    String code() {
        return Long.toString(random.nextLong() & Long.MAX_VALUE, 36).substring(0, 1 + random.nextInt(8));
    }

    UUID uuid() {
        return new UUID(random.nextLong(), random.nextLong());
    }

    /** The uuid primary key of document number {@code n}: the same n always gives the same uuid. */
    static UUID docId(int n) {
        return UUID.nameUUIDFromBytes(("doc-" + n).getBytes(StandardCharsets.UTF_8));
    }

    /** The text primary key of note number {@code n}. */
    static String noteId(int n) {
        return (n % 3 == 0 ? "nöte/" : "note ") + n;
    }
}
