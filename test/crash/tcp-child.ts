/**
 * Crash-test server when the built CLI is not available: opens the Database on the data
 * directory given as the first argument and serves it with the real TCP door on a free
 * port, printing the same start-up line the CLI prints.
 */

import { Database } from '../../src/engine/database.js';
import { startTcpServer } from '../../src/server/tcp/server.js';

const dir = process.argv[2];
if (!dir) throw new Error('usage: tcp-child.ts <data-dir>');
const db = await Database.open({ dataDir: dir });
const server = await startTcpServer(db, { port: 0 });
const stop = (): void => {
  void server.close().then(() => {
    db.close();
    process.exit(0);
  });
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
