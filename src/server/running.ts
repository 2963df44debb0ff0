/**
 * What every network door's start function hands back, and the default place their
 * start-up lines go.
 */

export interface RunningServer {
  /** The port actually bound (useful when 0 asked for a free one). */
  port: number;
  /** Stops accepting, lets work in flight finish (briefly), resolves when closed. */
  close(): Promise<void>;
}

/** Writes one line to stderr. */
export function stderrLine(line: string): void {
  process.stderr.write(line + '\n');
}
