import * as dgram from 'node:dgram';
import { describe, expect, it } from 'vitest';
import { LanDiscovery } from '../../src/sync/discovery.js';

// Multicast stays on the loopback interface (SPEC: tests never send onto a real network).
const LOOPBACK = { group: '239.255.0.1', interface: '127.0.0.1' };

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('LAN discovery on loopback', () => {
  it('peers hear each other, ignore and count malformed announcements, and forget stale peers', async () => {
    const port = 20000 + Math.floor(Math.random() * 20000);
    let clock = Date.now();
    const now = (): number => clock;
    const a = await LanDiscovery.start({ ...LOOPBACK, port, peerId: 'peer-a', dataPort: 7001, announceIntervalMs: 50, staleAfterMs: 1000, now });
    const b = await LanDiscovery.start({ ...LOOPBACK, port, peerId: 'peer-b', dataPort: 7002, announceIntervalMs: 50, staleAfterMs: 1000, now });
    try {
      await until(() => a.peers().length === 1 && b.peers().length === 1);
      expect(a.peers()[0]).toMatchObject({ peerId: 'peer-b', dataPort: 7002, address: '127.0.0.1' });
      expect(a.peerUrls()).toEqual(['http://127.0.0.1:7002']);
      const sender = dgram.createSocket('udp4');
      sender.bind(0, '127.0.0.1', () => {
        sender.setMulticastInterface('127.0.0.1');
        for (const junk of ['nope', '{"op":"announce"}', '{"op":"announce","peer_id":"x y","data_port":1}', '{"op":"hello","peer_id":"c","data_port":9}']) {
          sender.send(junk, port, LOOPBACK.group);
        }
      });
      await until(() => a.malformed >= 4 && b.malformed >= 4);
      sender.close();
      expect(a.peers().map((p) => p.peerId)).toEqual(['peer-b']);
      await b.stop();
      clock += 5000;
      expect(a.peers()).toEqual([]);
    } finally {
      await a.stop();
      await b.stop().catch(() => undefined);
    }
  });
});
