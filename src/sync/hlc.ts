/**
 * Hybrid logical clock (HLC) stamps for sync: every change a peer makes carries one, and
 * concurrent writes to the same property, label or element are ordered by them (last writer
 * wins). A stamp is physical milliseconds, a logical counter for events within the same
 * millisecond (or behind a peer whose clock runs ahead), and the peer id as the final
 * tie-break, so two stamps from different peers are never equal.
 *
 * Text form: `<ms, 15 digits>.<counter, 6 digits>.<peer id>`; the fixed-width prefix sorts as
 * text, and `compareHlc` orders by prefix, then peer id.
 */

const PREFIX = 22; // 15 + 1 + 6
const MAX_COUNTER = 999_999;
/** A remote stamp further than this ahead of our clock is refused: a peer with a broken clock must not pin every later write. */
export const MAX_CLOCK_SKEW_MS = 24 * 60 * 60 * 1000;

export interface HlcParts {
  wall: number;
  counter: number;
  peer: string;
}

export function formatHlc(p: HlcParts): string {
  return `${String(p.wall).padStart(15, '0')}.${String(p.counter).padStart(6, '0')}.${p.peer}`;
}

const HLC_PATTERN = /^(\d{15})\.(\d{6})\.(.+)$/;

/** The parts of a stamp, or undefined when the text is not one. */
export function parseHlc(text: string): HlcParts | undefined {
  const m = HLC_PATTERN.exec(text);
  if (!m) return undefined;
  return { wall: Number(m[1]), counter: Number(m[2]), peer: m[3] };
}

/** Total order on stamps: time, then counter, then peer id. */
export function compareHlc(a: string, b: string): number {
  const pa = a.slice(0, PREFIX);
  const pb = b.slice(0, PREFIX);
  if (pa !== pb) return pa < pb ? -1 : 1;
  const qa = a.slice(PREFIX + 1);
  const qb = b.slice(PREFIX + 1);
  return qa === qb ? 0 : qa < qb ? -1 : 1;
}

/** One peer's clock: `tick` for a local event, `observe` for every stamp received. */
export class HybridClock {
  private wall = 0;
  private counter = 0;

  constructor(
    readonly peer: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** A stamp greater than every stamp this clock has issued or observed. */
  tick(): string {
    const physical = this.now();
    if (physical > this.wall) {
      this.wall = physical;
      this.counter = 0;
    } else if (this.counter >= MAX_COUNTER) {
      this.wall += 1;
      this.counter = 0;
    } else {
      this.counter += 1;
    }
    return formatHlc({ wall: this.wall, counter: this.counter, peer: this.peer });
  }

  /** Moves the clock past a stamp seen from elsewhere (or restored from disk). */
  observe(stamp: string): void {
    const p = parseHlc(stamp);
    if (!p) return;
    if (p.wall > this.wall || (p.wall === this.wall && p.counter > this.counter)) {
      this.wall = p.wall;
      this.counter = p.counter;
    }
  }
}
