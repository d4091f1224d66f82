// Drives one real PowerSync client (@powersync/node with the pure-JS SQLite of @powersync/adapter-sql-js) for a
// test process: one JSON command per line on stdin, one JSON reply per line on stdout, in order.
//
//   request: {"id": 1, "command": "open", ...arguments}
//   reply:   {"id": 1, "ok": true, "result": ...} or {"id": 1, "ok": false, "error": "..."}
//
// Commands:
//   open       {tables: {name: [column, ...]}}        opens an in-memory database whose tables are text columns
//   connect    {endpoint, tokens: [jwt, ...], uploadUrl?, retryDelayMs?, params?}
//                                                     connects over HTTP streaming; the connector hands out the
//                                                     tokens in order, then keeps the last one; params are the
//                                                     client parameters (request.parameters())
//   setTokens  {tokens: [jwt, ...]}                   the tokens the connector hands out from the next fetch on
//   waitForSync {priority?, timeoutMs}                waits for the first complete sync (of that priority)
//   status     {}                                     the sync status and the connector's counters
//   query      {sql, params?}                         rows of a local query
//   execute    {sql, params?}                         a local write (queued for upload like an app's)
//   disconnect {}                                     closes the sync stream
//   close      {}                                     closes the database and ends the process
//
// Diagnostics go to stderr. Nothing but replies is written to stdout.

import readline from 'node:readline';

const SYNC_LOG_LEVEL = Number(process.env.TRIBUTARY_CLIENT_LOG_LEVEL ?? 40);

// The SQL.js bundle takes itself for a browser only while process.type says so; as a Node module it would load the
// Node file system bindings it does not ship. It reads the flag while the database initialises.
process.type = 'renderer';
const { PowerSyncDatabase } = await import('@powersync/node');
const { Schema, Table, column, SyncStreamConnectionMethod } = await import('@powersync/common');
const { SQLJSOpenFactory } = await import('@powersync/adapter-sql-js');

const logger = {
  log(record) {
    if (record.level >= SYNC_LOG_LEVEL) {
      const error = record.error ? ` ${record.error?.stack ?? record.error}` : '';
      process.stderr.write(`${new Date().toISOString()} [powersync ${record.level}] ${record.message}${error}\n`);
    }
  }
};

/** What the backend connector did, for the test to assert on. */
const connector = {
  endpoint: null,
  uploadUrl: null,
  tokens: [],
  credentialsFetched: 0,
  credentialsInvalidated: 0,
  uploads: 0,
  uploadErrors: [],

  async fetchCredentials() {
    const token = this.tokens.length > 1 ? this.tokens.shift() : this.tokens[0];
    this.credentialsFetched++;
    return { endpoint: this.endpoint, token };
  },

  invalidateCredentials() {
    this.credentialsInvalidated++;
  },

  async uploadData(database) {
    const transaction = await database.getNextCrudTransaction();
    if (transaction == null) {
      return;
    }
    if (this.uploadUrl == null) {
      throw new Error('Local writes need a backend: connect with uploadUrl');
    }
    const ops = transaction.crud.map((entry) => ({
      op: entry.op,
      table: entry.table,
      id: entry.id,
      data: entry.opData ?? null
    }));
    const response = await fetch(this.uploadUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ops })
    });
    if (!response.ok) {
      const message = `The backend at ${this.uploadUrl} answered ${response.status}: ${await response.text()}`;
      this.uploadErrors.push(message);
      throw new Error(message);
    }
    await transaction.complete();
    this.uploads++;
  }
};

let database = null;

function requireDatabase() {
  if (database == null) {
    throw new Error('No database: send "open" first');
  }
  return database;
}

