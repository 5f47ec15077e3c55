import { useState } from 'preact/hooks';
import { request } from '../api';
import { num } from '../format';
import { DashFactBanksDocument, DashRecallDocument, type DashRecallQuery, type RecallStrategy } from '../generated/graphql';
import { useQuery } from '../hooks';
import type { ViewProps } from '../access';
import { Status } from './status';

type Result = { boost: boolean; weight: number; rows: DashRecallQuery['recall'] };

let kept = { bankId: '', query: '', boost: true, weight: '0.3', strategy: '' as '' | RecallStrategy, limit: '10' };

/** Recall playground: run recall on a bank and see each result's score taken apart. */
export function RecallView({ apiKey }: ViewProps) {
  const banks = useQuery(apiKey, DashFactBanksDocument, {});
  const [form, setForm] = useState(kept);
  kept = form;
  const [result, setResult] = useState<Result | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const bankId = form.bankId || banks.data?.factBanks[0]?.bankId || '';
  const set = (k: keyof typeof form) => (e: Event) => {
    const el = e.currentTarget as HTMLInputElement;
    setForm({ ...form, [k]: el.type === 'checkbox' ? el.checked : el.value });
  };
  const run = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const weight = Number(form.weight);
      const { recall } = await request(apiKey, DashRecallDocument, {
        input: {
          bankId,
          query: form.query,
          boostByUsefulness: form.boost,
          usefulnessWeight: weight,
          limit: Number(form.limit),
          strategy: form.strategy || undefined,
        },
      });
      setResult({ boost: form.boost, weight, rows: recall });
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section data-testid="recall-playground">
      <h2>Recall playground</h2>
      <p class="hint">
        Runs recall as an agent would and takes each score apart: relevance (semantic, lexical, or both fused) and, when boosting, the
        usefulness learned from signals; final = (1 − weight) × relevance + weight × usefulness.
      </p>
      <Status q={banks} />
      <form class="filters" onSubmit={(e) => void run(e)} data-testid="recall-form">
        <select name="bankId" onChange={set('bankId')} title="bank">
          {(banks.data?.factBanks ?? []).map((b) => (
            <option value={b.bankId} selected={b.bankId === bankId}>
              {b.bankId} ({b.facts.toLocaleString('en')})
            </option>
          ))}
        </select>
        <input name="query" value={form.query} onInput={set('query')} placeholder="query" size={40} />
        <select name="strategy" onChange={set('strategy')} title="strategy">
          <option value="">default strategy</option>
          {(['HYBRID', 'SEMANTIC', 'LEXICAL'] as const).map((s) => (
            <option value={s} selected={form.strategy === s}>
              {s}
            </option>
          ))}
        </select>
        <label>
          <input name="boost" type="checkbox" checked={form.boost} onChange={set('boost')} /> boost by usefulness
        </label>
        <label>
          weight <input name="weight" value={form.weight} onInput={set('weight')} type="number" step="0.05" style="width: 5em" />
        </label>
        <label>
          results <input name="limit" value={form.limit} onInput={set('limit')} type="number" style="width: 4em" />
        </label>
        <button type="submit" disabled={busy || !bankId}>
          Recall
        </button>
      </form>
      {error && (
        <p class="error" role="alert" data-testid="recall-error">
          {error}
        </p>
      )}
      {result && result.rows.length === 0 && <p class="empty">Nothing recalled.</p>}
      {result && result.rows.length > 0 && (
        <table data-testid="recall-results">
          <thead>
            <tr>
              <th>#</th>
              <th>fact</th>
              <th>strategy</th>
              <th>semantic</th>
              <th>lexical</th>
              <th>relevance</th>
              <th>usefulness</th>
              <th>from</th>
              <th>final</th>
              <th>how</th>
            </tr>
          </thead>
          <tbody>
            {result.rows.map((r, i) => (
              <tr key={r.fact.id} data-fact-id={r.fact.id}>
                <td class="n">{i + 1}</td>
                <td class="text">
                  <a href={`#/facts/${r.fact.id}`}>{r.fact.text}</a>
                </td>
                <td>{r.strategyUsed}</td>
                <td class="n" data-field="semanticScore">
                  {num(r.semanticScore, 4)}
                </td>
                <td class="n" data-field="lexicalScore">
                  {num(r.lexicalScore, 4)}
                </td>
                <td class="n" data-field="relevance">
                  {num(r.relevance, 4)}
                </td>
                <td class="n" data-field="usefulnessScore">
                  {num(r.usefulnessScore, 4)}
                </td>
                <td data-field="usefulnessSource">{r.usefulnessSource === 'QUERY_CONTEXT' ? 'query context' : 'global'}</td>
                <td class="n" data-field="finalScore">
                  <strong>{num(r.finalScore, 4)}</strong>
                </td>
                <td class="hint">
                  {result.boost
                    ? `${num(1 - result.weight)} × ${num(r.relevance, 3)} + ${num(result.weight)} × ${num(r.usefulnessScore, 3)}`
                    : 'relevance alone'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
