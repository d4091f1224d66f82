// PowerSync's parameter lookups and bucket sets as a test oracle.
//
// Reads one JSON request from stdin:
//   {"yaml": "...", "rows": [{"schema", "table", "columns": {"name": {"oid", "text"}}}],
//    "requests": [{"claims": {...}, "parameters": {...}}]}
// and writes
//   {"rows": [{"lookups": [{"definition", "values": "<JSON of the lookup values>", "parameters": ["{...}"]}],
//              "errors": [...]}],
//    "requests": [{"buckets": ["..."], "errors": [...]}], "errors": ["rules problems"]}
// to stdout. Each row goes through evaluateParameterRowWithErrors; each request gets getBucketParameterQuerier,
// whose dynamic buckets are looked up among every row's parameter sets (each row a distinct source row).
import {
  BaseJwtPayload,
  DEFAULT_HYDRATION_STATE,
  DEFAULT_TAG,
  RequestParameters,
  SqlSyncRules
} from '@powersync/service-sync-rules';
import { JSONBig } from '@powersync/service-jsonbig';
import { syncRulesRow } from './pgvalues.mjs';

async function evaluate(request) {
  const { config, errors } = SqlSyncRules.fromYaml(request.yaml, { defaultSchema: 'public', throwOnError: false });
  const problems = errors.filter((e) => e.type != 'warning').map((e) => e.message);
  if (problems.length > 0) {
    return { rows: [], requests: [], errors: problems };
  }
  const rules = config.hydrate({ hydrationState: DEFAULT_HYDRATION_STATE, sqlite: null });
  const store = new Map();
  const rows = request.rows.map((input) => {
    const table = { connectionTag: DEFAULT_TAG, schema: input.schema, name: input.table };
    const { results, errors } = rules.evaluateParameterRowWithErrors(table, rules.applyRowContext(syncRulesRow(input)));
    const lookups = results.map((result) => {
      const key = result.lookup.serializedRepresentation;
      store.set(key, [...(store.get(key) ?? []), ...result.bucketParameters]);
      return {
        definition: result.lookup.values[0],
        values: JSONBig.stringify(result.lookup.values.slice(2)),
        parameters: result.bucketParameters.map((p) => JSONBig.stringify(p))
      };
    });
    return { lookups, errors: errors.map((e) => e.error) };
  });
  const source = {
    getParameterSets: async (lookups) =>
      lookups.map((lookup) => ({ lookup, rows: store.get(lookup.serializedRepresentation) ?? [] }))
  };
  const requests = [];
  for (const input of request.requests) {
    const { querier, errors } = rules.getBucketParameterQuerier({
      globalParameters: new RequestParameters(new BaseJwtPayload(input.claims), input.parameters),
      hasDefaultStreams: true,
      streams: {}
    });
    const dynamic = querier.hasDynamicBuckets ? await querier.queryDynamicBucketDescriptions(source) : [];
    const buckets = [...querier.staticBuckets, ...dynamic].map((b) => b.bucket);
    requests.push({ buckets, errors: errors.map((e) => e.message) });
  }
  return { rows, requests, errors: [] };
}

let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => (input += chunk));
process.stdin.on('end', async () => {
  process.stdout.write(JSON.stringify(await evaluate(JSON.parse(input))));
});