function statusOf(status) {
  const error = (e) => (e == null ? null : String(e?.message ?? e));
  return {
    connected: status.connected,
    connecting: status.connecting,
    hasSynced: status.hasSynced ?? false,
    lastSyncedAt: status.lastSyncedAt?.toISOString() ?? null,
    downloading: status.dataFlowStatus?.downloading ?? false,
    uploading: status.dataFlowStatus?.uploading ?? false,
    downloadError: error(status.dataFlowStatus?.downloadError),
    uploadError: error(status.dataFlowStatus?.uploadError),
    priorities: (status.priorityStatusEntries ?? []).map((entry) => ({
      priority: entry.priority,
      hasSynced: entry.hasSynced ?? false,
      lastSyncedAt: entry.lastSyncedAt?.toISOString() ?? null
    }))
  };
}

function withTimeout(promise, timeoutMs, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen within ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const commands = {
  async open({ tables }) {
    if (database != null) {
      throw new Error('The database is open already');
    }
    const schema = new Schema(
      Object.fromEntries(
        Object.entries(tables).map(([name, columns]) => [
          name,
          new Table(Object.fromEntries(columns.map((c) => [c, column.text])))
        ])
      )
    );
    database = new PowerSyncDatabase({
      schema,
      factory: new SQLJSOpenFactory({ dbFilename: 'client.db', logger }),
      logger
    });
    await database.init();
    delete process.type;
    return null;
  },

  async connect({ endpoint, tokens, uploadUrl, retryDelayMs, params }) {
    connector.endpoint = endpoint;
    connector.tokens = [...tokens];
    connector.uploadUrl = uploadUrl ?? null;
    await requireDatabase().connect(connector, {
      connectionMethod: SyncStreamConnectionMethod.HTTP,
      retryDelayMs: retryDelayMs ?? 200,
      crudUploadThrottleMs: 50,
      params: params ?? undefined
    });
    return null;
  },

  async setTokens({ tokens }) {
    connector.tokens = [...tokens];
    return null;
  },

  async waitForSync({ priority, timeoutMs }) {
    const request = priority == null ? {} : { priority };
    await withTimeout(requireDatabase().waitForFirstSync(request), timeoutMs,
      priority == null ? 'A complete sync' : `A sync of priority ${priority}`);
    return statusOf(database.currentStatus);
  },

  async status() {
    return {
      ...statusOf(requireDatabase().currentStatus),
      credentialsFetched: connector.credentialsFetched,
      credentialsInvalidated: connector.credentialsInvalidated,
      uploads: connector.uploads,
      uploadErrors: connector.uploadErrors
    };
  },

  async query({ sql, params }) {
    return await requireDatabase().getAll(sql, params ?? []);
  },

  async execute({ sql, params }) {
    const result = await requireDatabase().execute(sql, params ?? []);
    return { rowsAffected: result.rowsAffected ?? 0 };
  },

  async disconnect() {
    await requireDatabase().disconnect();
    return null;
  },

  async close() {
    if (database != null) {
      await database.close();
      database = null;
    }
    return null;
  }
};

const input = readline.createInterface({ input: process.stdin, terminal: false });
let queue = Promise.resolve();
input.on('line', (line) => {
  queue = queue.then(() => handle(line));
});
input.on('close', () => {
  queue.then(() => commands.close()).finally(() => process.exit(0));
});

async function handle(line) {
  process.stderr.write(`${new Date().toISOString()} [driver] ${line.slice(0, 200)}\n`);
  let request;
  try {
    request = JSON.parse(line);
  } catch (e) {
    reply({ id: null, ok: false, error: `Not a JSON command: ${line}` });
    return;
  }
  const run = commands[request.command];
  if (run == null) {
    reply({ id: request.id, ok: false, error: `Unknown command "${request.command}"; known: ${Object.keys(commands)}` });
    return;
  }
  try {
    const result = await run.call(commands, request);
    reply({ id: request.id, ok: true, result: result ?? null });
    if (request.command === 'close') {
      process.exit(0);
    }
  } catch (e) {
    reply({ id: request.id, ok: false, error: String(e?.stack ?? e) });
  }
}

function reply(message) {
  process.stdout.write(JSON.stringify(message) + '\n');
}
