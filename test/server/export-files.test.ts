/**
 * apoc.export.* writes (issue 26): through the real binary's HTTP door with --import-dir, an
 * export creates only a new regular file inside the directory: a link planted there (as the
 * file or as a directory on its path) leads nowhere, an existing file is replaced only with
 * `{overwrite: true}`, and a FIFO — with or without a reader — is refused at once instead
 * of holding a worker thread for good.
 */

import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnGraphdb, type SpawnedServers } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'graphdb-export-'));
const outside = mkdtempSync(join(tmpdir(), 'graphdb-export-outside-'));
writeFileSync(join(outside, 'victim.txt'), 'precious\n');
symlinkSync(join(outside, 'victim.txt'), join(dir, 'link.json'));
symlinkSync(outside, join(dir, 'linkdir'));
mkdirSync(join(dir, 'sub'));
writeFileSync(join(dir, 'existing.json'), 'keep me\n');
execFileSync('mkfifo', [join(dir, 'fifo.json')]);
execFileSync('mkfifo', [join(dir, 'fifo-read.json')]);

let server: SpawnedServers;
let reader: ChildProcess | undefined;

async function query(q: string): Promise<{ status: number; body: string; ms: number }> {
  const started = Date.now();
  const res = await fetch(`http://127.0.0.1:${server.ports.http}/query`, { method: 'POST', body: q });
  return { status: res.status, body: await res.text(), ms: Date.now() - started };
}

const exportTo = (file: string, config = '{}'): Promise<{ status: number; body: string; ms: number }> =>
  query(`CALL apoc.export.json.all('${file}', ${config}) YIELD file RETURN file`);

beforeAll(async () => {
  server = await spawnGraphdb(['--http', '0', '--import-dir', dir, '--workers', '1']);
  expect((await query("CREATE (:P {name: 'Ann'})")).status).toBe(200);
}, 30_000);

afterAll(async () => {
  reader?.kill();
  await server?.stop();
});

describe('apoc.export.* file targets (HTTP, real binary)', () => {
  it('writes a new file inside the import directory', async () => {
    const r = await exportTo('fresh.json');
    expect(r.status).toBe(200);
    expect(readFileSync(join(dir, 'fresh.json'), 'utf8')).toContain('"Ann"');
    expect(await exportTo('sub/fresh.json')).toMatchObject({ status: 200 });
    expect(existsSync(join(dir, 'sub', 'fresh.json'))).toBe(true);
  });

  it('refuses a symbolic link as the target, leaving what it points to untouched', async () => {
    for (const config of ['{}', '{overwrite: true}']) {
      const r = await exportTo('link.json', config);
      expect(r.body).toMatch(/FILE_ACCESS_DENIED/);
      expect(r.body).toMatch(/symbolic link/);
    }
    expect(readFileSync(join(outside, 'victim.txt'), 'utf8')).toBe('precious\n');
  });

  it('refuses a symbolic link among the directories on the path', async () => {
    for (const config of ['{}', '{overwrite: true}']) {
      const r = await exportTo('linkdir/new.json', config);
      expect(r.body).toMatch(/FILE_ACCESS_DENIED/);
      expect(r.body).toMatch(/symbolic link/);
      const over = await exportTo('linkdir/victim.txt', config);
      expect(over.body).toMatch(/FILE_ACCESS_DENIED/);
    }
    expect(existsSync(join(outside, 'new.json'))).toBe(false);
    expect(readFileSync(join(outside, 'victim.txt'), 'utf8')).toBe('precious\n');
  });

  it('leaves an existing file alone unless the config says overwrite: true', async () => {
    const r = await exportTo('existing.json');
    expect(r.body).toMatch(/FILE_ACCESS_DENIED/);
    expect(r.body).toMatch(/the file exists; pass \{overwrite: true\}/);
    expect(readFileSync(join(dir, 'existing.json'), 'utf8')).toBe('keep me\n');
    expect((await exportTo('existing.json', '{overwrite: true}')).status).toBe(200);
    expect(readFileSync(join(dir, 'existing.json'), 'utf8')).toContain('"Ann"');
    const bad = await exportTo('existing.json', "{overwrite: 'yes'}");
    expect(bad.body).toMatch(/overwrite/);
  });

  it('refuses a FIFO at once, with or without a reader, and the worker stays free', async () => {
    for (const config of ['{}', '{overwrite: true}']) {
      const r = await exportTo('fifo.json', config);
      expect(r.body).toMatch(/FILE_ACCESS_DENIED/);
      expect(r.ms).toBeLessThan(5000);
    }
    // A reader holds the FIFO open: a blocking open would now succeed and the write would block.
    reader = spawn('sh', ['-c', `exec sleep 60 < "${join(dir, 'fifo-read.json')}"`], { stdio: 'ignore' });
    await new Promise((r) => setTimeout(r, 200));
    const withReader = await exportTo('fifo-read.json', '{overwrite: true}');
    expect(withReader.body).toMatch(/not a regular file/);
    expect(withReader.ms).toBeLessThan(5000);
    // The one query worker still answers, repeatedly.
    for (let i = 0; i < 3; i++) {
      const r = await query('MATCH (p:P) RETURN p.name AS name');
      expect(r.status).toBe(200);
      expect(r.body).toContain('Ann');
    }
  }, 30_000);

  it('refuses paths out of the import directory and the directory itself', async () => {
    expect((await exportTo('../escape.json')).body).toMatch(/outside the import directory/);
    expect((await exportTo('/')).body).toMatch(/outside the import directory|not a regular file/);
  });
});
