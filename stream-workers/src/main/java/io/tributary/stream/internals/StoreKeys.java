package io.tributary.stream.internals;

import io.tributary.topics.messages.KeyValues;
import io.tributary.topics.messages.TableId;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.utils.Bytes;

/**
 * The keys of the merge state stores. Tables are encoded length-prefixed ({@code int} length + UTF-8, schema then
 * name), so the encoding of one table is never a prefix of another's.
 *
 * <ul>
 *   <li>state store: {@code 0x01} partition state; {@code 0x02 table} table state; {@code 0x03 table chunkId}
 *       chunk state; {@code 0x04 table generation} a pending release of a generation's keys;</li>
 *   <li>keys store: {@code table generation pk}, the generation as a big-endian {@code long}, so one table
 *       generation's keys form the contiguous range {@code [keyPrefix(t, g), keyPrefix(t, g + 1))}.</li>
 * </ul>
 * Stateless, thread-safe.
 */
public final class StoreKeys {

    static final byte PARTITION = 0x01;
    static final byte TABLE = 0x02;
    static final byte CHUNK = 0x03;
    static final byte RELEASE = 0x04;

    private StoreKeys() {
    }

    /** The key of the partition state. */
    public static Bytes partition() {
        return Bytes.wrap(new byte[] {PARTITION});
    }

    /** The key of the state of {@code table}. */
    public static Bytes table(TableId table) {
        return Bytes.wrap(withTag(TABLE, tableBytes(table), new byte[0]));
    }

    /** The key of the state of chunk {@code chunkId} of {@code table}. */
    public static Bytes chunk(TableId table, String chunkId) {
        return Bytes.wrap(withTag(CHUNK, tableBytes(table), chunkId.getBytes(StandardCharsets.UTF_8)));
    }

    /** The prefix of the keys of every chunk state of {@code table}. */
    public static Bytes chunkPrefix(TableId table) {
        return Bytes.wrap(withTag(CHUNK, tableBytes(table), new byte[0]));
    }

    /** The prefix of the keys of every chunk state. */
    public static Bytes chunkPrefix() {
        return Bytes.wrap(new byte[] {CHUNK});
    }

    /** The table and chunk id of a chunk state key. */
    public static ChunkRef parseChunk(Bytes key) {
        return parse(key, CHUNK, "chunk state", (table, rest) -> {
            if (!rest.hasRemaining()) {
                throw new StateFormatException("No chunk id in chunk state key " + key);
            }
            return new ChunkRef(table, new String(rest.array(), rest.position(), rest.remaining(),
                StandardCharsets.UTF_8));
        });
    }

    /** The key marking that the keys of {@code table} in {@code generation} are being released. */
    public static Bytes release(TableId table, long generation) {
        return Bytes.wrap(withTag(RELEASE, tableBytes(table), longBytes(generation)));
    }

    /** The prefix of every release marker, for the scan at start-up. */
    public static Bytes releasePrefix() {
        return Bytes.wrap(new byte[] {RELEASE});
    }

    /** The table and generation of a release marker key. */
    public static Release parseRelease(Bytes key) {
        return parse(key, RELEASE, "release marker", (table, rest) -> {
            Release release = new Release(table, rest.getLong());
            if (rest.hasRemaining()) {
                throw new StateFormatException("Trailing bytes in release marker key " + key);
            }
            return release;
        });
    }

    /** What follows the table in a key. */
    private interface KeyRest<T> {
        T read(TableId table, ByteBuffer rest);
    }

    /** Reads a key of {@code tag} ({@code kind} in errors): the tag, the table, then {@code rest}. */
    private static <T> T parse(Bytes key, byte tag, String kind, KeyRest<T> rest) {
        try {
            ByteBuffer buffer = ByteBuffer.wrap(key.get());
            if (buffer.get() != tag) {
                throw new StateFormatException("Not a " + kind + " key: " + key);
            }
            return rest.read(TableId.of(readString(buffer), readString(buffer)), buffer);
        } catch (StateFormatException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new StateFormatException("Malformed " + kind + " key " + key + ": " + e, e);
        }
    }

    /** The key of the last stream transaction of {@code pk} of {@code table} in {@code generation}. */
    public static Bytes key(TableId table, long generation, KeyValues pk) {
        byte[] prefix = keyPrefix(table, generation);
        byte[] pkBytes = pk.unsafeUtf8();
        byte[] key = new byte[prefix.length + pkBytes.length];
        System.arraycopy(prefix, 0, key, 0, prefix.length);
        System.arraycopy(pkBytes, 0, key, prefix.length, pkBytes.length);
        return Bytes.wrap(key);
    }

    /** The first possible key of {@code table} in {@code generation}. */
    public static Bytes keyRangeStart(TableId table, long generation) {
        return Bytes.wrap(keyPrefix(table, generation));
    }

    /** A bound above every key of {@code table} in {@code generation} (and below the next generation's keys). */
    public static Bytes keyRangeEnd(TableId table, long generation) {
        return Bytes.wrap(keyPrefix(table, generation + 1));
    }

    /** The chunk {@code chunkId} of {@code table}, as named by a chunk state key. */
    public record ChunkRef(TableId table, String chunkId) {
    }

    /** A pending release: the keys of {@code table} in {@code generation}. */
    public record Release(TableId table, long generation) {
    }

    private static byte[] keyPrefix(TableId table, long generation) {
        byte[] tableBytes = tableBytes(table);
        return ByteBuffer.allocate(tableBytes.length + Long.BYTES).put(tableBytes).putLong(generation).array();
    }

    private static byte[] tableBytes(TableId table) {
        byte[] schema = table.schema().getBytes(StandardCharsets.UTF_8);
        byte[] name = table.name().getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(2 * Integer.BYTES + schema.length + name.length)
            .putInt(schema.length).put(schema).putInt(name.length).put(name).array();
    }

    private static byte[] withTag(byte tag, byte[] table, byte[] rest) {
        return ByteBuffer.allocate(1 + table.length + rest.length).put(tag).put(table).put(rest).array();
    }

    private static byte[] longBytes(long value) {
        return ByteBuffer.allocate(Long.BYTES).putLong(value).array();
    }

    private static String readString(ByteBuffer buffer) {
        int length = buffer.getInt();
        byte[] bytes = new byte[length];
        buffer.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
