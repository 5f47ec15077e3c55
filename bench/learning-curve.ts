// Scenario `learning-curve`: does the loop learn by itself? A simulated agent answers a fixed set of
// questions over a bank where, for each question, one fact is right and others are plausible but wrong
// (the same topic and the same words). Every round it records an episode per question, recalls with
// boosting and a memory trace, says it used its top fact (`useFacts`), and a simulated judge gives a
// thumb up or down by whether that fact was right. No `submitSignals`. Precision@1 per round (round 0:
// before any feedback), in an organization with credit on and one with credit off.
// The same run measures what traces and credit cost: recall with and without a trace, and
// submitFeedback on episodes that used 20 served facts and were served 20 more, credit on and off.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import type { Child } from './children';
import { insertKey } from './noisy';
import { curveSvg, type CurveResult, type Timing } from './learning-svg';

export const LEARNING_CURVE_ID = 'learning-curve';
const ROUNDS = 6;
const QUESTIONS = 24;
const TIMED = 60;
const BANK = 'learning';

async function post(url: string, token: string, query: string, variables: Record<string, unknown>): Promise<any> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as { data?: unknown; errors?: { message: string }[] };
  if (body.errors?.length) throw new Error(`GraphQL error: ${body.errors[0].message}`);
  return body.data;
}

const NAMES = ['Mira', 'Tomas', 'Ines', 'Kofi', 'Yuki', 'Arjun', 'Lena', 'Omar', 'Sofia', 'Pavel'];
const THINGS = ['tea', 'kite', 'bicycle', 'novel', 'garden', 'violin', 'recipe', 'camera'];
const VALUES = ['red', 'blue', 'green', 'amber', 'violet', 'silver', 'copper', 'ivory'];

/**
 * Question i: `i % 4` wrong facts written before the right one and one after it, all with the same
 * words (a wrong one names another colour), so by relevance they tie and the earliest written ranks
 * first: the wrong ones lead. Every fifth question's right fact has one word more, so it also
 * starts a little behind by relevance.
 */
export function questionBank(i: number): { question: string; facts: string[]; right: number } {
  const name = NAMES[i % NAMES.length];
  const thing = `${THINGS[i % THINGS.length]}${Math.floor(i / THINGS.length)}`;
  const question = `Which ${thing} colour does ${name} like?`;
  const value = (k: number) => VALUES[(i + k) % VALUES.length];
  const wrong = (k: number) => `${name} likes the ${thing} colour ${value(k + 1)}.`;
  const right = `${name} likes the ${thing} colour ${value(0)}${i % 5 === 0 ? ' indeed' : ''}.`;
  const before = i % 4;
  return { question, facts: [...Array.from({ length: before }, (_, k) => wrong(k)), right, wrong(before)], right: before };
}

/**
 * All questions' facts in one bank, written slot by slot (the first fact of every question, then
 * the second, ...): a fact's neighbours in the bank are other questions' facts, so the neighbour
 * term of recall gives no fact of a question an edge over another.
 */
function bankInputs(banks: { facts: string[] }[]): { text: string; question: number; slot: number }[] {
  const out: { text: string; question: number; slot: number }[] = [];
  const slots = Math.max(...banks.map((b) => b.facts.length));
  for (let slot = 0; slot < slots; slot++)
    banks.forEach((b, question) => b.facts[slot] !== undefined && out.push({ text: b.facts[slot], question, slot }));
  return out;
}

const UPSERT = `mutation LcUpsert($inputs: [FactInput!]!) { upsertFacts(inputs: $inputs) { id } }`;
const RECORD = `mutation LcEpisode($input: RecordEpisodeInput!) { recordEpisode(input: $input) { id } }`;
const RECALL = `query LcRecall($input: RecallInput!, $trace: MemoryTraceInput) { recall(input: $input, trace: $trace) { fact { id } } }`;
const USE = `mutation LcUse($episodeId: ID!, $factIds: [ID!]) { useFacts(episodeId: $episodeId, factIds: $factIds) { id } }`;
const FEEDBACK = `mutation LcFeedback($input: SubmitFeedbackInput!) { submitFeedback(input: $input) { feedback { id } } }`;

async function newOrg(db: pg.Client, dbUrl: string, name: string, credit: boolean): Promise<{ orgId: string; token: string }> {
  const orgId = (await db.query(`INSERT INTO organizations (id, name) VALUES (gen_random_uuid(), $1) RETURNING id`, [name])).rows[0]
    .id as string;
  if (!credit) await db.query(`INSERT INTO org_credit_settings (org_id, enabled) VALUES ($1, false)`, [orgId]);
  return { orgId, token: await insertKey(dbUrl, orgId, 'ADMIN', name) };
}

