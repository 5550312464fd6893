export interface Entry<T> {
  value: T;
  expires: number;
}

export class Cache<T> {
  private entries = new Map<string, Entry<T>>();
  hits = 0;
  misses = 0;

  constructor(private ttlMs: number, private maxEntries = 1000) {}

  get(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) {
      this.misses++;
      return undefined;
    }
    if (entry.expires < Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    this.hits++;
    return entry.value;
  }

  set(key: string, value: T): void {
    if (!this.entries.has(key) && this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) {
        this.entries.delete(oldest);
      }
    }
    const expires = Date.now() + this.ttlMs;
    this.entries.set(key, { value, expires });
  }

  clear(): void {
    this.entries.clear();
  }
}
