// Syncs the embedded default's sample todo app (users, lists, todos) from Tributary's sync API into a local
// SQLite database with the PowerSync Node.js client, prints what the user got, then prints every change as it
// arrives until Ctrl-C.
//
//   TRIBUTARY_TOKEN=<token printed by ./tributary run> node sync.mjs [--once]
//
// TRIBUTARY_ENDPOINT overrides the API's address (default http://localhost:8080). --once exits after the first
// complete sync.

const endpoint = (process.env.TRIBUTARY_ENDPOINT ?? 'http://localhost:8080').replace(/\/+$/, '');
const token = process.env.TRIBUTARY_TOKEN;
const once = process.argv.includes('--once');

if (!token) {
  console.error('Set TRIBUTARY_TOKEN to a token for the sync API: `./tributary run` prints one for the sample user');
  process.exit(2);
}

// The pure-JS SQLite build (SQL.js) takes itself for a browser only while process.type says so; as a Node module it
// would look for file system bindings it does not ship. It reads the flag while the database opens.
process.type = 'renderer';
const { PowerSyncDatabase } = await import('@powersync/node');
const { Schema, Table, column, SyncStreamConnectionMethod } = await import('@powersync/common');
const { SQLJSOpenFactory } = await import('@powersync/adapter-sql-js');

// The client's view of the sample tables: every column the sync rules send (ids are implicit).
const schema = new Schema({
  users: new Table({ name: column.text, email: column.text }),
  lists: new Table({ owner_id: column.text, name: column.text, created_at: column.text }),
  todos: new Table({
    list_id: column.text,
    owner_id: column.text,
    description: column.text,
    completed: column.text,
    priority: column.text,
    created_at: column.text
  })
});

const logger = {
  log(record) {
    if (record.level >= 40) {
      console.error(`[powersync] ${record.message}`, record.error ?? '');
    }
  }
};

const db = new PowerSyncDatabase({
  schema,
  factory: new SQLJSOpenFactory({ dbFilename: 'sample.db', logger }),
  logger
});
await db.init();
delete process.type;

// A backend connector: where the API is and which token to send. This sample only reads, so there is nothing to
// upload; an app would send db.getNextCrudTransaction() to its own backend here.
const connector = {
  async fetchCredentials() {
    return { endpoint, token };
  },
  async uploadData(database) {
    const transaction = await database.getNextCrudTransaction();
    await transaction?.complete();
  }
};

const started = Date.now();
await db.connect(connector, { connectionMethod: SyncStreamConnectionMethod.HTTP });
console.log(`Connecting to ${endpoint} ...`);
await db.waitForFirstSync();

const count = async (table) => (await db.get(`SELECT count(*) AS n FROM ${table}`)).n;
console.log(
  `Synced in ${Date.now() - started} ms: ${await count('users')} users, ${await count('lists')} lists, ` +
    `${await count('todos')} todos`
);
const lists = await db.getAll(
  `SELECT l.id, l.name, count(t.id) AS todos, sum(t.completed = '1') AS done
     FROM lists l LEFT JOIN todos t ON t.list_id = l.id GROUP BY l.id ORDER BY CAST(l.id AS INTEGER) LIMIT 10`
);
for (const list of lists) {
  console.log(`  list ${list.id} "${list.name}": ${list.todos} todos, ${list.done ?? 0} done`);
}

if (once) {
  await db.close();
  process.exit(0);
}

console.log('Watching for changes (Ctrl-C to stop) ...');
const todos = db.query({ sql: 'SELECT id, description, completed FROM todos ORDER BY id' }).differentialWatch();
let initial = true;
todos.registerListener({
  onDiff(diff) {
    if (initial) {
      // The first result is what was synced already.
      initial = false;
      return;
    }
    for (const row of diff.added) console.log(`+ todo ${row.id}: ${row.description}`);
    for (const { current: row } of diff.updated) {
      console.log(`~ todo ${row.id}: ${row.description} (completed: ${row.completed})`);
    }
    for (const row of diff.removed) console.log(`- todo ${row.id}`);
  }
});

process.on('SIGINT', async () => {
  await db.close();
  process.exit(0);
});
