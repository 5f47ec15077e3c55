/** The SQLSTATE the storage quota triggers raise (migration `org_usage`). */
const QUOTA_SQLSTATE = 'MLQ01';

/** A write the database refused as over its organization's storage quota. */
export interface QuotaRefusal {
  message: string;
  /** `rows` or `bytes` */
  resource: string;
  /** the organization's quota of that resource */
  quota: number;
  /** what the organization used before the refused statement */
  usage: number;
  /** what the refused statement would have added */
  requested: number;
  /** the table written to: `episodes`, `episode_segments` or `facts` */
  table: string;
}

/** The quota refusal an error carries (following wrapped errors), or null. */
export function quotaRefusalOf(err: unknown): QuotaRefusal | null {
  let e = err;
  for (let depth = 0; depth < 5 && e !== null && typeof e === 'object'; depth++) {
    const { code, detail } = e as { code?: unknown; detail?: unknown };
    if (code === QUOTA_SQLSTATE && typeof detail === 'string') {
      // the driver's message quotes the statement: the sentence is made from the trigger's details
      const d = JSON.parse(detail) as Omit<QuotaRefusal, 'message'>;
      const message = `over the organization's storage quota of ${d.quota} ${d.resource} (${d.usage} in use, ${d.requested} more asked)`;
      return { message, ...d };
    }
    const next = e as { originalError?: unknown; cause?: unknown; errors?: unknown[] };
    e = next.originalError ?? next.cause ?? next.errors?.[0];
  }
  return null;
}
