/**
 * The scenario engine (src/core/scenarios/engine.ts) called as functions: which scenario a request runs under
 * (`select`), which rule applies (`apply`: match, first rule wins, `times` counted per session and scenario,
 * seeded `probability`), and what `useScenario` and `reset` change (the counters are the store's: the gateway
 * clears them, test/scenarios-state.test.ts). The same rules through HTTP, with
 * what a client sees, are in test/scenario-headers.test.ts and test/scenarios-*.test.ts.
 */
import { describe, expect, it, vi } from 'vitest';
import { GatewayError } from '../../src/core/base/error-envelope.js';
import { delayOf } from '../../src/core/scenarios/effects.js';
import { ScenarioEngine, type AppliedRule, type RequestFacts } from '../../src/core/scenarios/engine.js';
import { ScenarioError } from '../../src/core/base/errors.js';
import { parseScenario, scenarioRegistry } from '../../src/core/scenarios/parse.js';
import type { Scenario, ScenarioDefinition } from '../../src/core/scenarios/schema.js';
import { loadBuiltinScenarios } from '../../src/node-platform/scenarios.js';
import { TTS } from '../support/speech-model.js';

/** A validated scenario from a definition. */
function scenario(definition: ScenarioDefinition): Scenario {
  return parseScenario(definition, 'test');
}

/** Scenario counters in a map, as the memory store keeps them (`countRule`), and a way to clear them. */
function counters(): { count: (slot: string) => number; clear: () => void } {
  const seen = new Map<string, number>();
  return {
    count: (slot) => {
      const before = seen.get(slot) ?? 0;
      seen.set(slot, before + 1);
      return before;
    },
    clear: () => seen.clear(),
  };
}

/** An engine over the built-in scenarios plus `extra`, seeded with `seed`, counting in `counted`. */
function engine(extra: ScenarioDefinition[] = [], seed = 1, counted = counters()): ScenarioEngine {
  const loaded = [...loadBuiltinScenarios(), ...extra.map((definition) => ({ scenario: scenario(definition), source: 'test' }))];
  return new ScenarioEngine(scenarioRegistry(loaded), seed, counted.count);
}

/** `apply` of an engine whose counters answer at once: its answer, never a promise. */
function applyNow(target: ScenarioEngine, applied: Scenario, session: string, facts: RequestFacts): AppliedRule | undefined {
  const answer = target.apply(applied, session, facts);
  if (answer instanceof Promise) throw new Error('apply waited, with counters that answer at once');
  return answer;
}

/** The facts of a speech request with `body`. */
function speech(body: Record<string, unknown>): RequestFacts {
  return { operation: 'speech', speechBody: () => body };
}

/** The names of the rules `engine` applies to `count` requests of `session`, `-` for none. */
function sequence(target: ScenarioEngine, applied: Scenario, session: string, count: number, facts: RequestFacts = { operation: 'model', model: 'openai/gpt-4o' }): string[] {
  return Array.from({ length: count }, () => applyNow(target, applied, session, facts)?.ruleName ?? '-');
}

