/**
 * Sync rules: which source rows go into which buckets, in the PowerSync YAML layout.
 *
 * <p>Entry points: {@link io.tributary.syncrules.SyncRules#parse(String)} (fails with a
 * {@link io.tributary.syncrules.SyncRulesException} listing every problem as {@code line L, column C: message}),
 * {@link io.tributary.syncrules.SyncRules#tablesMatching}, {@link io.tributary.syncrules.SyncRules#evaluate},
 * {@link io.tributary.syncrules.SyncRules#parameterValues}, {@link io.tributary.syncrules.Checksums} and
 * {@link io.tributary.syncrules.ReferenceEvaluator}.
 *
 * <h2>Document</h2>
 * <pre>
 * bucket_definitions:
 *   global:                                  # no parameters: one bucket, global[]
 *     data:
 *       - SELECT id, name FROM lists WHERE archived = false
 *   by_user:
 *     parameters: SELECT request.user_id() AS user_id      # a query or a list of queries
 *     data:
 *       - SELECT * FROM todos WHERE owner_id = bucket.user_id OR assignee_id = bucket.user_id
 *       - SELECT o.*, o.order_no AS id FROM "tenant_%".orders AS o WHERE o.customer = bucket.user_id
 * config:
 *   edition: 2                               # optional: how temporal values are written, see Edition
 * </pre>
 * Only the keys {@code bucket_definitions}, {@code parameters}, {@code data} and {@code config} (with
 * {@code edition}: 1, the default, or 2) exist; any other key, a duplicate
 * key, a wrong node kind or a YAML syntax error is a problem with its position. Problems inside SQL point at the
 * offending character for every scalar style (plain, quoted, block).
 *
 * <h2>Bucket names</h2>
 * {@code <definition>[<values>]}: the parameter values as a compact JSON array in the order the parameters are
 * declared (the select order of the first parameter query), e.g. {@code by_user["u1"]}, {@code by_org[42,"eu"]},
 * {@code global[]}. Values are compared by their JSON text: the string {@code "42"} and the number {@code 42} are
 * different buckets. Only strings, numbers and booleans are parameter values; as PowerSync writes them, a boolean
 * is {@code 1} or {@code 0} and a float with an integer value is written as that integer.
 *
 * <h2>Parameter queries</h2>
 * {@code SELECT <value> [AS name], ... [WHERE <condition>]} without FROM. Values:
 * <ul>
 *   <li>{@code request.user_id()} and {@code token_parameters.user_id}: the token's {@code sub} claim;</li>
 *   <li>{@code request.jwt() ->> 'claim'} (chains like {@code request.jwt() -> 'app' ->> 'org'} work): a claim;
 *       {@code ->} and {@code ->>} both yield the JSON value at the key;</li>
 *   <li>{@code token_parameters.x}: {@code x} in the token's {@code parameters} claim;</li>
 *   <li>{@code request.parameters() ->> 'x'}: a client parameter;</li>
 *   <li>literals.</li>
 * </ul>
 * Every value needs a name ({@code AS name}; {@code token_parameters.x} is named {@code x}). An array value gives
 * one bucket per element; a null or missing value gives no bucket. Several parameter queries of one definition must
 * return the same names; their buckets are united.
 *
 * <h2>Parameter queries that read a table</h2>
 * {@code SELECT <items> FROM [schema.]table [WHERE <condition>]}, PowerSync's table parameter queries, e.g.
 * {@code SELECT list_id FROM list_members WHERE user_id = request.user_id()}. One table, no alias, no wildcard.
 * Items are columns of the table ({@code column}, {@code table.column}, named by the column or {@code AS}) or
 * request values as above (named with {@code AS}). The condition combines, under AND and OR, lookup terms,
 * conditions on request values alone and row conditions on columns and literals only (any shape data queries
 * allow); both sides of an OR look up the same request values. A lookup term is {@code column = <request value>}
 * (either way round), {@code column IN <request value>} (the client looks up each element of its array; one per
 * query) or {@code <request value> IN column} (the row is stored under each element of its array column; one per
 * query). A source row passing the row conditions is stored under the lookup of its lookup columns' values
 * ({@link io.tributary.syncrules.SyncRules#parameterRows}); a client looks up its request values
 * ({@link io.tributary.syncrules.SyncRules#querier}) and gets one bucket per stored row found, named by the row's
 * selected columns and its request values. Values compare as bucket parameter texts: an integer column matches an
 * integer claim, not the text of one, and integer-valued numbers are integers. A null lookup or selected column
 * stores nothing; a missing request value looks nothing up. Refused with their position: OR with different
 * request values on its sides, NOT IN with a request value, a second request array or array column, a request
 * value compared with a column with an operator other than {@code =} and {@code IN}, {@code SELECT *}.
 *
 * <h2>Data queries</h2>
 * {@code SELECT <items> FROM [schema.]table [[AS] alias] [WHERE <condition>]}.
 * <ul>
 *   <li>Items: {@code *}, {@code alias.*}, columns ({@code [alias.]column}), literals, each optionally
 *       {@code [AS] name}; literals need a name. No functions, operators or subqueries.</li>
 *   <li>Names: unquoted identifiers fold to lower case, {@code "quoted"} ones keep their case, as in Postgres.
 *       A table without schema is in {@code public}.</li>
 *   <li>Wildcards: {@code %} in a schema or table name (quoted or not) matches any run of characters, so
 *       {@code "tenant_%".orders} reads {@code orders} of every tenant schema. Unlike {@code LIKE}, {@code _} is a
 *       literal character. Matching is case-sensitive on the folded name.</li>
 *   <li>Output table: the alias if given, else the source table's name without schema ({@code orders} above).</li>
 *   <li>Output row: a compact JSON object, keys in select order; {@code *} expands to the row's columns in the
 *       row's order, minus columns an explicit item also names (the explicit item wins); a selected column that the
 *       row lacks is {@code null}. Values are written as PowerSync writes them for its client's SQLite row
 *       (booleans as 1/0, floats as REAL text, json and arrays as JSON text, temporal values per
 *       {@link io.tributary.syncrules.Edition}; docs/sync-rules.md has the table per type).</li>
 *   <li>{@code id}: every query must output {@code id} (a column {@code id} via {@code *} or by name, or
 *       {@code x AS id}), else parsing fails. The row id is a string's content or a number's text; a row whose id
 *       is null, missing or another kind is reported as an {@link io.tributary.syncrules.EvaluationError}. Deploying
 *       rules also requires the id to be the source table's single-column primary key (checked against the
 *       source catalog, see {@link io.tributary.syncrules.SyncRules#dataQueryIds()}).</li>
 * </ul>
 *
 * <h2>Conditions</h2>
 * AND, OR, NOT and parentheses over:
 * <ul>
 *   <li>{@code column = bucket.p} (either order) and {@code column IN bucket.p}: the row's bucket takes the
 *       column's value as {@code p} (for an array parameter the array is expanded on the client side);</li>
 *   <li>{@code bucket.p IN column}: the column holds a JSON array (or a string holding one); the row goes into one
 *       bucket per scalar element;</li>
 *   <li>comparisons {@code = <> != < <= > >=} between columns and literals (strings, numbers, TRUE, FALSE,
 *       NULL), {@code [NOT] IN (v1, v2, ...)}, {@code IS [NOT] NULL}, and the constants TRUE / FALSE.</li>
 * </ul>
 * Comparison semantics: numbers compare numerically across representations ({@code 5 = 5.0}); strings exactly,
 * ordered by code point; booleans with {@code false < true}. A comparison involving null, a missing column, an array
 * or object, or two values of different kinds is SQL {@code UNKNOWN}, which never selects a row, also under NOT
 * ({@code NOT (n = 3)} does not select a row whose {@code n} is null). A missing column {@code IS NULL}.
 *
 * <p>Every data query of a definition must bind every parameter on every path: AND binds the union of its
 * operands' parameters, OR the intersection ({@code owner = bucket.u OR assignee = bucket.u} is fine; the row
 * goes into the union of the buckets of the branches that match). Bucket parameters cannot appear under NOT,
 * with operators other than {@code =} and {@code IN}, or against literals. Referencing an undeclared
 * {@code bucket.x} fails at parse time.
 *
 * <h2>Evaluation</h2>
 * Rows are canonical JSON objects keyed by source column name (json/jsonb columns as nested values), given as a
 * Jackson {@code ObjectNode} or as JSON text. From text, non-integers parse as exact decimals, and a non-integer
 * number is a float: it is written as JavaScript prints the double with those digits ({@code 1.50} as
 * {@code 1.5}, {@code 3.0} as {@code 3.0}, {@code 1e21} as {@code 1e+21}). A text in the canonical form
 * (compact, Jackson's escaping, numbers as parsed values print; what the source module produces) is not parsed
 * into a tree unless a query selects {@code *}: one validating scan finds the columns the queries read and only
 * those are decoded; any other text is parsed whole. Both give the same result. A row's
 * result holds at most one entry per (bucket, output table, id); when several queries produce the same one, the
 * first in rule order wins. {@link io.tributary.syncrules.SyncRules} is immutable and thread-safe; each data query
 * is compiled once and the queries of a source table are resolved once per table name.
 */
package io.tributary.syncrules;
