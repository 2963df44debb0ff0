/**
 * Errors of the command line itself (as opposed to query errors, which are GraphDbErrors
 * from src/errors.ts): a wrong or not-yet-available option. They exit with status 2, the
 * usual status for a usage error; a failed query exits with 1.
 */

export const EXIT_OK = 0;
export const EXIT_QUERY_FAILED = 1;
export const EXIT_USAGE = 2;

export class CliUsageError extends Error {
  readonly exitCode = EXIT_USAGE;
  constructor(message: string) {
    super(message);
    this.name = 'CliUsageError';
  }
}
