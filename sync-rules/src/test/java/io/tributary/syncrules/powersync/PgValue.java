package io.tributary.syncrules.powersync;

import java.util.Objects;

/**
 * One column value of a source row in both forms the parity tests need: what Postgres sends PowerSync (the type
 * oid and the value's text output, {@code null} for NULL) and the canonical JSON value Tributary's row encoding
 * writes for it.
 *
 * @param column    the column name
 * @param oid       the Postgres type oid (of the array type for arrays)
 * @param text      the Postgres text output, or null
 * @param canonical the canonical JSON text of the value ({@code null} for NULL)
 */
public record PgValue(String column, int oid, String text, String canonical) {

    public PgValue {
        Objects.requireNonNull(column, "column");
        Objects.requireNonNull(canonical, "canonical");
    }
}
