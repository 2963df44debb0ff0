/**
 * `graphdb restore --from s3://bucket/prefix --to <dir> [--until-seq N]`: rebuilds a data
 * directory from the WAL archive (archive.ts), to a point in time given as a mutation
 * sequence, and prints what it restored as one JSON line.
 */

import type { Command } from 'commander';
import { CliUsageError, EXIT_OK } from '../cli/cli-error.js';
import { type CliIo, writeLine } from '../cli/io.js';

export function registerRestoreCommand(program: Command, io: CliIo, setStatus: (status: number) => void): void {
  program
    .command('restore')
    .description('rebuild a data directory from the WAL archive in object storage (point in time with --until-seq)')
    .requiredOption('--from <url>', 's3://bucket/prefix, as given to --wal-archive')
    .requiredOption('--to <dir>', 'the new data directory (must not hold a graph)')
    .option('--until-seq <n>', 'stop at this mutation sequence (default: everything archived)')
    .option('--endpoint <url>', 'an S3-compatible endpoint (path-style)')
    .option('--region <region>', 'region (default: AWS_REGION, else us-east-1)')
    .action(async (o: { from: string; to: string; untilSeq?: string; endpoint?: string; region?: string }) => {
      if (o.untilSeq !== undefined && !/^\d{1,15}$/.test(o.untilSeq)) throw new CliUsageError('--until-seq needs a mutation sequence (a non-negative integer)');
      const { parseArchiveUrl, restoreFromArchive } = await import('./archive.js');
      let target;
      try {
        target = parseArchiveUrl(o.from, o.endpoint, o.region);
      } catch (err) {
        throw new CliUsageError(`--from: ${err instanceof Error ? err.message : String(err)}`);
      }
      const result = await restoreFromArchive(target, o.to, o.untilSeq === undefined ? undefined : Number(o.untilSeq));
      writeLine(io.stdout, JSON.stringify({ restored: o.to, ...result }));
      setStatus(EXIT_OK);
    });
}