describe('apply: matching', () => {
  const rules = scenario({
    name: 'matching',
    rules: [
      { name: 'speech-mp3-nova', match: { operation: 'speech', voice: 'nova', format: 'mp3' }, error: { status: 500 } },
      { name: 'speech-pcm', match: { operation: 'speech', format: 'pcm' }, error: { status: 502 } },
      { name: 'model-prefix', match: { operation: 'model', model: 'anthropic/*' }, error: { status: 503 } },
      { name: 'model-exact', match: { model: 'openai/gpt-4o' }, error: { status: 504 } },
      { name: 'generation', match: { operation: 'generation' }, error: { status: 429 } },
    ],
  });
  const target = engine();
  const ruleOf = (facts: RequestFacts) => applyNow(target, rules, 's', facts)?.ruleName;

  it('matches the operation, voice and format of a speech body (an omitted format counts as pcm)', () => {
    expect(ruleOf(speech({ model: TTS, voice: 'nova', response_format: 'mp3' }))).toBe('speech-mp3-nova');
    expect(ruleOf(speech({ model: TTS, voice: 'alloy' }))).toBe('speech-pcm');
    expect(ruleOf(speech({ model: TTS, voice: 'nova', response_format: 'pcm' }))).toBe('speech-pcm');
    expect(ruleOf(speech({ model: TTS, voice: 'alloy', response_format: 'mp3' }))).toBeUndefined();
  });

  it('matches a model exactly, or by prefix with a trailing *, in a lookup path or a speech body', () => {
    expect(ruleOf({ operation: 'model', model: 'anthropic/claude-3.5-sonnet' })).toBe('model-prefix');
    expect(ruleOf({ operation: 'endpoints', model: 'anthropic/claude-3.5-sonnet' })).toBeUndefined();
    expect(ruleOf({ operation: 'model', model: 'openai/gpt-4o' })).toBe('model-exact');
    expect(ruleOf({ operation: 'endpoints', model: 'openai/gpt-4o' })).toBe('model-exact');
    expect(ruleOf({ operation: 'model', model: 'openai/gpt-4o:free' })).toBeUndefined();
    expect(ruleOf(speech({ model: 'openai/gpt-4o', voice: 'alloy', response_format: 'mp3' }))).toBe('model-exact');
    expect(ruleOf({ operation: 'models' })).toBeUndefined();
  });

  it('matches an operation alone, and a rule with no match applies to every request', () => {
    expect(ruleOf({ operation: 'generation' })).toBe('generation');
    const always = scenario({ name: 'always', rules: [{ error: { status: 500 } }] });
    for (const operation of ['speech', 'model', 'generation', 'models', 'models-count', 'endpoints', 'key', 'credits'] as const) {
      expect(applyNow(target, always, 's', { operation })?.ruleName).toBe('rule-1');
    }
  });

  it('reads the speech body only for a rule that needs it', () => {
    const body = vi.fn(() => ({ model: TTS, voice: 'alloy' }));
    const byOperation = scenario({ name: 'by-operation', rules: [{ match: { operation: 'speech' }, error: { status: 500 } }] });
    expect(applyNow(target, byOperation, 's', { operation: 'speech', speechBody: body })?.ruleName).toBe('rule-1');
    expect(body).not.toHaveBeenCalled();
    applyNow(target, rules, 's', { operation: 'speech', speechBody: body });
    expect(body).toHaveBeenCalled();
  });

  it('names a rule rule-<n> (1-based) when it has no name, and gives the scenario and the rule applied', () => {
    const unnamed = scenario({ name: 'unnamed', rules: [{ match: { operation: 'key' }, error: { status: 401 } }, { error: { status: 500 } }] });
    const applied = applyNow(target, unnamed, 's', { operation: 'credits' });
    expect(applied).toMatchObject({ scenario: 'unnamed', ruleName: 'rule-2', rule: unnamed.rules[1] });
    expect(Number.isInteger(applied!.draw)).toBe(true);
  });
});

