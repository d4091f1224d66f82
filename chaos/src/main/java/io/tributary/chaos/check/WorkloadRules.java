package io.tributary.chaos.check;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The chaos workload's bucket definitions ({@code WorkloadSchema.SYNC_RULES} and the definitions scenarios add),
 * evaluated by hand over one source row version: the expected side of the checkpoint audit. Written from the rules'
 * text and the sync rules reference, it shares no code with the product's rules parser, evaluator or encoder. A
 * group whose rules hold a definition this class does not know cannot be audited ({@link #of} refuses it).
 * Immutable.
 */
final class WorkloadRules {

    /** A column of a data query's output, in output order. */
    record Column(String name, ColumnKind kind) {
    }

    /**
     * One row a row version puts in one bucket: its data's expected columns and values, in order, and the source
     * table ({@code schema.table}) it comes from.
     */
    record Output(String bucket, String table, String rowId, List<Column> columns, ObjectNode data,
                  String sourceTable) {

        /** The row's key in its bucket: {@code bucket/table/id}. */
        String key() {
            return bucket + "/" + table + "/" + rowId;
        }
    }

    private static final Pattern DEFINITION = Pattern.compile("^  ([A-Za-z_][A-Za-z0-9_]*):\\s*$");
    private static final Set<String> KNOWN = Set.of("all_accounts", "by_owner", "flagged", "big_lines",
        "tenant_orders");
    private static final Map<String, List<Column>> TABLES = tables();

    private final Set<String> definitions;

    private WorkloadRules(Set<String> definitions) {
        this.definitions = definitions;
    }

    /**
     * The definitions of {@code rulesYaml}.
     *
     * @throws IllegalArgumentException if it has a definition this class cannot evaluate
     */
    static WorkloadRules of(String rulesYaml) {
        Set<String> found = new LinkedHashSet<>();
        for (String line : rulesYaml.split("\n")) {
            Matcher matcher = DEFINITION.matcher(line);
            if (matcher.matches() && !matcher.group(1).equals("bucket_definitions")) {
                found.add(matcher.group(1));
            }
        }
        for (String definition : found) {
            if (!KNOWN.contains(definition)) {
                throw new IllegalArgumentException("The checkpoint audit cannot evaluate bucket definition "
                    + definition + " (it knows " + KNOWN + ")");
            }
        }
        return new WorkloadRules(Set.copyOf(found));
    }

    /**
     * The tenant table ({@code tenant_<n>.orders}, created while the pipeline runs) a served row comes from, from its
     * key ({@code bucket/table/id}; tenant row ids are {@code t<n>-<k>}); empty for a row of any other table.
     */
    static Optional<String> tenantTable(String key) {
        int idAt = key.lastIndexOf('/');
        int tableAt = key.lastIndexOf('/', idAt - 1);
        String id = key.substring(idAt + 1);
        int dash = id.indexOf('-');
        if (!key.substring(tableAt + 1, idAt).equals("orders") || !id.startsWith("t") || dash < 2) {
            return Optional.empty();
        }
        return Optional.of("tenant_" + id.substring(1, dash) + ".orders");
    }

    /** Whether {@code table} ({@code schema.table}) is one a definition of these rules reads. */
    boolean reads(String table) {
        return columns(table) != null;
    }

    /** The rows the version {@code columns} (text forms) of {@code table}'s row {@code key} puts in buckets. */
    List<Output> evaluate(String table, String key, ObjectNode columns) {
        List<Output> outputs = new ArrayList<>();
        String name = table.substring(table.indexOf('.') + 1);
        String owner = text(columns, "owner");
        switch (table.startsWith("tenant_") ? "tenant.orders" : table) {
            case "public.accounts" -> add(outputs, "all_accounts", "all_accounts[]", name, key, columns,
                List.of("id", "owner", "balance"), table);
            case "public.items" -> {
                add(outputs, "by_owner", byOwner("by_owner", owner), name, key, columns, null, table);
                String qty = text(columns, "qty");
                if ("t".equals(text(columns, "flag")) && qty != null && Integer.parseInt(qty) > 50) {
                    add(outputs, "flagged", "flagged[]", name, key, columns, List.of("id", "title", "qty", "price"),
                        table);
                }
            }
            case "public.docs" -> add(outputs, "by_owner", byOwner("by_owner", owner), name, key, columns, null,
                table);
            case "public.notes" -> add(outputs, "by_owner", byOwner("by_owner", owner), name, key, columns,
                List.of("id", "owner", "body", "created"), table);
            case "public.lines" -> {
                add(outputs, "by_owner", byOwner("by_owner", owner), name, key, columns, null, table);
                String qty = text(columns, "qty");
                if (qty != null && Integer.parseInt(qty) > 2) {
                    add(outputs, "big_lines", "big_lines[]", name, key, columns, List.of("id", "sku", "qty"), table);
                }
            }
            case "tenant.orders" -> add(outputs, "tenant_orders", byOwner("tenant_orders", owner), name, key,
                columns, null, table);
            default -> {
                // a table no definition reads
            }
        }
        return outputs;
    }

    private void add(List<Output> outputs, String definition, String bucket, String name, String key,
                     ObjectNode columns, List<String> selected, String table) {
        if (!definitions.contains(definition) || bucket == null) {
            return;
        }
        List<Column> all = columns(table);
        List<Column> output = new ArrayList<>();
        if (selected == null) {
            output.addAll(all);
        } else {
            for (String column : selected) {
                output.add(all.stream().filter(c -> c.name().equals(column)).findFirst().orElseThrow());
            }
        }
        ObjectNode data = JsonNodeFactory.instance.objectNode();
        for (Column column : output) {
            data.set(column.name(), column.kind().expected(text(columns, column.name())));
        }
        outputs.add(new Output(bucket, name, key, List.copyOf(output), data, table));
    }

    private static String byOwner(String definition, String owner) {
        return owner == null ? null : definition + "[" + Json.write(TextNode.valueOf(owner)) + "]";
    }

    private static String text(ObjectNode columns, String name) {
        JsonNode value = columns.get(name);
        return value == null || value.isNull() ? null : value.asText();
    }

    private static List<Column> columns(String table) {
        return TABLES.get(table.startsWith("tenant_") && table.endsWith(".orders") ? "tenant.orders" : table);
    }

    /** Whether {@code served} (a row's data) holds exactly {@code output}'s columns, in order, with its values. */
    static boolean same(Output output, String served) {
        JsonNode parsed = Json.parse(served);
        if (!(parsed instanceof ObjectNode row) || row.size() != output.columns().size()) {
            return false;
        }
        List<String> names = new ArrayList<>();
        row.fieldNames().forEachRemaining(names::add);
        for (int i = 0; i < names.size(); i++) {
            Column column = output.columns().get(i);
            if (!names.get(i).equals(column.name())
                || !column.kind().same(output.data().get(column.name()), row.get(column.name()))) {
                return false;
            }
        }
        return true;
    }

    private static Map<String, List<Column>> tables() {
        Map<String, List<Column>> tables = new LinkedHashMap<>();
        tables.put("public.accounts", columns("id", ColumnKind.INTEGER, "owner", ColumnKind.TEXT, "balance",
            ColumnKind.INTEGER));
        tables.put("public.items", columns("id", ColumnKind.INTEGER, "owner", ColumnKind.TEXT, "title",
            ColumnKind.TEXT, "qty", ColumnKind.INTEGER, "small", ColumnKind.INTEGER, "price", ColumnKind.NUMERIC,
            "amount", ColumnKind.NUMERIC, "ratio", ColumnKind.DOUBLE, "real4", ColumnKind.REAL, "flag",
            ColumnKind.BOOLEAN, "created", ColumnKind.TEXT, "at_tz", ColumnKind.TIMESTAMPTZ, "at_local",
            ColumnKind.TEXT, "at_time", ColumnKind.TEXT, "span", ColumnKind.TEXT, "tags", ColumnKind.JSON_TEXT,
            "nums", ColumnKind.JSON_TEXT, "meta", ColumnKind.JSON_TEXT, "doc", ColumnKind.JSON_TEXT, "blob",
            ColumnKind.TEXT, "mood", ColumnKind.TEXT, "code", ColumnKind.TEXT, "letter", ColumnKind.TEXT, "ref",
            ColumnKind.TEXT));
        tables.put("public.docs", columns("id", ColumnKind.TEXT, "owner", ColumnKind.TEXT, "body", ColumnKind.TEXT,
            "meta", ColumnKind.JSON_TEXT, "version", ColumnKind.INTEGER));
        tables.put("public.notes", columns("id", ColumnKind.TEXT, "owner", ColumnKind.TEXT, "body", ColumnKind.TEXT,
            "created", ColumnKind.TIMESTAMPTZ));
        tables.put("public.lines", columns("order_id", ColumnKind.INTEGER, "line_no", ColumnKind.INTEGER, "id",
            ColumnKind.TEXT, "owner", ColumnKind.TEXT, "sku", ColumnKind.TEXT, "qty", ColumnKind.INTEGER, "amount",
            ColumnKind.NUMERIC));
        tables.put("tenant.orders", columns("id", ColumnKind.TEXT, "owner", ColumnKind.TEXT, "qty",
            ColumnKind.INTEGER, "note", ColumnKind.TEXT));
        return Map.copyOf(tables);
    }

    private static List<Column> columns(Object... pairs) {
        List<Column> columns = new ArrayList<>();
        for (int i = 0; i < pairs.length; i += 2) {
            columns.add(new Column((String) pairs[i], (ColumnKind) pairs[i + 1]));
        }
        return List.copyOf(columns);
    }
}
