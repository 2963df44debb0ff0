/**
 * `Interner`: maps names (labels, relationship types, property keys) to small dense integer
 * ids and back. Ids are handed out in first-seen order and stay fixed for the life of the
 * process — `Graph.clear()` keeps them — so compiled plans may embed them as constants.
 * Also `LabelListInterner`, the same for whole label lists.
 */

export class Interner {
  private readonly byName = new Map<string, number>();
  private readonly names: string[] = [];

  /** The id of `name`, or undefined when it was never interned. */
  get(name: string): number | undefined {
    return this.byName.get(name);
  }

  /** The id of `name`, interning it when new. */
  intern(name: string): number {
    let id = this.byName.get(name);
    if (id === undefined) {
      id = this.names.length;
      this.names.push(name);
      this.byName.set(name, id);
    }
    return id;
  }

  /** The name of an id; undefined for an id never handed out. */
  name(id: number): string | undefined {
    return this.names[id];
  }

  get size(): number {
    return this.names.length;
  }

  /** Every name, by id (read-only: the interner's own list). */
  get all(): readonly string[] {
    return this.names;
  }
}

/**
 * Distinct label lists, by content, each with a dense index: how bulk loads key a node's
 * labels (one shared list per distinct combination).
 */
export class LabelListInterner {
  readonly lists: string[][] = [];
  private readonly byText = new Map<string, number>();

  /** The index of a list equal to `labels`, adding a copy of it when new. */
  intern(labels: readonly string[]): number {
    const text = JSON.stringify(labels);
    let at = this.byText.get(text);
    if (at === undefined) {
      at = this.lists.length;
      this.lists.push([...labels]);
      this.byText.set(text, at);
    }
    return at;
  }
}
