// Times one fresh PowerSync client (@powersync/node 1.1.0) for the bench's scenario I. One measurement per process,
// so every one starts from an empty database. The client's SQLite is native (better-sqlite3 12.9.0, a database file
// in a fresh directory, the SDK's default for Node) or, with "sqlite": "sql-js", the pure-JS SQLite of
// @powersync/adapter-sql-js (an in-memory database):
//
//   node initial-sync.mjs '{"mode": "sync", "sqlite": S, "endpoint": URL, "token": JWT, "table": T, "columns": [..],
//                           "timeoutMs": N}'
//       connect() to the first complete checkpoint applied in the database (waitForFirstSync)
//   node initial-sync.mjs '{"mode": "dump", "sqlite": S, "dumpUrl": URL, "table": T, "columns": [..], "timeoutMs": N}'
//       the dump ceiling: GET an NDJSON file of the live rows ({"id": ..., "data": "<row JSON>"} a line) and insert
//       them into the same table the sync fills (ps_data__T: id, data), in one transaction
//
// Prints one JSON line on stdout: {"mode", "seconds", "rows", "cpuSeconds"} (seconds of the timed part; rows then in
// the table; the process's CPU over the timed part, worker threads included). Diagnostics go to stderr.

const SYNC_LOG_LEVEL = Number(process.env.TRIBUTARY_CLIENT_LOG_LEVEL ?? 40);
const args = JSON.parse(process.argv[2]);

const sqlJs = args.sqlite === 'sql-js';
// The SQL.js bundle takes itself for a browser only while process.type says so; as a Node module it would load the
// Node file system bindings it does not ship. It reads the flag while the database initialises.
if (sqlJs) {
  process.type = 'renderer';
}
const { PowerSyncDatabase } = await import('@powersync/node');
const { Schema, Table, column, SyncStreamConnectionMethod } = await import('@powersync/common');
const fs = await import('node:fs/promises');
const os = await import('node:os');
const path = await import('node:path');

const logger = {
  log(record) {
    if (record.level >= SYNC_LOG_LEVEL) {
      const error = record.error ? ` ${record.error?.stack ?? record.error}` : '';
      process.stderr.write(`${new Date().toISOString()} [powersync ${record.level}] ${record.message}${error}\n`);
    }
  }
};

function withTimeout(promise, timeoutMs, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen within ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const schema = new Schema({
  [args.table]: new Table(Object.fromEntries(args.columns.map((c) => [c, column.text])))
});
const directory = sqlJs ? null : await fs.mkdtemp(path.join(os.tmpdir(), 'tributary-initial-sync-'));
const database = sqlJs
  ? new PowerSyncDatabase({
      schema,
      factory: new (await import('@powersync/adapter-sql-js')).SQLJSOpenFactory({ dbFilename: 'bench.db', logger }),
      logger
    })
  : new PowerSyncDatabase({ schema, database: { dbFilename: 'bench.db', dbLocation: directory }, logger });
await database.init();
delete process.type;

const connector = {
  async fetchCredentials() {
    return { endpoint: args.endpoint, token: args.token };
  },
  async uploadData() {}
};

async function sync() {
  await database.connect(connector, { connectionMethod: SyncStreamConnectionMethod.HTTP, retryDelayMs: 200 });
  await withTimeout(database.waitForFirstSync(), args.timeoutMs, 'A complete sync');
}

async function dump() {
  const response = await fetch(args.dumpUrl);
  if (!response.ok) {
    throw new Error(`GET ${args.dumpUrl} answered ${response.status}`);
  }
  const rows = [];
  const decoder = new TextDecoder();
  let rest = '';
  for await (const chunk of response.body) {
    const text = rest + decoder.decode(chunk, { stream: true });
    const lines = text.split('\n');
    rest = lines.pop();
    for (const line of lines) {
      if (line.length > 0) {
        const row = JSON.parse(line);
        rows.push([row.id, row.data]);
      }
    }
  }
  if (rest.length > 0) {
    const row = JSON.parse(rest);
    rows.push([row.id, row.data]);
  }
  await database.writeTransaction((tx) =>
    tx.executeBatch(`INSERT INTO ps_data__${args.table}(id, data) VALUES (?, ?)`, rows));
}

const cpuBefore = process.cpuUsage();
const start = process.hrtime.bigint();
await withTimeout(args.mode === 'dump' ? dump() : sync(), args.timeoutMs, `The ${args.mode}`);
const seconds = Number(process.hrtime.bigint() - start) / 1e9;
const cpu = process.cpuUsage(cpuBefore);
const counted = await database.get(`SELECT count(*) AS n FROM ${args.table}`);
process.stdout.write(JSON.stringify({
  mode: args.mode,
  seconds,
  rows: counted.n,
  cpuSeconds: (cpu.user + cpu.system) / 1e6
}) + '\n');
await database.disconnect();
await database.close();
if (directory != null) {
  await fs.rm(directory, { recursive: true, force: true });
}
process.exit(0);
