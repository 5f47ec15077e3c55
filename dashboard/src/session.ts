// The API key lives in sessionStorage only: gone when the tab closes, never in a URL or a log.
const KEY = 'memory-loop.apiKey';
// who the key belongs to (organization and role, nothing secret), so a reload draws at once and checks the key meanwhile
const VIEWER = 'memory-loop.viewer';

export const readKey = (): string | null => sessionStorage.getItem(KEY);
export const storeKey = (key: string): void => {
  sessionStorage.setItem(KEY, key);
  sessionStorage.removeItem(VIEWER); // it described the previous key
};
export const forgetKey = (): void => {
  sessionStorage.removeItem(KEY);
  sessionStorage.removeItem(VIEWER);
};
export function readViewer<T>(): T | null {
  try {
    return JSON.parse(sessionStorage.getItem(VIEWER) ?? 'null') as T | null;
  } catch {
    return null;
  }
}
export const storeViewer = (viewer: unknown): void => sessionStorage.setItem(VIEWER, JSON.stringify(viewer));
export const bearer = (key: string): string => `Bearer ${key}`;
