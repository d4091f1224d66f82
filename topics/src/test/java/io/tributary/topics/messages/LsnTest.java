package io.tributary.topics.messages;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class LsnTest {

    @Test
    void parsesPostgresTextForm() {
        assertThat(Lsn.parse("16/B374D848").value()).isEqualTo(0x16_B374D848L);
    }

    @Test
    void formatsLikePostgres() {
        assertThat(Lsn.of(0x16_B374D848L)).hasToString("16/B374D848");
        assertThat(Lsn.ZERO).hasToString("0/0");
        assertThat(Lsn.of(0x1_00000000L)).hasToString("1/0");
    }

    @Test
    void parsesLowerCaseHex() {
        assertThat(Lsn.parse("a/bcdef")).isEqualTo(Lsn.of(0xA_000BCDEFL));
    }

    @Test
    void roundTripsTheFullUnsignedRange() {
        Lsn highest = Lsn.of(-1L);
        assertThat(highest).hasToString("FFFFFFFF/FFFFFFFF");
        assertThat(Lsn.parse(highest.toString())).isEqualTo(highest);
    }

    @Test
    void ordersUnsigned() {
        assertThat(Lsn.of(-1L)).isGreaterThan(Lsn.of(Long.MAX_VALUE));
        assertThat(Lsn.parse("1/0").isAfter(Lsn.parse("0/FFFFFFFF"))).isTrue();
        assertThat(Lsn.max(Lsn.parse("0/5"), Lsn.parse("0/4"))).isEqualTo(Lsn.parse("0/5"));
    }

    @Test
    void rejectsTextThatIsNotAnLsn() {
        String[] bad = {"", "16", "/1", "1/", "1/2/3", "G/1", "123456789/1", "1/123456789", "-1/0", "+1/0", "1/-0",
            "1 /0", "\uff11/0"};
        for (String text : bad) {
            assertThatThrownBy(() -> Lsn.parse(text)).as(text).isInstanceOf(IllegalArgumentException.class);
        }
    }
}
