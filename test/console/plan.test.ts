/**
 * The console's reading of EXPLAIN/PROFILE text into a tree (console/src/plan.ts), against
 * plans the real engine writes, so a change in their layout shows here.
 */

import { describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { asksForPlan, type PlanNode, parsePlan, withoutPlanWord } from '../../console/src/plan.js';

function shape(n: PlanNode): unknown {
  return [n.operator, n.rows, n.children.map(shape)];
}

describe('plan text as a tree', () => {
  it('reads a PROFILE plan with rows per operator and its closing line', async () => {
    const db = new Database();
    await db.execute("CREATE (:City {name: 'a'})-[:R]->(:City {name: 'b'})");
    const result = await db.execute('PROFILE MATCH (c:City)-[:R]->(d) RETURN count(*) AS n');
    const plan = parsePlan(String(result.records[0][0]))!;
    expect(plan.root.operator).toBe('ProduceResults');
    expect(plan.root.rows).toBe(1);
    const names: string[] = [];
    const walk = (n: PlanNode): void => {
      names.push(n.operator);
      n.children.forEach(walk);
    };
    walk(plan.root);
    expect(names).toContain('NodeByLabelScan');
    expect(plan.footer.join(' ')).toMatch(/result rows in/);
  });

  it('keeps siblings apart from children', () => {
    const text = ['Root x', '├─ Left a  [rows: 2]', '│  └─ Leaf b  [rows: 1]', '└─ Right c  [rows: 3]', 'done in 1 ms'].join('\n');
    expect(shape(parsePlan(text)!.root)).toEqual(['Root', undefined, [['Left', 2, [['Leaf', 1, []]]], ['Right', 3, []]]]);
    expect(parsePlan(text)!.footer).toEqual(['done in 1 ms']);
  });

  it('tells plan queries from others', () => {
    expect(asksForPlan('  explain MATCH (n) RETURN n')).toBe(true);
    expect(asksForPlan('// why\nPROFILE RETURN 1')).toBe(true);
    expect(asksForPlan('MATCH (n) RETURN n')).toBe(false);
    expect(withoutPlanWord('// why\n profile MATCH (n) RETURN n')).toBe('MATCH (n) RETURN n');
  });
});
