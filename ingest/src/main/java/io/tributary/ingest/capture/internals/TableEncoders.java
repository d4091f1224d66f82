package io.tributary.ingest.capture.internals;

import io.tributary.postgres.LazyConnection;
import io.tributary.source.catalog.SourceCatalog;
import io.tributary.source.catalog.SourceColumn;
import io.tributary.source.catalog.TableSchema;
import io.tributary.source.encoding.ConnectRowEncoder;
import io.tributary.topics.messages.TableId;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@link ConnectRowEncoder} per captured table, built from the source catalog and the Connect row schema of
 * the events, and rebuilt when Debezium's schema for the table changes. The catalog is read when the encoder is
 * built, which may be later than the event: columns the event's schema lacks (added since) are left out of the
 * encoder, columns the catalog lacks (dropped since) are not written. Not thread-safe.
 */
final class TableEncoders {

    private static final Logger LOG = LoggerFactory.getLogger(TableEncoders.class);

    private final LazyConnection source;
    private final Map<TableId, ConnectRowEncoder> encoders = new HashMap<>();

    TableEncoders(LazyConnection source) {
        this.source = source;
    }

    /** The encoder of {@code table} for structs of {@code rowSchema}. */
    ConnectRowEncoder forRow(TableId table, Schema rowSchema) throws SQLException {
        ConnectRowEncoder encoder = encoders.get(table);
        if (encoder != null && encoder.accepts(rowSchema)) {
            return encoder;
        }
        return rebuild(table, rowSchema);
    }

    /** Drops the encoder of {@code table}: the table's next event builds one from a fresh catalog read. */
    void forget(TableId table) {
        encoders.remove(table);
    }

    /** A new encoder from a fresh catalog read (the table's replica identity or columns may have changed). */
    ConnectRowEncoder rebuild(TableId table, Schema rowSchema) throws SQLException {
        source.discardIfBroken();
        TableSchema described = new SourceCatalog(source.get()).describe(table);
        List<SourceColumn> present = new ArrayList<>();
        for (SourceColumn column : described.columns()) {
            if (rowSchema.field(column.name()) != null) {
                present.add(column);
            }
        }
        if (present.size() < described.columns().size()) {
            LOG.info("Events of {} lack {} column(s) the catalog has now; encoding the columns they carry",
                table, described.columns().size() - present.size());
        }
        TableSchema view = new TableSchema(table, described.relationOid(), present, described.keyColumns(),
            described.keySource(), described.replicaIdentity(), described.estimatedRows());
        ConnectRowEncoder encoder = ConnectRowEncoder.forTable(view, rowSchema);
        encoders.put(table, encoder);
        return encoder;
    }
}
