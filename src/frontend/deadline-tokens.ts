/**
 * The parser's token stream, with the query deadline in it. ANTLR's adaptive prediction
 * can look far ahead on long, regular input (a chain of thousands of hops, a list of
 * thousands of labels), so parsing such text is slow; every 64 lookaheads the active
 * query's deadline (runtime/governor.ts) is checked, so compiling stops at the time limit
 * like running does.
 */

import { CommonTokenStream } from 'antlr4ng';
import { checkActiveDeadline } from '../../runtime/governor.js';

export class DeadlineTokenStream extends CommonTokenStream {
  private lookaheads = 0;

  override LA(k: number): number {
    if ((++this.lookaheads & 63) === 0) checkActiveDeadline();
    return super.LA(k);
  }
}