describe('apply: times and sequences', () => {
  it('applies a rule to the first `times` requests of a session, then lets requests through', () => {
    const target = engine();
    const thenOk = target.find('rate-limited-then-ok')!;
    expect(sequence(target, thenOk, 'a', 4)).toEqual(['rate-limited', 'rate-limited', '-', '-']);
  });

  it('keeps a counter per session', () => {
    const target = engine();
    const thenOk = target.find('overloaded-then-ok')!;
    expect(sequence(target, thenOk, 'a', 1)).toEqual(['overloaded']);
    expect(sequence(target, thenOk, 'b', 3)).toEqual(['overloaded', 'overloaded', '-']);
    expect(sequence(target, thenOk, 'a', 2)).toEqual(['overloaded', '-']);
  });

  it('keeps a counter per scenario', () => {
    const target = engine();
    expect(sequence(target, target.find('rate-limited-then-ok')!, 'a', 2)).toEqual(['rate-limited', 'rate-limited']);
    expect(sequence(target, target.find('overloaded-then-ok')!, 'a', 3)).toEqual(['overloaded', 'overloaded', '-']);
  });

  it('falls through to the next rule once a rule has run out: a sequence', () => {
    const target = engine();
    const steps = scenario({
      name: 'steps',
      rules: [
        { name: 'first', times: 2, error: { status: 429 } },
        { name: 'second', times: 1, error: { status: 503 } },
        { name: 'slow', delay: { ms: 5 } },
      ],
    });
    expect(sequence(target, steps, 's', 6)).toEqual(['first', 'first', 'second', 'slow', 'slow', 'slow']);
  });

  it('counts only the requests a rule matches', () => {
    const target = engine();
    const speechOnly = scenario({ name: 'speech-once', rules: [{ name: 'once', times: 1, match: { operation: 'speech' }, error: { status: 500 } }] });
    expect(sequence(target, speechOnly, 's', 3)).toEqual(['-', '-', '-']);
    expect(sequence(target, speechOnly, 's', 2, speech({ model: TTS, voice: 'alloy' }))).toEqual(['once', '-']);
  });

  it('counts in the counters it is given (cleared there, the sequence starts again); reset returns to the initial default', () => {
    const counted = counters();
    const target = engine([], 1, counted);
    const thenOk = target.find('rate-limited-then-ok')!;
    target.setInitial(thenOk);
    expect(sequence(target, thenOk, 'a', 3)).toEqual(['rate-limited', 'rate-limited', '-']);
    target.useScenario(null);
    expect(target.defaultScenario).toBeNull();
    expect(sequence(target, thenOk, 'a', 1)).toEqual(['-']);
    counted.clear();
    target.reset();
    expect(target.defaultScenario).toBe(thenOk);
    expect(sequence(target, thenOk, 'a', 3)).toEqual(['rate-limited', 'rate-limited', '-']);
  });
});

describe('apply: probability and draws', () => {
  const coin = scenario({ name: 'coin', rules: [{ name: 'heads', probability: 0.5, error: { status: 500 } }] });

  it('applies probability 0 never and 1 always', () => {
    const target = engine();
    const never = scenario({ name: 'never', rules: [{ probability: 0, error: { status: 500 } }] });
    const always = scenario({ name: 'always', rules: [{ probability: 1, error: { status: 500 } }] });
    expect(sequence(target, never, 's', 50)).toEqual(Array(50).fill('-'));
    expect(sequence(target, always, 's', 50)).toEqual(Array(50).fill('rule-1'));
  });

  it('draws the same sequence for the same seed and session, another for another seed', () => {
    const a = sequence(engine([], 7), coin, 's', 64);
    expect(sequence(engine([], 7), coin, 's', 64)).toEqual(a);
    expect(sequence(engine([], 8), coin, 's', 64)).not.toEqual(a);
    expect(sequence(engine([], 7), coin, 't', 64)).not.toEqual(a);
  });

  it('applies probability 0.5 to about half of the requests', () => {
    const heads = sequence(engine([], 3), coin, 's', 1000).filter((name) => name === 'heads').length;
    expect(heads).toBeGreaterThan(400);
    expect(heads).toBeLessThan(600);
  });

  it('gives each application a draw that depends on the seed and the count only', () => {
    const always = scenario({ name: 'always', rules: [{ error: { status: 500 } }] });
    const draws = (seed: number) => Array.from({ length: 3 }, () => engine([], seed)).map((target) => applyNow(target, always, 's', { operation: 'key' })!.draw);
    expect(new Set(draws(5)).size).toBe(1);
    const target = engine([], 5);
    const two = [applyNow(target, always, 's', { operation: 'key' })!.draw, applyNow(target, always, 's', { operation: 'key' })!.draw];
    expect(two[0]).toBe(draws(5)[0]);
    expect(two[1]).not.toBe(two[0]);
  });

  it('draws a delay range within its bounds, the same for the same draw', () => {
    const ranged = scenario({ name: 'ranged', rules: [{ delay: { min_ms: 100, max_ms: 200 } }] });
    const fixed = scenario({ name: 'fixed', rules: [{ delay: { ms: 250 } }] });
    const target = engine();
    const delays = Array.from({ length: 200 }, () => {
      const applied = applyNow(target, ranged, 's', { operation: 'key' })!;
      expect(delayOf(applied.rule, applied.draw)).toBe(delayOf(applied.rule, applied.draw));
      return delayOf(applied.rule, applied.draw);
    });
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(100);
    expect(Math.max(...delays)).toBeLessThanOrEqual(200);
    expect(new Set(delays).size).toBeGreaterThan(1);
    expect(delayOf(fixed.rules[0]!, 12345)).toBe(250);
    expect(delayOf(scenario({ name: 'none', rules: [{ error: { status: 500 } }] }).rules[0]!, 1)).toBe(0);
  });
});

