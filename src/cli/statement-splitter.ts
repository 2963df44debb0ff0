/**
 * Splits query text typed line by line into statements ended by `;`. Owns the small lexer
 * that knows where a `;` does not end a statement: inside quoted strings ('…', "…", with
 * backslash escapes), backtick-quoted names and comments (`// …` to the end of the line,
 * `/* … *\/`). The state carries over between lines, so a string or comment may span lines.
 * Used by the REPL and by the playground loader.
 */

type LexState = 'code' | 'single' | 'double' | 'backtick' | 'lineComment' | 'blockComment';

export class StatementSplitter {
  private buffer = '';
  private state: LexState = 'code';
  /** The character after a backslash inside a string is taken literally. */
  private escaped = false;

  /**
   * Adds one line (without its line break) and returns the statements it completed, each
   * without its `;` and trimmed; empty statements (a lone `;`, only comments) are dropped.
   */
  feedLine(line: string): string[] {
    if (this.state === 'lineComment') this.state = 'code';
    const done: string[] = [];
    let start = 0;
    for (let i = 0; i < line.length; i++) {
      const ch = line[i];
      const next = line[i + 1];
      switch (this.state) {
        case 'code':
          if (ch === "'") this.state = 'single';
          else if (ch === '"') this.state = 'double';
          else if (ch === '`') this.state = 'backtick';
          else if (ch === '/' && next === '/') {
            this.state = 'lineComment';
            i++;
          } else if (ch === '/' && next === '*') {
            this.state = 'blockComment';
            i++;
          } else if (ch === ';') {
            const statement = (this.buffer + line.slice(start, i)).trim();
            this.buffer = '';
            start = i + 1;
            if (statement !== '' && !isOnlyComments(statement)) done.push(statement);
          }
          break;
        case 'single':
        case 'double':
          if (this.escaped) this.escaped = false;
          else if (ch === '\\') this.escaped = true;
          else if (ch === (this.state === 'single' ? "'" : '"')) this.state = 'code';
          break;
        case 'backtick':
          if (ch === '`') this.state = 'code';
          break;
        case 'lineComment':
          i = line.length;
          break;
        case 'blockComment':
          if (ch === '*' && next === '/') {
            this.state = 'code';
            i++;
          }
          break;
      }
    }
    const rest = line.slice(start);
    if (this.buffer !== '' || rest.trim() !== '') this.buffer += rest + '\n';
    return done;
  }

  /** True when nothing but white space and finished comments is waiting for a `;`. */
  isEmpty(): boolean {
    return this.state !== 'blockComment' && isOnlyComments(this.buffer);
  }

  /**
   * What the text so far is still inside of, as the character that would close it (`'`,
   * `"`, `` ` ``, or `*` for a block comment); empty when in plain query text. The REPL shows
   * it in its continuation prompt.
   */
  openedBy(): string {
    switch (this.state) {
      case 'single':
        return "'";
      case 'double':
        return '"';
      case 'backtick':
        return '`';
      case 'blockComment':
        return '*';
      default:
        return '';
    }
  }

  /** Text typed since the last complete statement (may be only a comment). */
  pending(): string {
    return this.buffer.trim();
  }

  /** Forgets the unfinished statement (Ctrl-C in the REPL). */
  reset(): void {
    this.buffer = '';
    this.state = 'code';
    this.escaped = false;
  }
}

/** Splits a whole script into statements; a final statement without `;` is included. */
export function splitScript(text: string): string[] {
  const splitter = new StatementSplitter();
  const statements: string[] = [];
  for (const line of text.split(/\r?\n/)) statements.push(...splitter.feedLine(line));
  const tail = splitter.pending();
  if (tail !== '' && !isOnlyComments(tail)) statements.push(tail);
  return statements;
}

/** True when the text holds nothing but comments and white space. */
export function isOnlyComments(text: string): boolean {
  return text.replace(/\/\*[\s\S]*?(\*\/|$)/g, '').replace(/\/\/[^\n]*/g, '').trim() === '';
}
