package io.tributary.source.catalog;

import io.tributary.topics.messages.TableId;

/**
 * The table has neither a primary key nor a {@code REPLICA IDENTITY USING INDEX}: its rows cannot be keyed,
 * ordered per key, chunked or deleted downstream.
 */
public final class MissingPrimaryKeyException extends SourceSchemaException {

    private static final long serialVersionUID = 1L;

    public MissingPrimaryKeyException(TableId table) {
        super(table, "Source table " + table.quoted() + " has no primary key and no replica identity index, so"
            + " its rows cannot be identified. Add one: ALTER TABLE " + table.quoted()
            + " ADD PRIMARY KEY (<key columns>); or choose a unique index on NOT NULL columns: ALTER TABLE "
            + table.quoted() + " REPLICA IDENTITY USING INDEX <index name>;");
    }
}
