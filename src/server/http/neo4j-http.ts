/**
 * What the Neo4j-shaped HTTP routes share (tx-routes.ts: the JSON body and Neo4j's
 * transactional API; query-api-routes.ts: the Query API): the database names they answer
 * to, the strict JSON body reader, the JSON reply, Neo4j's write counters, its request
 * error, and the table of open transactions by id.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Transaction } from '../../engine/transaction.js';
import type { QueryStats } from '../../engine/types.js';
import type { Neo4jError } from '../neo4j-codes.js';
import { type JsonOut, writeJson } from './json-values.js';

const JSON_TYPE = 'application/json; charset=utf-8';
/** Database names the Neo4j routes answer to (a Neo4j client's default is `neo4j`). */
export const DATABASE_NAMES = new Set(['neo4j', 'graphdb']);
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The request body (a fastify request's raw-buffer body, or a query worker's door's buffer) as a JSON object, or a message saying why not. */
export function jsonBody(request: Pick<FastifyRequest, 'body'>): Record<string, unknown> | string {
  const raw = request.body;
  const bytes = Buffer.isBuffer(raw) ? raw : Buffer.alloc(0);
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    return 'The request body is not valid UTF-8';
  }
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    return `The request body is not valid JSON: ${(err as Error).message}`;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return 'The request body must be a JSON object';
  return parsed as Record<string, unknown>;
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function send(reply: FastifyReply, status: number, body: JsonOut): FastifyReply {
  return reply.code(status).type(JSON_TYPE).send(writeJson(body));
}

export function statsJson(s: QueryStats, mutated: boolean): JsonOut {
  return {
    contains_updates: mutated,
    nodes_created: s.nodesCreated,
    nodes_deleted: s.nodesDeleted,
    properties_set: s.propertiesSet,
    relationships_created: s.relationshipsCreated,
    relationship_deleted: s.relationshipsDeleted,
    labels_added: s.labelsAdded,
    labels_removed: s.labelsRemoved,
    indexes_added: 0,
    indexes_removed: 0,
    constraints_added: 0,
    constraints_removed: 0,
    contains_system_updates: false,
    system_updates: 0,
  };
}

export const invalidRequest = (message: string): Neo4jError => ({ code: 'Neo.ClientError.Request.InvalidFormat', message });

/** The open transactions of the Neo4j routes, by id (sequential numbers unless `newId` makes them). */
export class OpenTransactions {
  private readonly byId = new Map<string, Transaction>();
  private next = 1;

  constructor(private readonly newId: () => string = () => String(this.next++)) {}

  add(tx: Transaction): string {
    const id = this.newId();
    this.byId.set(id, tx);
    tx.onTimedOut = () => this.byId.delete(id);
    return id;
  }

  get(id: string): Transaction | undefined {
    const tx = this.byId.get(id);
    if (tx !== undefined && !tx.isOpen) {
      this.byId.delete(id);
      return undefined;
    }
    return tx;
  }

  get size(): number {
    return this.byId.size;
  }

  remove(id: string): void {
    this.byId.delete(id);
  }

  closeAll(): void {
    for (const tx of this.byId.values()) tx.abort();
    this.byId.clear();
  }
}
