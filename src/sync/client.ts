/**
 * The sync cycle a client runs against one peer, in SPEC's order: (1) push this node's feed
 * after the peer's acknowledged sequence, in batches; (2) read the ack (acked_seq,
 * fingerprint); (3) pull the peer's feed after the remote high-water mark; (4) replay it
 * locally; (5) compare fingerprints. High-water marks live in the SyncNode and its log, so a
 * restarted peer resumes where it stopped. Loops are bounded by `maxRounds`.
 */

import type { SyncTransport } from './transport.js';
import type { SyncNode } from './sync-node.js';

export interface SyncCycleResult {
  /** The remote's peer id. */
  peer: string;
  pushedStatements: number;
  pulledStatements: number;
  localFingerprint: string;
  remoteFingerprint: string;
  /** Fingerprints equal after the cycle. */
  consistent: boolean;
}

/** Remote peer ids learned per transport (the first push tells). */
const remoteIds = new WeakMap<SyncTransport, string>();

export async function pushTo(node: SyncNode, transport: SyncTransport, maxRounds = 1000): Promise<{ peer: string; statements: number; fingerprint: number }> {
  let statements = 0;
  for (let round = 0; round < maxRounds; round++) {
    const known = remoteIds.get(transport);
    const since = known === undefined ? 0 : (node.acked.get(known) ?? 0);
    const payload = node.payloadSince(since, known, node.scope);
    const ack = await transport.push({
      peer_id: payload.peer_id,
      seq_start: payload.seq_start,
      seq_end: payload.seq_end,
      queries: payload.queries,
      fingerprint: payload.fingerprint,
    });
    remoteIds.set(transport, ack.peer_id);
    statements += payload.queries.length;
    node.recordAck(ack.peer_id, Math.min(ack.acked_seq, node.lastSequence));
    if (known === undefined && since !== (node.acked.get(ack.peer_id) ?? 0)) continue;
    if (payload.seq_end >= payload.last_seq) return { peer: ack.peer_id, statements, fingerprint: ack.fingerprint };
  }
  throw new Error(`push to ${transport.label} did not finish in ${maxRounds} rounds`);
}

export async function pullFrom(node: SyncNode, transport: SyncTransport, maxRounds = 1000): Promise<{ peer: string; statements: number; fingerprint: number }> {
  let statements = 0;
  for (let round = 0; round < maxRounds; round++) {
    const known = remoteIds.get(transport);
    const since = known === undefined ? 0 : (node.applied.get(known) ?? 0);
    const answer = await transport.pull(node.peerId, since, node.scope);
    if (known === undefined && answer.peer_id !== node.peerId) {
      remoteIds.set(transport, answer.peer_id);
      if ((node.applied.get(answer.peer_id) ?? 0) !== since) continue; // ask again from what we already hold
    }
    node.receive(answer);
    statements += answer.queries.length;
    if (answer.seq_end >= answer.last_seq) return { peer: answer.peer_id, statements, fingerprint: answer.fingerprint };
  }
  throw new Error(`pull from ${transport.label} did not finish in ${maxRounds} rounds`);
}

export async function syncWith(node: SyncNode, transport: SyncTransport): Promise<SyncCycleResult> {
  const pushed = await pushTo(node, transport);
  const pulled = await pullFrom(node, transport);
  const local = node.fingerprint();
  const remote = String(pulled.fingerprint);
  return {
    peer: pulled.peer,
    pushedStatements: pushed.statements,
    pulledStatements: pulled.statements,
    localFingerprint: local,
    remoteFingerprint: remote,
    consistent: local === remote,
  };
}
