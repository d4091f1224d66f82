// PowerSync's sync rules evaluator as a test oracle.
//
// Reads one JSON request from stdin:
//   {"yaml": "...", "rows": [{"schema": "public", "table": "items", "columns": {"id": {"oid": 25, "text": "a"}, ...}}]}
// where each column holds its Postgres type oid and the value's Postgres text output (null for NULL), and writes
//   {"rows": [{"results": [{"bucket", "table", "id", "data"}], "errors": ["..."]}], "errors": ["rules problems"]}
// to stdout. Values are decoded from their Postgres text the way PowerSync's Postgres replicator decodes them
// (its pgwire type decoding for the built-in types, raw text for every other type), rows go through
// toSyncRulesRow and the rules' applyRowContext, and data is serialized with JSONBig as PowerSync's storage does.
import { DEFAULT_HYDRATION_STATE, DEFAULT_TAG, SqlSyncRules } from '@powersync/service-sync-rules';
import { JSONBig } from '@powersync/service-jsonbig';
import { syncRulesRow } from './pgvalues.mjs';

function evaluate(request) {
  const { config, errors } = SqlSyncRules.fromYaml(request.yaml, { defaultSchema: 'public', throwOnError: false });
  const problems = errors.filter((e) => e.type != 'warning').map((e) => e.message);
  if (problems.length > 0) {
    return { rows: [], errors: problems };
  }
  const rules = config.hydrate({ hydrationState: DEFAULT_HYDRATION_STATE, sqlite: null });
  const rows = request.rows.map((input) => {
    const { results, errors } = rules.evaluateRowWithErrors({
      sourceTable: { connectionTag: DEFAULT_TAG, schema: input.schema, name: input.table },
      record: rules.applyRowContext(syncRulesRow(input))
    });
    return {
      results: results.map((r) => ({ bucket: r.bucket, table: r.table, id: r.id, data: JSONBig.stringify(r.data) })),
      errors: errors.map((e) => e.error)
    };
  });
  return { rows, errors: [] };
}

let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => (input += chunk));
process.stdin.on('end', () => {
  process.stdout.write(JSON.stringify(evaluate(JSON.parse(input))));
});
