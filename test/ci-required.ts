/**
 * For tests whose real component (a tmpfs, a native package) may be impossible to set up on a
 * developer's machine: there they skip with a notice, but under CI a missing component is a
 * failure, so a runner that quietly lost it cannot pass by skipping.
 */

import { it } from 'vitest';

/** Registers a failing test under CI when `available` is false; says what is skipped otherwise. */
export function requiredUnderCi(available: boolean, what: string, notice: string): void {
  if (available) return;
  if (process.env.CI) {
    it(`can set up ${what} (required under CI)`, () => {
      throw new Error(`${what} could not be set up, and CI must run this test: ${notice}`);
    });
  } else {
    console.warn(`SKIPPED: ${notice}`);
  }
}
