/**
 * The msw / Node.js compatibility check of `createMockRouter` (src/msw/compat.ts): msw 3 on a Node.js older than
 * 22.12 is one clear error naming both versions, instead of `Promise.withResolvers is not a function` on the first
 * request. The pure function gets the versions as strings, so every combination runs on any Node.js.
 */
import { describe, expect, it } from 'vitest';
import { MswCompatibilityError } from '../src/core/base/errors.js';
import { assertMswCompatible, installedMswVersion, mswCompatibilityProblem } from '../src/msw/compat.js';

describe('mswCompatibilityProblem', () => {
  it('names the running Node.js, the msw found and what is needed for msw 3 before Node.js 22.12', () => {
    const problem = mswCompatibilityProblem({ node: '20.19.4', msw: '3.0.5' });
    expect(problem).toBe(
      'msw 3.0.5 needs Node.js 22.12 or newer, but this is Node.js 20.19.4 ' +
        '(msw 3 fails there with "Promise.withResolvers is not a function"). ' +
        'Run Node.js 22.12+ (what mockrouter supports), or install msw 2 (npm i -D msw@^2.12).',
    );
  });

  it.each([
    ['20.19.4', '3.0.0'],
    ['v20.20.2', '3.0.5'],
    ['21.7.3', '3.1.0'],
    ['22.11.0', '3.0.5'],
    ['22.0.0', '3.0.0-beta.2'],
    ['18.20.0', '4.0.0'],
  ])('Node.js %s with msw %s: a problem', (node, msw) => {
    const problem = mswCompatibilityProblem({ node, msw });
    expect(problem).toContain(`msw ${msw} needs Node.js 22.12 or newer`);
    expect(problem).toContain(`this is Node.js ${node.replace(/^v/, '')} `);
  });

  it.each([
    ['22.12.0', '3.0.5'],
    ['22.23.3', '3.0.0'],
    ['23.0.0', '3.0.5'],
    ['24.21.0', '3.0.5'],
    ['v24.0.0', '3.0.5'],
    ['20.19.4', '2.12.0'],
    ['20.20.2', '2.15.0'],
    ['18.20.0', '2.0.0'],
    ['22.12.0', '2.15.0'],
  ])('Node.js %s with msw %s: fine', (node, msw) => {
    expect(mswCompatibilityProblem({ node, msw })).toBeUndefined();
  });

  it('claims nothing when msw is missing or a version is not one', () => {
    expect(mswCompatibilityProblem({ node: '20.19.4', msw: undefined })).toBeUndefined();
    expect(mswCompatibilityProblem({ node: '20.19.4', msw: 'next' })).toBeUndefined();
    expect(mswCompatibilityProblem({ node: 'unknown', msw: '3.0.5' })).toBeUndefined();
  });
});

describe('assertMswCompatible on this machine', () => {
  it('reads the installed msw and agrees with the pure check (throws exactly when it reports a problem)', () => {
    const msw = installedMswVersion();
    expect(msw).toMatch(/^\d+\.\d+\.\d+/);
    const problem = mswCompatibilityProblem({ node: process.versions.node, msw });
    if (problem === undefined) expect(() => assertMswCompatible()).not.toThrow();
    else {
      expect(() => assertMswCompatible()).toThrow(MswCompatibilityError);
      expect(() => assertMswCompatible()).toThrow(problem);
    }
  });
});
