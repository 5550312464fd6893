import { Cache } from "./cache";

export const cacheStats = () => ({ hits: sessions.hits, misses: sessions.misses });

export const sessions = new Cache<string>(60_000, 10_000);
