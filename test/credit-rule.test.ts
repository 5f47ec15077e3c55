import { describe, expect, it } from 'vitest';
import { questionBank } from '../bench/learning-curve';
import { curveSvg, learningTable, type CurveResult } from '../bench/learning-svg';
import { applySignal, signalDelta, type SignalKind } from '../src/modules/facts/usefulness';
import { CREDIT_DEFAULTS, creditSignals } from '../src/modules/traces';

const EP = '00000000-0000-4000-8000-0000000000e1';
const FB = '00000000-0000-4000-8000-0000000000f1';
const fact = (n: number, used: boolean, served = true) => ({
  fact_id: `00000000-0000-4000-8000-00000000000${n}`,
  used,
  trace_id: served ? '00000000-0000-4000-8000-0000000000a1' : null,
  query: served ? 'which tea is green' : null,
  query_embedding: null,
});
/** A fact's score after its signals, from neutral, all at once (no decay between them). */
const after = (signals: { signalType: string; confidence: number }[]) =>
  signals.reduce((s, x) => applySignal(s, 0, signalDelta(x.signalType as SignalKind, x.confidence)), 0.5);

describe('the credit rule with the default settings', () => {
  it('pushes a used fact of a bad episode below where it was, and a fact served beside it down less', () => {
    for (const score of [-1, -0.5]) {
      const usage = creditSignals(CREDIT_DEFAULTS, { kind: 'USAGE', episodeId: EP, feedbackId: null, score: null }, 'task', [
        fact(1, true),
        fact(2, false),
      ]);
      const verdict = creditSignals(CREDIT_DEFAULTS, { kind: 'FEEDBACK', episodeId: EP, feedbackId: FB, score }, 'task', [
        fact(1, true),
        fact(2, false),
      ]);
      const of = (n: number) => [...usage, ...verdict].filter((s) => s.factId === fact(n, true).fact_id);
      // the repeat of USED at the verdict carries the same key: written once
      expect(new Set(of(1).map((s) => s.credit!.creditKey)).size).toBe(2);
      const chosen = after(of(1).filter((s, i, all) => all.findIndex((t) => t.credit!.creditKey === s.credit!.creditKey) === i));
      const beside = after(of(2));
      expect(chosen).toBeLessThan(0.5);
      expect(beside).toBeLessThan(0.5);
      expect(0.5 - beside).toBeLessThan(0.5 - chosen);
    }
  });

  it('lifts a used fact of a good episode; a used fact no traced recall served is credited in the context of the task', () => {
    const s = creditSignals(CREDIT_DEFAULTS, { kind: 'VERDICT', episodeId: EP, feedbackId: FB, score: 1 }, 'the task', [
      fact(1, true),
      fact(3, true, false),
    ]);
    expect(s.map((x) => [x.signalType, x.query, x.credit!.source])).toEqual([
      ['USED', 'which tea is green', 'USAGE'],
      ['HELPFUL', 'which tea is green', 'VERDICT'],
      ['HELPFUL', 'the task', 'VERDICT'],
    ]);
    expect(after(s.slice(0, 2))).toBeGreaterThan(0.5);
  });

  it('gives nothing when off, and credits at most maxFactsPerEvent facts, used ones first', () => {
    const planned = [fact(1, true), fact(2, true), fact(3, false), fact(4, false)];
    const event = { kind: 'FEEDBACK' as const, episodeId: EP, feedbackId: FB, score: -1 };
    expect(creditSignals({ ...CREDIT_DEFAULTS, enabled: false }, event, 'task', planned)).toEqual([]);
    const bounded = creditSignals({ ...CREDIT_DEFAULTS, maxFactsPerEvent: 2 }, event, 'task', planned);
    expect(new Set(bounded.map((x) => x.factId))).toEqual(new Set([fact(1, true).fact_id, fact(2, true).fact_id]));
  });
});

describe('the learning-curve benchmark', () => {
  it('asks questions whose wrong facts have the same words as the right one', () => {
    for (let i = 0; i < 8; i++) {
      const b = questionBank(i);
      const words = (t: string) => t.replace(/[.]/g, '').split(' ').slice(0, -1).join(' ');
      expect(b.facts.length).toBe((i % 4) + 2);
      for (const [k, f] of b.facts.entries()) if (k !== b.right) expect(words(f)).toBe(words(b.facts[b.right].replace(' indeed', '')));
    }
  });

  it('draws the same curve for the same result, and tabulates it', () => {
    const t = { p50: 1, statementsPerRequest: 1, cpuMsPerRequest: 1 };
    const r: CurveResult = {
      questions: 4,
      rounds: 2,
      usefulnessWeight: 0.3,
      creditOn: [0.25, 0.5, 1],
      creditOff: [0.25, 0.25, 0.25],
      roundsTo90: 2,
      recallPlain: t,
      recallTraced: t,
      feedbackCreditOn: t,
      feedbackCreditOff: t,
    };
    expect(curveSvg(r)).toBe(curveSvg(structuredClone(r)));
    expect(curveSvg(r).match(/<polyline/g)).toHaveLength(2);
    expect(learningTable(r)[2]).toBe('| credit on | 0.25 | 0.50 | 1.00 | 2 |');
  });
});
