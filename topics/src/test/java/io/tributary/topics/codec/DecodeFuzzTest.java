package io.tributary.topics.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.testing.random.Seeds;
import io.tributary.topics.messages.ChangeEvent;
import io.tributary.topics.messages.ResolvedRow;
import io.tributary.topics.messages.TableReady;
import io.tributary.topics.messages.TopicMessage;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

/** Property: whatever bytes arrive, decoding returns a message or throws MessageFormatException, nothing else. */
class DecodeFuzzTest {

    private static final int CASES = 20_000;

    @Test
    void mutatedRecordsDecodeOrRaiseMessageFormatException() {
        long seed = Seeds.fromProperty("tributary.seed");
        Random random = new Random(seed);
        List<Sample<?>> samples = List.of(
            new Sample<>(TopicCodec.CHANGES, Samples.INSERT),
            new Sample<>(TopicCodec.CHANGES, ChangeEvent.delete(Samples.ODD_TABLE, Samples.COMPOSITE_PK,
                Samples.LSN, 1, 2)),
            new Sample<>(TopicCodec.CHANGES, Samples.BARRIER),
            new Sample<>(TopicCodec.SNAPSHOT_TASKS, Samples.TASK),
            new Sample<>(TopicCodec.SNAPSHOT_ROWS, Samples.SNAPSHOT_ROW),
            new Sample<>(TopicCodec.SNAPSHOT_ROWS, Samples.CHUNK_DONE),
            new Sample<>(TopicCodec.ROWS, ResolvedRow.of(Samples.INSERT)),
            new Sample<>(TopicCodec.ROWS, TableReady.of(Samples.ORDERS, "w", Samples.LSN)));
        for (int i = 0; i < CASES; i++) {
            Sample<?> sample = samples.get(random.nextInt(samples.size()));
            ProducerRecord<byte[], byte[]> record = sample.record();
            boolean mutateKey = random.nextInt(4) == 0;
            byte[] key = mutateKey ? mutate(record.key(), random) : record.key();
            byte[] value = mutateKey ? null : mutate(record.value(), random);
            try {
                sample.codec().decode(RecordPosition.of("t", 0, i), key, value);
                if (mutateKey && sample.codec() == TopicCodec.ROWS) {
                    RecordKeys.decode(RecordPosition.of("t", 0, i), key);
                }
            } catch (MessageFormatException expected) {
                assertThat(expected.offset()).isEqualTo(i);
            } catch (RuntimeException e) {
                throw new AssertionError("seed " + seed + ", case " + i + ", key "
                    + new String(key, StandardCharsets.ISO_8859_1) + ", value "
                    + (value == null ? "null" : new String(value, StandardCharsets.ISO_8859_1)), e);
            }
        }
    }

    @Test
    void utf16EncodedEnvelopeIsRejectedAsMalformed() {
        byte[] utf16 = new String(TopicCodec.CHANGES.encodeValue(Samples.INSERT), StandardCharsets.UTF_8)
            .getBytes(StandardCharsets.UTF_16BE);
        assertThatThrownBy(() -> TopicCodec.CHANGES.decode(RecordPosition.of("changes", 0, 1), null, utf16))
            .isInstanceOf(MessageFormatException.class).hasMessageContaining("not UTF-8");
    }

    private static byte[] mutate(byte[] original, Random random) {
        byte[] bytes = Arrays.copyOf(original, original.length);
        switch (random.nextInt(4)) {
            case 0 -> bytes[random.nextInt(bytes.length)] = (byte) random.nextInt(256);
            case 1 -> bytes = Arrays.copyOf(bytes, random.nextInt(bytes.length));
            case 2 -> {
                int at = random.nextInt(bytes.length);
                byte[] grown = new byte[bytes.length + 1];
                System.arraycopy(bytes, 0, grown, 0, at);
                byte[] tokens = "{}[],:\"\\0-e.".getBytes(StandardCharsets.US_ASCII);
                grown[at] = tokens[random.nextInt(tokens.length)];
                System.arraycopy(bytes, at, grown, at + 1, bytes.length - at);
                bytes = grown;
            }
            default -> {
                int a = random.nextInt(bytes.length);
                int b = random.nextInt(bytes.length);
                byte swap = bytes[a];
                bytes[a] = bytes[b];
                bytes[b] = swap;
            }
        }
        return bytes;
    }

    private record Sample<M extends TopicMessage>(TopicCodec<M> codec, M message) {
        ProducerRecord<byte[], byte[]> record() {
            return codec.record("t", 0, message);
        }
    }
}
