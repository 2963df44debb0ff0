/**
 * `EntityTable`: the graph's entity objects by id (its nodes, or its relationships), in
 * pages of 4096 slots, a page allocated when the first object is put in it. `length` is the
 * id bound (every id below it may hold an entity), so a bulk load sizes the table for
 * millions of entities, whose objects are made on first use (`Graph.nodeAt`), without a slot
 * per id: a packed array of `undefined` cost 8 bytes an id, 109 MB for the 13.6 M entities of
 * snb-200k, before any object existed. Once every page is in use it costs what the array did.
 */

const PAGE_BITS = 12;
const PAGE_SIZE = 1 << PAGE_BITS;
const PAGE_MASK = PAGE_SIZE - 1;

export class EntityTable<T> {
  private readonly pages: ((T | undefined)[] | undefined)[] = [];
  private bound = 0;

  /** A table whose ids below `length` are free, with no page allocated. */
  static sized<T>(length: number): EntityTable<T> {
    const table = new EntityTable<T>();
    table.bound = length;
    return table;
  }

  /** One past the largest id the table spans. */
  get length(): number {
    return this.bound;
  }

  get(id: number): T | undefined {
    const page = this.pages[id >>> PAGE_BITS];
    return page === undefined ? undefined : page[id & PAGE_MASK];
  }

  /** Puts `item` at `id` (or frees the slot with `undefined`), extending the bound past `id`. */
  set(id: number, item: T | undefined): void {
    if (id >= this.bound) this.bound = id + 1;
    let page = this.pages[id >>> PAGE_BITS];
    if (page === undefined) {
      if (item === undefined) return;
      while (this.pages.length < id >>> PAGE_BITS) this.pages.push(undefined);
      page = new Array<T | undefined>(PAGE_SIZE).fill(undefined);
      this.pages[id >>> PAGE_BITS] = page;
    }
    page[id & PAGE_MASK] = item;
  }

  /** Every object the table holds, in id order. */
  *objects(): Generator<T> {
    for (const page of this.pages) if (page !== undefined) for (const item of page) if (item !== undefined) yield item;
  }

  /** Each slot up to the bound, `undefined` where no object is held (for tests and small tables). */
  *[Symbol.iterator](): Generator<T | undefined> {
    for (let id = 0; id < this.bound; id++) yield this.get(id);
  }
}