describe('select', () => {
  it('answers X-Mock-Status with a one-rule scenario; 429 and 503 carry Retry-After', () => {
    const target = engine();
    expect(target.select('500', 'rate-limited')).toEqual({ name: 'x-mock-status', rules: [{ name: '500', error: { status: 500 } }] });
    expect(target.select(' 429 ', undefined)?.rules[0]?.error).toEqual({ status: 429, headers: { 'Retry-After': '60' } });
    expect(target.select('503', undefined)?.rules[0]?.error).toEqual({ status: 503, headers: { 'Retry-After': '30' } });
  });

  it.each(['200', '600', 'abc', '42', '4000', '', '429.0'])('rejects X-Mock-Status %j with a 400 naming the header', (status) => {
    const target = engine();
    let thrown: unknown;
    try {
      target.select(status, undefined);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(GatewayError);
    expect((thrown as GatewayError).status).toBe(400);
    expect((thrown as GatewayError).message).toBe(`X-Mock-Status: expected an HTTP error status from 400 to 599, got "${status}"`);
  });

  it('finds X-Mock-Scenario among the loaded scenarios, else a 400 listing them', () => {
    const target = engine([{ name: 'mine', rules: [{ error: { status: 500 } }] }]);
    expect(target.select(undefined, ' mine ')).toBe(target.find('mine'));
    expect(() => target.select(undefined, 'nothing')).toThrow(GatewayError);
    const names = target.scenarios.map((loaded) => loaded.scenario.name).sort();
    expect(() => target.select(undefined, 'nothing')).toThrow(`X-Mock-Scenario: unknown scenario "nothing"; loaded scenarios: ${names.join(', ')}`);
  });

  it('gives the default scenario without headers', () => {
    const target = engine();
    expect(target.select(undefined, undefined)).toBeNull();
    const thenOk = target.find('rate-limited-then-ok')!;
    target.useScenario(thenOk);
    expect(target.select(undefined, undefined)).toBe(thenOk);
  });

  it('loads a lazy registry on first use only', () => {
    const load = vi.fn(() => scenarioRegistry(loadBuiltinScenarios()));
    const target = new ScenarioEngine(load, 1, counters().count);
    expect(target.select('500', undefined)).not.toBeNull();
    expect(load).not.toHaveBeenCalled();
    expect(target.find('rate-limited')).toBeDefined();
    expect(target.find('server-error')).toBeDefined();
    expect(load).toHaveBeenCalledTimes(1);
  });
});

describe('resolve and the registry', () => {
  it('validates a definition, naming where it came from', () => {
    const target = engine();
    expect(target.resolve({ name: 'inline', rules: [{ times: 1, error: { status: 500 } }] }, 'useScenario()').rules[0]!.match).toBeUndefined();
    expect(() => target.resolve({ name: 'inline', rules: [] }, 'useScenario()')).toThrow(ScenarioError);
    expect(() => target.resolve({ name: 'inline', rules: [] }, 'useScenario()')).toThrow(/useScenario\(\)/);
  });

  it('fills a match operation in as any', () => {
    expect(scenario({ name: 'm', rules: [{ match: { model: 'a/b' } }] }).rules[0]!.match).toEqual({ operation: 'any', model: 'a/b' });
  });

  it('refuses two scenarios of one name, naming both sources', () => {
    const one = { scenario: scenario({ name: 'twice', rules: [{ error: { status: 500 } }] }), source: 'a.yaml' };
    expect(() => scenarioRegistry([one, { ...one, source: 'b.yaml' }])).toThrow(/b\.yaml.*already defined in a\.yaml/);
  });
});
