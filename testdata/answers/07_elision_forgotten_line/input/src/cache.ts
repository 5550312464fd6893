export interface Entry<T> {
  value: T;
  expires: number;
}

export class Cache<T> {
  private entries = new Map<string, Entry<T>>();

  constructor(private ttlMs: number) {}

  get(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) {
      return undefined;
    }
    if (entry.expires < Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: T): void {
    const expires = Date.now() + this.ttlMs;
    this.entries.set(key, { value, expires });
  }

  clear(): void {
    this.entries.clear();
  }
}
