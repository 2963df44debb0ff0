/**
 * `Interner`: maps names (labels, relationship types, property keys) to small dense integer
 * ids and back. Ids are handed out in first-seen order and stay fixed for the life of the
 * process — `Graph.clear()` keeps them — so compiled plans may embed them as constants.
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
}
