/**
 * The headless Chromium the browser-facing tests drive (playwright-core): Debian's `chromium`,
 * or the binary GRAPHDB_CHROMIUM names, and how it is started.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = process.env.GRAPHDB_CHROMIUM ?? '/usr/bin/chromium';
export const HAVE_CHROMIUM = existsSync(CHROMIUM);

/**
 * Starts it: without a sandbox (tests run as root in containers) and without the GPU, since
 * there is none here and Chromium would otherwise rasterise pages through its software GPU,
 * SwiftShader (about 15 % more CPU for browser.test.ts).
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
}
