/**
 * A fault injector for sync tests: wraps in-process transports between named peers and, by a
 * seeded random choice per message, drops the request or the answer, delivers it twice,
 * delays it, re-delivers an old payload later (reordering), or refuses it while the two
 * peers are partitioned. Restarts are the test's job (it swaps the peer behind `target`).
 */

import type { ScopeFilter } from '../../src/sync/options.js';
import type { SyncAck, SyncPayload, SyncPullResponse } from '../../src/sync/protocol.js';
import type { SyncNode } from '../../src/sync/sync-node.js';
import { InProcessTransport, type SyncTransport } from '../../src/sync/transport.js';
import { SyncPeerError } from '../../src/sync/errors.js';

export interface FaultRates {
  dropRequest: number;
  dropAnswer: number;
  duplicate: number;
  reorder: number;
  delay: number;
}

export const NO_FAULTS: FaultRates = { dropRequest: 0, dropAnswer: 0, duplicate: 0, reorder: 0, delay: 0 };

/** Mulberry32, the project's seeded generator, so a failing seed replays exactly. */
export { seededRandom } from '../../procedures/algo/random.js';

export class FaultyNetwork {
  rates: FaultRates;
  private readonly cut = new Set<string>();
  /** Old payloads waiting to be re-delivered out of order. */
  private readonly stale: { to: string; payload: SyncPayload }[] = [];
  readonly counts = { dropped: 0, duplicated: 0, reordered: 0, delayed: 0, refused: 0 };

  constructor(
    private readonly random: () => number,
    rates: FaultRates,
    private readonly nodes: (name: string) => SyncNode,
  ) {
    this.rates = rates;
  }

  partition(a: string, b: string): void {
    this.cut.add(`${a}|${b}`).add(`${b}|${a}`);
  }

  healAll(): void {
    this.cut.clear();
  }

  transport(from: string, to: string): SyncTransport {
    const inner = new InProcessTransport(() => this.nodes(to), to);
    const net = { counts: this.counts, cut: this.cut, stale: this.stale, random: this.random, rates: (): FaultRates => this.rates };
    const gate = async (): Promise<void> => {
      if (net.cut.has(`${from}|${to}`)) {
        net.counts.refused++;
        throw new SyncPeerError(`${from} and ${to} are partitioned`);
      }
      if (net.random() < net.rates().delay) {
        net.counts.delayed++;
        await new Promise((r) => setTimeout(r, 1 + Math.floor(net.random() * 5)));
      }
      if (net.random() < net.rates().dropRequest) {
        net.counts.dropped++;
        throw new SyncPeerError(`request from ${from} to ${to} lost`);
      }
      if (net.random() < net.rates().reorder && net.stale.length > 0) {
        const i = Math.floor(net.random() * net.stale.length);
        const old = net.stale.splice(i, 1)[0];
        net.counts.reordered++;
        await new InProcessTransport(() => this.nodes(old.to)).push(old.payload).catch(() => undefined);
      }
    };
    const answerLost = (): void => {
      if (net.random() < net.rates().dropAnswer) {
        net.counts.dropped++;
        throw new SyncPeerError(`answer from ${to} to ${from} lost`);
      }
    };
    return {
      label: to,
      push: async (payload: SyncPayload): Promise<SyncAck> => {
        await gate();
        if (net.random() < net.rates().reorder) net.stale.push({ to, payload });
        const ack = await inner.push(payload);
        if (net.random() < net.rates().duplicate) {
          net.counts.duplicated++;
          await inner.push(payload);
        }
        answerLost();
        return ack;
      },
      pull: async (peerId: string, since: number, scope?: ScopeFilter): Promise<SyncPullResponse> => {
        await gate();
        const answer = await inner.pull(peerId, since, scope);
        answerLost();
        return answer;
      },
    };
  }
}
