/**
 * Rewrite rule: a label scan or an index seek on a label guarantees that label, so the
 * node's pending label check loses it (and disappears when no label is left).
 */

import type { PendingPredicate } from '../context.js';

/** A label scan guarantees its label: remove that label from the slot's pending label checks. */
export function dropScannedLabel(pending: PendingPredicate[], slot: string, label: string): void {
for (let i = pending.length - 1; i >= 0; i--) {
  const p = pending[i].pred;
  if (p.kind !== 'hasLabels' || p.slot !== slot) continue;
  const rest = p.labels.filter((l) => l !== label);
  if (rest.length === 0) pending.splice(i, 1);
  else pending[i] = { pred: { ...p, labels: rest }, needs: pending[i].needs };
}
}