/**
 * The journal's ways of emptying (src/core/journal/journal.ts): `clear` announces (the gateway's `journal-cleared`
 * event), `clearUnannounced` does not (a copy of a shared journal that another replica cleared), and `startOver`
 * also numbers from 1 again (a shared store that restarted empty). Through the gateway with a shared store:
 * test/store-inprocess.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { Journal, type JournalEntry } from '../../src/core/journal/journal.js';

function entry(session: string): Omit<JournalEntry, 'seq'> {
  return {
    time: 0, time_iso: '1970-01-01T00:00:00.000+00:00', replica: 'unit', session, method: 'GET', path: '/api/v1/key', query: {}, headers: {}, body: null,
    operation: 'key', scenario: null, rule: null, status: 200, response_headers: {}, generation_id: null, duration_ms: 1, response_bytes: 2,
    body_end: 'complete', error: null, audio: null,
  };
}

describe('Journal', () => {
  it('announces clear(), not clearUnannounced() or startOver(); only startOver() numbers from 1 again', () => {
    let announced = 0;
    const journal = new Journal(10, () => announced++);
    journal.record(entry('a'), 10);
    journal.record(entry('b'), 10);
    journal.clear();
    expect([journal.size, journal.bytes, journal.lastSeq, announced]).toEqual([0, 0, 2, 1]);
    journal.record(entry('c'), 10);
    journal.clearUnannounced();
    expect([journal.size, journal.bytes, journal.lastSeq, announced]).toEqual([0, 0, 3, 1]);
    expect(journal.record(entry('d'), 10).seq).toBe(4);
    journal.startOver();
    expect([journal.size, journal.bytes, journal.lastSeq, announced]).toEqual([0, 0, 0, 1]);
    expect(journal.record(entry('e'), 10).seq).toBe(1);
    expect(journal.list().map((e) => e.session)).toEqual(['e']);
  });
});
