/** How many slots may be held at once: in the whole run, and in each named pool. */
export interface SlotLimits {
  /** Slots of the whole run. */
  total: number;
  /** Slots of each pool key; a key not listed here is bounded by `total` alone. */
  keys?: Readonly<Record<string, number>>;
}

interface Entry {
  keys: readonly string[];
  held: boolean;
}

/**
 * Who holds a slot and who waits for one, and who gets the next. A request is granted when the run
 * has a free slot and every pool it names does; among those that can be granted, the one that asked
 * first goes first. A request held back by its own pool's limit does not hold back the requests
 * behind it that name other pools, or none.
 */
export class SlotQueue<T> {
  // A Map iterates in insertion order: the order in which the requests came.
  private readonly entries = new Map<T, Entry>();
  private readonly heldByKey = new Map<string, number>();
  private heldTotal = 0;

  constructor(private readonly limits: SlotLimits) {
    assertLimit('total', limits.total);
    for (const [key, limit] of Object.entries(limits.keys ?? {})) assertLimit(`key "${key}"`, limit);
  }

  /** Slots held now. */
  get held(): number {
    return this.heldTotal;
  }

  /** Requests waiting now. */
  get waiting(): number {
    return this.entries.size - this.heldTotal;
  }

  /** Slots of `key` held now. */
  heldIn(key: string): number {
    return this.heldByKey.get(key) ?? 0;
  }

  /** Queues a request of `holder`; call `grant` to learn whether it got its slot. */
  request(holder: T, keys: readonly string[] = []): void {
    if (this.entries.has(holder)) throw new Error('a holder can ask for one slot at a time');
    this.entries.set(holder, { keys, held: false });
  }

  /** Whether `holder` holds or waits for a slot. */
  has(holder: T): boolean {
    return this.entries.has(holder);
  }

  /** Forgets `holder`, which waited or held a slot: a held slot is free again. */
  remove(holder: T): void {
    const entry = this.entries.get(holder);
    if (!entry) return;
    this.entries.delete(holder);
    if (!entry.held) return;
    this.heldTotal--;
    for (const key of entry.keys) this.heldByKey.set(key, this.heldIn(key) - 1);
  }

  /** Grants every request that can be granted now, first come first served; returns their holders. */
  grant(): T[] {
    const granted: T[] = [];
    for (const [holder, entry] of this.entries) {
      if (this.heldTotal >= this.limits.total) break;
      if (entry.held || !entry.keys.every((key) => this.heldIn(key) < this.limitOf(key))) continue;
      entry.held = true;
      this.heldTotal++;
      for (const key of entry.keys) this.heldByKey.set(key, this.heldIn(key) + 1);
      granted.push(holder);
    }
    return granted;
  }

  private limitOf(key: string): number {
    return this.limits.keys?.[key] ?? Number.POSITIVE_INFINITY;
  }
}

function assertLimit(name: string, limit: number): void {
  if (!Number.isSafeInteger(limit) || limit < 1)
    throw new RangeError(`slot limit of ${name} must be a positive integer`);
}
