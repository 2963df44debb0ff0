/**
 * The REPL's meta-commands (`:help`, `:quit`, `:stats`, `:plan`, …): one table of
 * commands, each with its name, aliases, usage and handler. A new command (`:restore
 * <file>`, `:export <file>`) is one more entry, or a `registerMetaCommand` call from
 * another module; `:help` lists whatever is registered.
 */

import type { Database } from '../engine/database.js';
import { parseParam } from './params.js';

/** What a meta-command may use: the database, the session's parameters and the output. */
export interface MetaContext {
  readonly db: Database;
  /** Parameters `:param` sets; every query of the session receives them. */
  readonly params: Map<string, unknown>;
  print(text: string): void;
  printError(text: string): void;
  clearScreen(): void;
}

/** `exit` ends the REPL; anything else continues it. */
export type MetaOutcome = 'exit' | 'continue';

export interface MetaCommand {
  name: string;
  aliases?: string[];
  /** Argument synopsis shown by :help, e.g. `<query>`. */
  args?: string;
  summary: string;
  run(ctx: MetaContext, arg: string): MetaOutcome | Promise<MetaOutcome>;
}

/** A query given to `:plan`/`:js` may end with the `;` a statement would have. */
function queryArg(arg: string): string {
  return arg.trim().replace(/;\s*$/, '');
}

function requireArg(ctx: MetaContext, arg: string, usage: string): string | undefined {
  const value = queryArg(arg);
  if (value === '') ctx.printError(`Usage: ${usage}`);
  return value === '' ? undefined : value;
}

const registry: MetaCommand[] = [
  {
    name: 'help',
    aliases: ['h', '?'],
    summary: 'show this help',
    run(ctx) {
      ctx.print(helpText());
      return 'continue';
    },
  },
  {
    name: 'quit',
    aliases: ['exit', 'q'],
    summary: 'leave graphdb (Ctrl-D does too)',
    run: () => 'exit',
  },
  {
    name: 'stats',
    summary: 'count nodes, relationships, labels, types and property keys; show memory and the fingerprint',
    run(ctx) {
      const s = ctx.db.stats();
      const rows: [string, number][] = [
        ['Nodes', s.nodes],
        ['Relationships', s.relationships],
        ['Labels', s.labels],
        ['Relationship types', s.relationshipTypes],
        ['Property keys', s.propertyKeys],
      ];
      const mib = (bytes: number): string => `${(bytes / 1048576).toFixed(1)} MiB`;
      const memory: [string, string][] = [
        ['Store memory', `${mib(s.memory.storeBytes)} (properties ${mib(s.memory.propertyBytes)}, estimated)`],
        ['Process heap', mib(s.memory.heapUsedBytes)],
        ['Process RSS', mib(s.memory.rssBytes)],
      ];
      // The fingerprint lets a user (and the browser build's tests) compare this graph with an exported or synced copy.
      const fingerprint: [string, string][] = [['Fingerprint', ctx.db.fingerprint()]];
      ctx.print([...rows, ...memory, ...fingerprint].map(([name, n]) => `${(name + ':').padEnd(20)}${n}`).join('\n'));
      return 'continue';
    },
  },
  {
    name: 'plan',
    aliases: ['explain'],
    args: '<query>',
    summary: 'show the optimised plan of a query without running it',
    run(ctx, arg) {
      const query = requireArg(ctx, arg, ':plan <query>');
      if (query !== undefined) ctx.print(ctx.db.explain(query));
      return 'continue';
    },
  },
  {
    name: 'js',
    args: '<query>',
    summary: 'show the JavaScript a query compiles to, without running it',
    run(ctx, arg) {
      const query = requireArg(ctx, arg, ':js <query>');
      if (query !== undefined) ctx.print(ctx.db.generatedSource(query));
      return 'continue';
    },
  },
  {
    name: 'param',
    args: '<name>=<value>',
    summary: 'set a query parameter for this session (value as JSON, or a plain string)',
    run(ctx, arg) {
      const text = arg.trim();
      if (text === '') {
        ctx.printError('Usage: :param <name>=<value>   e.g. :param name="Ann"   (:params lists them)');
        return 'continue';
      }
      const [name, value] = parseParam(text);
      ctx.params.set(name, value);
      ctx.print(`$${name} = ${JSON.stringify(value)}`);
      return 'continue';
    },
  },
  {
    name: 'params',
    args: '[clear]',
    summary: 'list the session parameters, or clear them',
    run(ctx, arg) {
      if (arg.trim() === 'clear') {
        ctx.params.clear();
        ctx.print('Parameters cleared.');
      } else if (ctx.params.size === 0) {
        ctx.print('No parameters set (use :param <name>=<value>).');
      } else {
        for (const [name, value] of ctx.params) ctx.print(`$${name} = ${JSON.stringify(value)}`);
      }
      return 'continue';
    },
  },
  {
    name: 'clear',
    summary: 'clear the screen',
    run(ctx) {
      ctx.clearScreen();
      return 'continue';
    },
  },
];

/** Adds a command (later work: `:restore`, `:export`); a name already taken is an error. */
export function registerMetaCommand(command: MetaCommand): void {
  for (const name of [command.name, ...(command.aliases ?? [])]) {
    if (findMetaCommand(name)) throw new Error(`Meta-command :${name} is already registered`);
  }
  registry.push(command);
}

export function findMetaCommand(name: string): MetaCommand | undefined {
  const wanted = name.toLowerCase();
  return registry.find((c) => c.name === wanted || (c.aliases ?? []).includes(wanted));
}

export function metaCommands(): readonly MetaCommand[] {
  return registry;
}

export function helpText(): string {
  const rows = registry.map((c) => {
    const left = `:${c.name}${c.args ? ' ' + c.args : ''}`;
    const aliases = c.aliases?.length ? ` (also ${c.aliases.map((a) => ':' + a).join(', ')})` : '';
    return [left, c.summary + aliases] as const;
  });
  const width = Math.max(...rows.map(([left]) => left.length));
  return [
    'Type a query and end it with ; to run it; it may span several lines.',
    'Ctrl-C abandons the statement being typed; Ctrl-D or :quit leaves.',
    '',
    'Commands (no ; needed):',
    ...rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`),
  ].join('\n');
}

/**
 * Runs a `:command args` line. Errors the command throws are the caller's to show; an
 * unknown command is reported here.
 */
export async function runMetaCommand(line: string, ctx: MetaContext): Promise<MetaOutcome> {
  const match = /^:(\S*)\s*([\s\S]*)$/.exec(line.trim());
  const name = match?.[1] ?? '';
  const command = findMetaCommand(name);
  if (!command) {
    ctx.printError(`Unknown command :${name}. Type :help for the list of commands.`);
    return 'continue';
  }
  return command.run(ctx, match?.[2] ?? '');
}
