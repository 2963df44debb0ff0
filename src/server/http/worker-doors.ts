/**
 * The main thread's side of the HTTP door served by the query workers (`--worker-doors`):
 * copies of the door's listening socket for the workers (../listener-copies.ts), the relay
 * listener through which they hand the main thread what they do not answer themselves
 * (`door-relay.ts`), and the order of closing (the workers' copies first, then the relay).
 * Where the socket cannot be copied, nothing opens and the main thread answers everything, as
 * without the option.
 */

import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { QueryWorkerPool } from '../../engine/workers/worker-pool.js';
import type { ServerLimits } from '../limits.js';
import { ListenerCopier } from '../listener-copies.js';
import { listenForRelays } from './door-relay.js';

export interface WorkerDoorsOptions {
  apiKey?: string;
  allowOrigins: readonly string[];
  limits: ServerLimits;
  log: (line: string) => void;
}

/** Has `pool`'s workers serve the door listening on `listener`; the returned close stops them (undefined: they do not). */
export async function openWorkerDoors(
  listener: Server,
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  pool: QueryWorkerPool,
  options: WorkerDoorsOptions,
): Promise<{ close(): Promise<void> } | undefined> {
  const copier = ListenerCopier.start(listener);
  if (copier === undefined) {
    options.log('graphdb: the query workers cannot share the HTTP port on this platform; the main thread answers every request');
    return undefined;
  }
  const relay = await listenForRelays(handler, options.limits);
  const serving = await pool.openDoors(async (thread) => ({
    fd: await copier.copy(),
    relayPort: relay.port,
    apiKey: options.apiKey,
    allowOrigins: options.allowOrigins,
    limits: options.limits,
    thread,
  }));
  options.log(`graphdb: ${serving} query worker${serving === 1 ? '' : 's'} and the main thread accept HTTP connections (reads answered where they land)`);
  return {
    close: async () => {
      await pool.closeDoors();
      copier.close();
      await relay.close();
    },
  };
}
