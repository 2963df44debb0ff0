/**
 * The Temporal polyfill, loaded on first use: only named IANA zones and the real-time clock
 * need it, and at about 220 kB it is the largest single thing a start-up would otherwise
 * parse for queries that never touch a time zone.
 */

import { LazyModule } from '../../src/lazy-module.js';

type Polyfill = typeof import('temporal-polyfill');

const polyfill = new LazyModule<Polyfill>(import.meta.url, 'temporal-polyfill', () => import('temporal-polyfill'));

/** The polyfill's `Temporal` namespace, loading the polyfill now if nothing has yet. */
export function temporalApi(): Polyfill['Temporal'] {
  return polyfill.get().Temporal;
}
