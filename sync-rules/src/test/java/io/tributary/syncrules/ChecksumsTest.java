package io.tributary.syncrules;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.testing.random.Seeds;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ChecksumsTest {

    private static final String PUT_DATA = "{\"id\":\"t1\",\"title\":\"Buy milk\"}";

    @Test
    void putChecksumIsTheFirstFourDigestBytesReadLittleEndian() throws Exception {
        byte[] digest = MessageDigest.getInstance("SHA-256")
            .digest(("put.todos.t1." + PUT_DATA).getBytes(StandardCharsets.UTF_8));
        long expected = Byte.toUnsignedLong(digest[0])
            + Byte.toUnsignedLong(digest[1]) * 256L
            + Byte.toUnsignedLong(digest[2]) * 256L * 256L
            + Byte.toUnsignedLong(digest[3]) * 256L * 256L * 256L;

        assertThat(Checksums.put("todos", "t1", PUT_DATA)).isEqualTo(expected);
    }

    @Test
    void putChecksumMatchesKnownAnswer() {
        // python3: int.from_bytes(hashlib.sha256(b'put.todos.t1.{"id":"t1","title":"Buy milk"}').digest()[:4],
        //   'little') == 1939680970 (digest starts ca 2e 9d 73)
        assertThat(Checksums.put("todos", "t1", PUT_DATA)).isEqualTo(1939680970L).isEqualTo(0x739d2ecaL);
    }

    @Test
    void removeChecksumMatchesKnownAnswer() {
        // python3: sha256(b'delete.todos.t1') starts f6 de aa d3 -> 3551190774 (above 2^31: stays unsigned)
        assertThat(Checksums.remove("todos", "t1")).isEqualTo(3551190774L).isEqualTo(0xd3aadef6L);
    }

    @Test
    void checksumHashesUtf8Bytes() {
        // python3: sha256('put.todos.é.{"id":"é"}'.encode()) starts 66 79 16 3a -> 974551398
        assertThat(Checksums.put("todos", "é", "{\"id\":\"é\"}")).isEqualTo(974551398L);
    }

    @Test
    void putChecksumHashesTheWholeOpTextForAnyParts() {
        long seed = Seeds.fromProperty("tributary.seed");
        Random random = new Random(seed);
        String[] pieces = {"a", ".", "é", "日", "😀", "\uD83D", "\uDE00", "\"", "\\", "\u0000", "{\"id\":1}"};
        for (int i = 0; i < 5000; i++) {
            String[] parts = new String[3];
            for (int p = 0; p < parts.length; p++) {
                StringBuilder part = new StringBuilder();
                for (int n = random.nextInt(5); n > 0; n--) {
                    part.append(pieces[random.nextInt(pieces.length)]);
                }
                parts[p] = part.toString();
            }
            assertThat(Checksums.put(parts[0], parts[1], parts[2])).as("seed %d: %s", seed, List.of(parts))
                .isEqualTo(Checksums.ofText("put." + parts[0] + "." + parts[1] + "." + parts[2]));
        }
    }

    @Test
    void bucketChecksumIsTheSumModulo2To32() {
        long put1 = Checksums.put("todos", "t1", PUT_DATA);
        long remove1 = Checksums.remove("todos", "t1");
        long put2 = Checksums.put("lists", "42", "{\"id\":42}");

        // python3: (1939680970 + 3551190774 + 3979344777) % 2**32 == 880281929
        assertThat(Checksums.sum(put1, remove1, put2)).isEqualTo(880281929L);
    }

    @Test
    void addWrapsAroundAt2To32() {
        assertThat(Checksums.add(0xFFFF_FFFFL, 2)).isEqualTo(1);
        assertThat(Checksums.add(0, 0)).isZero();
    }

    @Test
    void bucketRowChecksumIsItsPutChecksum() {
        BucketRow row = new BucketRow("by_user[\"u1\"]", "todos", "t1", PUT_DATA);

        assertThat(row.checksum()).isEqualTo(1939680970L);
    }
}
