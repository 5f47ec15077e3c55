export const num = (v: number | null | undefined, digits = 2): string => (v == null ? '–' : v.toFixed(digits));
export const pct = (v: number | null | undefined): string => (v == null ? '–' : `${(v * 100).toFixed(0)} %`);
export const when = (iso: string | null | undefined): string => (iso ? new Date(iso).toISOString().replace('T', ' ').slice(0, 19) : '–');
export const yesNo = (v: boolean | null | undefined): string => (v == null ? '–' : v ? 'yes' : 'no');
export const json = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v, null, 2));
/** the `timeRange` values the views offer, with their labels */
export const TIME_RANGES: [string, string][] = [
  ['1d', 'last day'],
  ['7d', 'last 7 days'],
  ['30d', 'last 30 days'],
  ['90d', 'last 90 days'],
];
