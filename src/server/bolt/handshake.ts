/**
 * Bolt's opening handshake: the client sends the magic preamble and four version offers
 * (each a major, a minor and how many minors below it are also fine); the server answers the
 * one version it picks, or zeros when none suits. We speak 5.0–5.8 and 4.4 and pick the
 * highest both sides have. Driver 5.7+ also offers the manifest handshake (255.1): we
 * decline it simply by not picking it, which its drivers accept.
 */

export const HANDSHAKE_BYTES = 20;
const MAGIC = 0x6060b017;

export interface BoltVersion {
  major: number;
  minor: number;
}

const SUPPORTED: readonly BoltVersion[] = [
  ...[8, 7, 6, 5, 4, 3, 2, 1, 0].map((minor) => ({ major: 5, minor })),
  { major: 4, minor: 4 },
];

export type HandshakeOutcome = { ok: true; version: BoltVersion; answer: Buffer } | { ok: false; why: string; answer?: Buffer };

/** The server's answer to the 20 handshake bytes. */
export function negotiate(bytes: Buffer): HandshakeOutcome {
  if (bytes.readUInt32BE(0) !== MAGIC) return { ok: false, why: 'the connection did not start with the Bolt preamble' };
  const offers: { major: number; minor: number; range: number }[] = [];
  for (let i = 0; i < 4; i++) {
    const at = 4 + i * 4;
    offers.push({ range: bytes[at + 1], minor: bytes[at + 2], major: bytes[at + 3] });
  }
  for (const v of SUPPORTED) {
    if (offers.some((o) => o.major === v.major && v.minor <= o.minor && v.minor >= o.minor - o.range)) {
      return { ok: true, version: v, answer: Buffer.from([0, 0, v.minor, v.major]) };
    }
  }
  return { ok: false, why: 'the client offers no Bolt version this server speaks (5.0–5.8, 4.4)', answer: Buffer.alloc(4) };
}

/** Whether `v` is at least major.minor. */
export function atLeast(v: BoltVersion, major: number, minor: number): boolean {
  return v.major > major || (v.major === major && v.minor >= minor);
}
