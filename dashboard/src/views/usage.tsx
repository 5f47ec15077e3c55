import { DashStorageUsageDocument } from '../generated/graphql';
import { useQuery } from '../hooks';
import { Status } from './status';

/** Bytes in binary units (the quotas are set in bytes; people read MiB and GiB). */
const bytes = (n: number): string => {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = n;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return u === 0 ? `${n} B` : `${v.toFixed(1)} ${units[u]}`;
};
const share = (used: number, quota: number | null | undefined): string =>
  quota == null ? 'no quota' : `${((100 * used) / Math.max(quota, 1)).toFixed(1)} % of ${quota.toLocaleString('en')}`;

/** What the organization stores against its storage quotas (`storageUsage`). */
export function StorageUsagePanel({ apiKey }: { apiKey: string }) {
  const q = useQuery(apiKey, DashStorageUsageDocument, {});
  const u = q.data?.storageUsage;
  return (
    <div data-testid="storage-usage">
      <h3>Storage and quotas</h3>
      <Status q={q} />
      {u && (
        <table>
          <thead>
            <tr>
              <th>records</th>
              <th>rows</th>
              <th>bytes</th>
            </tr>
          </thead>
          <tbody>
            {(
              [
                ['episodes', u.episodes],
                ['segments', u.segments],
                ['facts', u.facts],
                ['total', u.total],
              ] as const
            ).map(([name, a]) => (
              <tr key={name} data-usage={name} data-rows={a.rows} data-bytes={a.bytes}>
                <td>{name}</td>
                <td class="n">{a.rows.toLocaleString('en')}</td>
                <td class="n">{bytes(a.bytes)}</td>
              </tr>
            ))}
            <tr data-usage="quota" data-rows={u.quotaRows ?? ''} data-bytes={u.quotaBytes ?? ''}>
              <td>used of the quota</td>
              <td class="n">{share(u.total.rows, u.quotaRows)}</td>
              <td class="n">{share(u.total.bytes, u.quotaBytes)} bytes</td>
            </tr>
          </tbody>
        </table>
      )}
    </div>
  );
}
