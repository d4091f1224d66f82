package io.tributary.stream.internals;

import io.tributary.stream.merge.ChunkState;
import io.tributary.stream.merge.PartitionState;
import io.tributary.stream.merge.TableState;
import io.tributary.stream.merge.WindowPhase;
import io.tributary.stream.merge.WindowState;
import io.tributary.topics.messages.Barrier;
import io.tributary.topics.messages.Lsn;
import io.tributary.topics.messages.StreamPosition;
import io.tributary.topics.messages.TableId;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The value bytes of the merge state stores: a version byte ({@value #VERSION}, the only one written and read)
 * followed by big-endian fields. Unknown versions and malformed bytes raise {@link StateFormatException}.
 * Stateless, thread-safe.
 */
public final class StateCodec {

    /** The value format version. */
    public static final int VERSION = 1;

    private StateCodec() {
    }

    /** The bytes of a partition state. */
    public static byte[] encode(PartitionState state) {
        return write(out -> {
            out.writeBoolean(state.highWater().isPresent());
            if (state.highWater().isPresent()) {
                out.writeLong(state.highWater().get().lsn().value());
                out.writeLong(state.highWater().get().seq());
            }
            out.writeBoolean(state.lastBarrier().isPresent());
            if (state.lastBarrier().isPresent()) {
                out.writeLong(state.lastBarrier().get().epoch());
                out.writeLong(state.lastBarrier().get().lsn().value());
            }
        });
    }

    /** The partition state in {@code bytes}. */
    public static PartitionState decodePartition(byte[] bytes) {
        return read(bytes, "partition state", in -> {
            Optional<StreamPosition> highWater = in.readBoolean()
                ? Optional.of(StreamPosition.of(Lsn.of(in.readLong()), in.readLong())) : Optional.empty();
            Optional<Barrier> barrier = in.readBoolean()
                ? Optional.of(Barrier.of(in.readLong(), Lsn.of(in.readLong()))) : Optional.empty();
            return new PartitionState(highWater, barrier);
        });
    }

    /** The bytes of a table state (without its id, which is in the store key). */
    public static byte[] encode(TableState state) {
        return write(out -> {
            out.writeLong(state.generation());
            out.writeBoolean(state.truncateTxId().isPresent());
            if (state.truncateTxId().isPresent()) {
                out.writeLong(state.truncateTxId().getAsLong());
            }
            out.writeInt(state.windows().size());
            for (WindowState window : state.windows().values()) {
                writeString(out, window.windowId());
                writeString(out, window.phase().name());
                out.writeInt(window.chunkCount().orElse(-1));
                out.writeInt(window.doneChunks());
                out.writeBoolean(window.highWatermark().isPresent());
                if (window.highWatermark().isPresent()) {
                    out.writeLong(window.highWatermark().get().value());
                }
            }
        });
    }

    /** The state of {@code table} in {@code bytes}. */
    public static TableState decodeTable(TableId table, byte[] bytes) {
        return read(bytes, "table state of " + table, in -> {
            long generation = in.readLong();
            OptionalLong truncate = in.readBoolean() ? OptionalLong.of(in.readLong()) : OptionalLong.empty();
            int count = in.readInt();
            TreeMap<String, WindowState> windows = new TreeMap<>();
            for (int i = 0; i < count; i++) {
                String id = readString(in);
                WindowPhase phase = WindowPhase.valueOf(readString(in));
                int chunks = in.readInt();
                int done = in.readInt();
                Optional<Lsn> hw = in.readBoolean() ? Optional.of(Lsn.of(in.readLong())) : Optional.empty();
                windows.put(id, new WindowState(id, phase, chunks < 0 ? OptionalInt.empty() : OptionalInt.of(chunks),
                    done, hw));
            }
            return new TableState(table, generation, truncate, windows);
        });
    }

    /** The bytes of a chunk state (without its id, which is in the store key). */
    public static byte[] encode(ChunkState state) {
        return write(out -> {
            out.writeInt(state.highestAttempt());
            out.writeBoolean(state.done());
            out.writeBoolean(state.windowId().isPresent());
            if (state.windowId().isPresent()) {
                writeString(out, state.windowId().get());
            }
        });
    }

    /** The state of chunk {@code chunkId} in {@code bytes}. */
    public static ChunkState decodeChunk(String chunkId, byte[] bytes) {
        return read(bytes, "chunk state of " + chunkId, in -> {
            int attempt = in.readInt();
            boolean done = in.readBoolean();
            Optional<String> window = in.readBoolean() ? Optional.of(readString(in)) : Optional.empty();
            return new ChunkState(chunkId, attempt, done, window);
        });
    }

    /** The bytes of a key's last stream transaction id. */
    public static byte[] encodeTxId(long txId) {
        return write(out -> out.writeLong(txId));
    }

    /** The transaction id in {@code bytes}. */
    public static long decodeTxId(byte[] bytes) {
        return read(bytes, "key transaction id", DataInputStream::readLong);
    }

    private interface Writer {
        void write(DataOutputStream out) throws IOException;
    }

    private interface Reader<T> {
        T read(DataInputStream in) throws IOException;
    }

    private static byte[] write(Writer writer) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(32);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(VERSION);
            writer.write(out);
        } catch (IOException e) {
            throw new UncheckedIOException("Writing to memory failed", e);
        }
        return bytes.toByteArray();
    }

    private static <T> T read(byte[] bytes, String what, Reader<T> reader) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            int version = in.readUnsignedByte();
            if (version != VERSION) {
                throw new StateFormatException("Cannot read " + what + ": unknown state format version " + version
                    + " (this release reads " + VERSION + ")");
            }
            T value = reader.read(in);
            if (in.available() > 0) {
                throw new StateFormatException("Cannot read " + what + ": " + in.available() + " trailing bytes");
            }
            return value;
        } catch (IOException | IllegalArgumentException e) {
            throw new StateFormatException("Cannot read " + what + ": " + e.getMessage(), e);
        }
    }

    private static void writeString(DataOutputStream out, String text) throws IOException {
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        out.writeInt(utf8.length);
        out.write(utf8);
    }

    private static String readString(DataInputStream in) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > in.available()) {
            throw new IOException("string length " + length + " exceeds the " + in.available() + " bytes left");
        }
        return new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }
}
