// The API key lives in sessionStorage only: gone when the tab closes, never in a URL or a log.
const KEY = 'memory-loop.apiKey';

export const readKey = (): string | null => sessionStorage.getItem(KEY);
export const storeKey = (key: string): void => sessionStorage.setItem(KEY, key);
export const forgetKey = (): void => sessionStorage.removeItem(KEY);
export const bearer = (key: string): string => `Bearer ${key}`;
