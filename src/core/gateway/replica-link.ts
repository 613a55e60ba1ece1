/**
 * What keeps one gateway in step with the other replicas of a shared store (`docs/scale-out.md`): before each
 * request it reads the shared controls (the clock and the default scenario) and takes them when they changed; it
 * tracks this gateway's own changes on their way to the store (and takes no control read while any is, since such
 * a read may be older); `sync()` waits for them and reads the controls back. In memory there is nothing to link.
 *
 * @module
 */
import type { Clock } from '../base/clock.js';
import type { ErrorReporter } from '../base/report-error.js';
import type { ScenarioEngine } from '../scenarios/engine.js';
import type { Scenario } from '../scenarios/schema.js';
import { andThen, type MaybePromise } from '../base/types.js';
import type { GatewayStore, SharedControl, SharedScenario } from '../store/types.js';

/** A gateway's link to the other replicas of its store. */
export interface ReplicaLink {
  /**
   * Reads the shared controls and takes them, before a request reads any state (the pipeline's `before`);
   * `undefined` for a store no one shares.
   */
  readonly before: (() => MaybePromise<void>) | undefined;
  /** Tracks a change of this gateway on its way to the store (`what` names it if it fails: reported once). */
  writing(write: MaybePromise<unknown>, what: string): void;
  /**
   * Waits for this gateway's changes to reach the store, then reads the shared controls back (`Gateway.sync`).
   *
   * @throws the store's error (a 503 `StoreUnavailableError`) when a change could not be written or the controls
   *   cannot be read.
   */
  sync(): Promise<void>;
}

/** What {@link linkReplicas} keeps in step. */
export interface LinkedState {
  readonly store: GatewayStore;
  readonly clock: Clock;
  readonly scenarios: ScenarioEngine;
  readonly report: ErrorReporter;
}

/** Links a gateway's clock and scenarios to the other replicas of `store` (nothing to do for a memory store). */
export function linkReplicas({ store, clock, scenarios, report }: LinkedState): ReplicaLink {
  const initialClock = clock.setting();
  /** Changes of this gateway on their way to the store. */
  const pending = new Set<Promise<unknown>>();
  /** The last write that failed, reported once and rethrown by the next `sync()`. */
  let failedWrite: unknown;
  /**
   * The shared controls last taken (their version, clock and scenario as text); `undefined` takes the next ones read
   * whatever they are. Compared whole, not by version alone: a store that restarted empty counts versions from 0
   * again, so a version may come back with other controls.
   */
  let taken: string | undefined;

  /** The default scenario `shared` names: another replica's `useScenario` or reset. */
  function sharedDefault(shared: SharedScenario): Scenario | null {
    try {
      switch (shared.kind) {
        case 'initial':
          return scenarios.initial;
        case 'none':
          return null;
        case 'name':
          return scenarios.find(shared.name) ?? null;
        case 'definition':
          return scenarios.parse(shared.definition, 'the shared default scenario');
      }
    } catch (error) {
      report(error, 'reading the shared default scenario');
      return null;
    }
  }

  /** Takes the shared clock and default scenario when they changed (and no change of this gateway is on its way). */
  function adopt(control: SharedControl | undefined): void {
    if (!control || pending.size > 0) return;
    const seen = JSON.stringify([control.version, control.clock, control.scenario]);
    if (seen === taken) return;
    taken = seen;
    clock.adopt(control.clock ?? initialClock);
    const scenario = sharedDefault(control.scenario);
    if (scenario !== scenarios.defaultScenario) scenarios.useScenario(scenario);
  }

  return {
    before: store.shared ? () => andThen(store.control(), adopt) : undefined,
    writing(write, what) {
      if (!(write instanceof Promise)) return;
      const tracked: Promise<unknown> = write.then(
        () => pending.delete(tracked),
        (error: unknown) => {
          pending.delete(tracked);
          failedWrite = error;
          // The change did not reach the store: the next read takes the shared controls again, over it.
          taken = undefined;
          report(error, what);
        },
      );
      pending.add(tracked);
    },
    async sync() {
      await Promise.all(pending);
      if (failedWrite !== undefined) {
        const error = failedWrite;
        failedWrite = undefined;
        throw error;
      }
      taken = undefined;
      adopt(await store.control());
    },
  };
}
