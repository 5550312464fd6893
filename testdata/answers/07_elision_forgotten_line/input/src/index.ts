import { Cache } from "./cache";

export const sessions = new Cache<string>(60_000);
