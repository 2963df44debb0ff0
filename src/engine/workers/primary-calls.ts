/**
 * A query worker's calls of procedures that read what only the primary holds (its vector and
 * full-text indexes, skills, graph_rag, db.info, db.indexes: `servedByPrimary`). The query
 * runs on the worker; at such a call it asks the main thread for exactly that procedure's
 * rows and waits for them, synchronously, so the generated code around the call is unchanged.
 * The main thread runs the call alone (`QueryRouter` serves it through the primary Database,
 * read-only, within the query's remaining time) and the rest of the query — its scans, its
 * filters, its regular expressions — never holds the main thread.
 *
 * The request is a `call` message on the worker's port; the answer comes on a port of its own,
 * which the worker reads with `receiveMessageOnPort` while it waits in `Atomics.wait` on a word
 * the main thread bumps after each answer. The worker wakes every WAIT_SLICE_MS to check its
 * query's cancel word and deadline, so a call never outlives its query; an answer that comes
 * after its query gave up is recognised by its id and dropped.
 *
 * Entities in the answer are the primary's; the worker hands the query its replica's own
 * (same ids, since the replica is the primary's state when the query was sent). A row naming
 * an entity the replica does not hold (written on the primary meanwhile) is left out.
 */

import { receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import type { ProcedureContext, ProcedureDef } from '../../../procedures/registry.js';
import { activeGovernor } from '../../../runtime/governor.js';
import type { Value } from '../../../runtime/values.js';
import type { Graph } from '../../store/graph.js';
import { Node, Rel } from '../../store/entities.js';
import type { Skill, SkillParameter } from '../../skills/skill.js';
import { runSkill } from '../../skills/procedures.js';
import { type CallReply, type FromWorker, WorkerQueryError } from './protocol.js';
import { decodeFromTransfer, encodeForTransfer } from './value-transfer.js';

/** How often a waiting call checks its query's cancel word and deadline. */
const WAIT_SLICE_MS = 50;
/** Widening rounds of a filtered top-k search served by the primary (see `filteredTopK`). */
const MAX_WIDENINGS = 6;

export class PrimaryCalls {
  private nextId = 1;
  private readonly signal: Int32Array;
  /**
   * Set while a read transaction's statement runs on its pinned snapshot: the committed state
   * that snapshot is. The primary serves a call only while its own state is still that one
   * (it holds no older copy of its indexes), so a transaction never sees a later commit.
   */
  snapshotSeq: number | undefined;

  constructor(
    private readonly port: MessagePort,
    signal: SharedArrayBuffer,
    private readonly post: (message: FromWorker) => void,
  ) {
    this.signal = new Int32Array(signal);
  }

  /** The rows `name(args)` yields on the primary; throws its error, or the query's own cancel or time limit. */
  call(name: string, args: Value[]): Value[][] {
    const g = activeGovernor();
    const id = this.nextId++;
    let seen = Atomics.load(this.signal, 0);
    const left = g.remainingMs();
    this.post({ t: 'call', id, name, args: encodeForTransfer(args), timeoutMs: left === Number.POSITIVE_INFINITY ? undefined : Math.max(1, Math.ceil(left)), atSeq: this.snapshotSeq });
    for (;;) {
      for (let m = receiveMessageOnPort(this.port); m !== undefined; m = receiveMessageOnPort(this.port)) {
        const reply = m.message as CallReply;
        if (reply.id !== id) continue;
        if (reply.error !== undefined) throw new WorkerQueryError(reply.error);
        return decodeFromTransfer(reply.rows ?? []) as Value[][];
      }
      g.checkDeadline();
      Atomics.wait(this.signal, 0, seen, WAIT_SLICE_MS);
      seen = Atomics.load(this.signal, 0);
    }
  }

  /** `def` as a worker runs it: its rows come from the primary, with the replica's entities in them. */
  served(def: ProcedureDef): ProcedureDef {
    if (def.name === 'skills.run') return { ...def, invoke: (ctx, [name, params]) => runSkill({ get: (n) => this.skill(n) }, ctx, def.name, name, params, false) };
    return {
      ...def,
      invoke: (ctx, args) => (ctx.rowFilter !== undefined && def.acceptsRowFilter ? this.filteredTopK(def.name, ctx, args) : this.rows(def.name, ctx.graph, args)),
    };
  }

  private rows(name: string, graph: Graph, args: Value[]): Value[][] {
    const out: Value[][] = [];
    for (const row of this.call(name, args)) {
      const mapped = onReplica(row, graph) as Value[] | undefined;
      if (mapped !== undefined) out.push(mapped);
    }
    return out;
  }

  /**
   * A top-k search with `YIELD … WHERE` (the vector procedures: k is their second argument):
   * the filter is the query's own code, so it runs here, over the primary's unfiltered top
   * k, 4k, 16k, … until k rows pass or the index has no more.
   */
  private filteredTopK(name: string, ctx: ProcedureContext, args: Value[]): Value[][] {
    const k = args[1];
    if (typeof k !== 'number' || !Number.isInteger(k) || k < 1) return this.rows(name, ctx.graph, args);
    let wanted = k;
    for (let round = 0; ; round++) {
      const rows = this.rows(name, ctx.graph, [args[0], wanted, ...args.slice(2)]);
      const passed = rows.filter((row) => ctx.rowFilter!(row));
      if (passed.length >= k || rows.length < wanted || round === MAX_WIDENINGS) return passed.slice(0, k);
      wanted *= 4;
    }
  }

  /** The primary's skill `name`, from its `skills.list`. */
  private skill(name: string): Skill | undefined {
    const row = this.call('skills.list', []).find((r) => r[0] === name);
    if (row === undefined) return undefined;
    const parameters: Record<string, SkillParameter> = {};
    for (const [p, t] of row[3] as Map<string, string>) {
      const required = !t.endsWith('?');
      parameters[p] = { type: (required ? t : t.slice(0, -1)) as SkillParameter['type'], description: '', required };
    }
    return { name, description: row[1] as string, mode: row[2] as Skill['mode'], parameters, query: row[4] as string };
  }
}

/** `v` with the primary's entities replaced by the replica's; undefined when the replica lacks one. */
function onReplica(v: unknown, graph: Graph): unknown {
  if (v instanceof Node) {
    const n = graph.nodeAt(v.id);
    return n === undefined || n.deleted ? undefined : n;
  }
  if (v instanceof Rel) {
    const r = graph.relAt(v.id);
    return r === undefined || r.deleted ? undefined : r;
  }
  if (Array.isArray(v)) {
    const out: unknown[] = [];
    for (const x of v) {
      const y = onReplica(x, graph);
      if (y === undefined) return undefined;
      out.push(y);
    }
    return out;
  }
  if (v instanceof Map) {
    const out = new Map<unknown, unknown>();
    for (const [key, x] of v) {
      const y = onReplica(x, graph);
      if (y === undefined) return undefined;
      out.set(key, y);
    }
    return out;
  }
  return v;
}
