import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHANGE_RETENTION_MS, ChangeCursor } from '../src/db/change-feed';

afterEach(() => vi.useRealTimers());

describe('change cursor', () => {
  it('stays current while reads find nothing new, whether or not they move it', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-11-01T00:00:00Z'));
    const cursor = new ChangeCursor('100');
    vi.advanceTimersByTime(CHANGE_RETENTION_MS / 3);
    expect(cursor.hasUnseen({ changes: [] })).toBe(false);
    vi.advanceTimersByTime(CHANGE_RETENTION_MS / 3);
    // two thirds of the retention since the cursor moved, but a third since it last found the log current
    expect(cursor.expired).toBe(false);
    vi.advanceTimersByTime(CHANGE_RETENTION_MS / 2);
    expect(cursor.expired).toBe(true);
  });

  it('does not count a read that finds unseen changes as current', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-11-01T00:00:00Z'));
    const cursor = new ChangeCursor('100');
    vi.advanceTimersByTime(CHANGE_RETENTION_MS / 3);
    expect(cursor.hasUnseen({ changes: [{ id: '1', xid: '101', keys: ['a'] }] })).toBe(true);
    vi.advanceTimersByTime(CHANGE_RETENTION_MS / 4);
    expect(cursor.expired).toBe(true);
  });
});
