/**
 * Progress of long loads and recoveries: a bar redrawn in place on a terminal, a log line
 * every 10 % (or every 5 s) otherwise. Silent for work that ends within a second, so small
 * databases start without noise.
 */

export interface ProgressOutput {
  write(text: string): unknown;
  isTTY?: boolean;
}

const QUIET_MS = 1000;
const LOG_EVERY_MS = 5000;

export class Progress {
  private done = 0;
  private readonly started = performance.now();
  private lastDraw = 0;
  private lastLoggedTenth = -1;
  private shown = false;

  constructor(
    private readonly label: string,
    private readonly total: number | undefined,
    private readonly out: ProgressOutput | undefined,
  ) {}

  /** Counts `n` more items done. Cheap enough to call per item. */
  tick(n = 1): void {
    this.done += n;
    if (this.out === undefined || (this.done & 0x3fff) !== 0) return;
    this.maybeDraw(false);
  }

  finish(): void {
    if (this.out === undefined) return;
    if (this.shown) {
      this.maybeDraw(true);
      if (this.out.isTTY) this.out.write('\n');
    }
  }

  private maybeDraw(final: boolean): void {
    const out = this.out as ProgressOutput;
    const now = performance.now();
    if (!final && now - this.started < QUIET_MS) return;
    const fraction = this.total ? Math.min(1, this.done / this.total) : undefined;
    const count = this.total ? `${this.done.toLocaleString('en-US')}/${this.total.toLocaleString('en-US')}` : this.done.toLocaleString('en-US');
    const secs = ((now - this.started) / 1000).toFixed(1);
    if (out.isTTY) {
      if (!final && now - this.lastDraw < 100) return;
      const width = 30;
      const filled = fraction === undefined ? 0 : Math.round(fraction * width);
      const bar = fraction === undefined ? '' : `[${'#'.repeat(filled)}${' '.repeat(width - filled)}] ${Math.floor(fraction * 100)}% `;
      out.write(`\r${this.label} ${bar}${count} (${secs} s)`);
    } else {
      const tenth = fraction === undefined ? -1 : Math.floor(fraction * 10);
      const due = fraction === undefined ? now - this.lastDraw >= LOG_EVERY_MS : tenth > this.lastLoggedTenth || now - this.lastDraw >= LOG_EVERY_MS;
      if (!final && !due) return;
      this.lastLoggedTenth = tenth;
      const pct = fraction === undefined ? '' : ` ${Math.floor(fraction * 100)}%`;
      out.write(`${this.label}:${pct} ${count} (${secs} s)${final ? ', done' : ''}\n`);
    }
    this.shown = true;
    this.lastDraw = now;
  }
}
