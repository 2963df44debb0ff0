/**
 * EXPLAIN and PROFILE answers, which come back as one `plan` cell of text (an operator per
 * line, children drawn with `└─`/`├─` under their parent, PROFILE adding `[rows: n]` and a
 * closing summary line), turned into a tree the plan view can draw.
 */

export interface PlanNode {
  operator: string;
  detail: string;
  rows?: number;
  children: PlanNode[];
}

export interface Plan {
  root: PlanNode;
  /** PROFILE's closing line (rows and time), if any. */
  footer: string[];
}

const BRANCH = /^([\s│]*)(?:└─|├─)\s?(.*)$/u;

function node(text: string): PlanNode {
  const rowsMatch = /\s*\[rows: (\d+)\]\s*$/.exec(text);
  const body = rowsMatch ? text.slice(0, rowsMatch.index) : text;
  const space = body.indexOf(' ');
  return {
    operator: space < 0 ? body : body.slice(0, space),
    detail: space < 0 ? '' : body.slice(space + 1).trim(),
    rows: rowsMatch ? Number(rowsMatch[1]) : undefined,
    children: [],
  };
}

/** True when `query` asks for a plan. */
export function asksForPlan(query: string): boolean {
  return /^\s*(EXPLAIN|PROFILE)\b/i.test(query.replace(/^\s*(\/\/[^\n]*\n|\/\*[\s\S]*?\*\/)*/, ''));
}

/** The plan in `text`, or undefined when it is not one. */
export function parsePlan(text: string): Plan | undefined {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  if (lines.length === 0 || BRANCH.test(lines[0])) return undefined;
  const root = node(lines[0].trim());
  // Each open node by the column its operator text starts at.
  const stack: { col: number; node: PlanNode }[] = [{ col: 0, node: root }];
  const footer: string[] = [];
  for (const line of lines.slice(1)) {
    const m = BRANCH.exec(line);
    if (!m || footer.length > 0) {
      footer.push(line.trim());
      continue;
    }
    const col = [...m[1]].length + 3;
    while (stack.length > 1 && stack[stack.length - 1].col >= col) stack.pop();
    const child = node(m[2].trim());
    stack[stack.length - 1].node.children.push(child);
    stack.push({ col, node: child });
  }
  return { root, footer };
}

/** `query` without its EXPLAIN or PROFILE word: the query whose code the plan describes. */
export function withoutPlanWord(query: string): string {
  return query.replace(/^(\s*(\/\/[^\n]*\n|\/\*[\s\S]*?\*\/))*\s*(EXPLAIN|PROFILE)\b/i, '').trim();
}