/** The precision@1 of every round in one organization. */
async function curve(url: string, token: string): Promise<number[]> {
  const banks = Array.from({ length: QUESTIONS }, (_, i) => questionBank(i));
  const inputs = bankInputs(banks);
  const written = (await post(url, token, UPSERT, { inputs: inputs.map((x) => ({ bankId: BANK, text: x.text })) })).upsertFacts as {
    id: string;
  }[];
  const ids: string[][] = banks.map(() => []);
  inputs.forEach((x, k) => (ids[x.question][x.slot] = written[k].id));
  const precision: number[] = [];
  for (let round = 0; round <= ROUNDS; round++) {
    let right = 0;
    for (const [i, b] of banks.entries()) {
      const ep = (
        await post(url, token, RECORD, {
          input: { agentId: 'learner', task: b.question, segments: [{ role: 'user', content: b.question }] },
        })
      ).recordEpisode.id as string;
      const served = (
        await post(url, token, RECALL, {
          input: { bankId: BANK, query: b.question, limit: 5, boostByUsefulness: true },
          trace: { episodeId: ep, seq: 1 },
        })
      ).recall as { fact: { id: string } }[];
      const top = served[0].fact.id;
      const ok = top === ids[i][b.right];
      if (ok) right++;
      await post(url, token, USE, { episodeId: ep, factIds: [top] });
      await post(url, token, FEEDBACK, { input: { episodeId: ep, feedbackType: ok ? 'THUMBS_UP' : 'THUMBS_DOWN' } });
    }
    precision.push(right / banks.length);
  }
  return precision;
}

const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Sequential requests: the p50 latency, statements and server CPU per request. */
async function timed(gql: Child, n: number, send: (i: number) => Promise<unknown>): Promise<Timing> {
  for (let i = 0; i < 5; i++) await send(n + i); // warm
  const before = await gql.stats();
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await send(i);
    ms.push(performance.now() - t);
  }
  const after = await gql.stats();
  return {
    p50: p50(ms),
    statementsPerRequest: (after.statements - before.statements) / n,
    cpuMsPerRequest: (after.cpuMs - before.cpuMs) / n,
  };
}

/** Episodes that were served 40 facts by a traced recall and used 20 of them. */
async function servedEpisodes(url: string, token: string, bankId: string, n: number): Promise<string[]> {
  const facts = Array.from({ length: 40 }, (_, k) => ({ bankId, text: `cost fact ${k} about the shared topic of the bank` }));
  const ids = (await post(url, token, UPSERT, { inputs: facts })).upsertFacts.map((f: { id: string }) => f.id) as string[];
  const eps: string[] = [];
  for (let i = 0; i < n; i++) {
    const ep = (
      await post(url, token, RECORD, { input: { agentId: 'cost', task: 'shared topic', segments: [{ role: 'user', content: 'q' }] } })
    ).recordEpisode.id as string;
    await post(url, token, RECALL, { input: { bankId, query: 'cost fact shared topic', limit: 40 }, trace: { episodeId: ep } });
    await post(url, token, USE, { episodeId: ep, factIds: ids.slice(0, 20) });
    eps.push(ep);
  }
  return eps;
}

export async function runLearningCurve(opts: { gql: Child; dbUrl: string }): Promise<CurveResult> {
  const url = `http://127.0.0.1:${opts.gql.port}/graphql`;
  const db = new pg.Client({ connectionString: opts.dbUrl });
  await db.connect();
  try {
    const on = await newOrg(db, opts.dbUrl, 'learning-on', true);
    const off = await newOrg(db, opts.dbUrl, 'learning-off', false);
    const withCredit = await curve(url, on.token);
    console.log(`learning-curve: credit on ${withCredit.map((p) => p.toFixed(2)).join(' ')}`);
    const withoutCredit = await curve(url, off.token);
    console.log(`learning-curve: credit off ${withoutCredit.map((p) => p.toFixed(2)).join(' ')}`);

    // what a trace costs a recall, and what credit costs a feedback
    const recallInput = { bankId: BANK, query: questionBank(0).question, limit: 5, boostByUsefulness: true };
    const traceEp = (await post(url, on.token, RECORD, { input: { agentId: 'cost', segments: [{ role: 'user', content: 'q' }] } }))
      .recordEpisode.id as string;
    const recallPlain = await timed(opts.gql, TIMED, () => post(url, on.token, RECALL, { input: recallInput }));
    const recallTraced = await timed(opts.gql, TIMED, () =>
      post(url, on.token, RECALL, { input: recallInput, trace: { episodeId: traceEp } }),
    );
    const feedbackOn = await servedEpisodes(url, on.token, 'cost', TIMED + 5);
    const feedbackOff = await servedEpisodes(url, off.token, 'cost', TIMED + 5);
    const thumbs = (token: string, eps: string[]) => (i: number) =>
      post(url, token, FEEDBACK, { input: { episodeId: eps[i], feedbackType: i % 2 ? 'THUMBS_UP' : 'THUMBS_DOWN' } });
    const creditOn = await timed(opts.gql, TIMED, thumbs(on.token, feedbackOn));
    const creditOff = await timed(opts.gql, TIMED, thumbs(off.token, feedbackOff));
    const result: CurveResult = {
      questions: QUESTIONS,
      rounds: ROUNDS,
      usefulnessWeight: 0.3,
      creditOn: withCredit,
      creditOff: withoutCredit,
      roundsTo90: withCredit.findIndex((p) => p >= 0.9) >= 0 ? withCredit.findIndex((p) => p >= 0.9) : null,
      recallPlain,
      recallTraced,
      feedbackCreditOn: creditOn,
      feedbackCreditOff: creditOff,
    };
    writeFileSync(join(__dirname, '..', '..', 'docs', 'learning-curve.svg'), curveSvg(result));
    return result;
  } finally {
    await db.end();
  }
}
