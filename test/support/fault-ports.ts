import { StoreError } from '@receipts/core';

/*
 * Ports (TableStore, BlobStore) that fail on purpose: the n-th call, for the fault sweep of the
 * write use cases (write-faults.ts), or a share of calls at random, for the soak run.
 */

/** The error a store call fails with when a fault is injected into it. */
export class InjectedFault extends StoreError {}

/**
 * A port (TableStore, BlobStore) whose `failAt`-th call (1-based, counted over every method) fails:
 * before it reaches the store (`after: false`), or once the store has done it (`after: true`: the
 * answer was lost, as with a timeout). `failAt` 0 never fails, which counts a use case's calls.
 */
export interface FaultCounter {
  calls: number;
  failAt: number;
  after: boolean;
  failed: boolean;
  /** The method of each call made, in order. */
  methods: string[];
}

export const faultCounter = (failAt = 0, after = false): FaultCounter => ({
  calls: 0,
  failAt,
  after,
  failed: false,
  methods: [],
});

/** Methods of the ports that change what is stored (a fault after one of them is worth a run). */
export const WRITE_METHODS = new Set([
  'createEntity',
  'updateEntity',
  'upsertEntity',
  'deleteEntity',
  'submitTransaction',
  'put',
  'delete',
]);

export function failingAt<T extends object>(target: T, counter: FaultCounter): T {
  return new Proxy(target, {
    get(object, property, receiver) {
      const value: unknown = Reflect.get(object, property, receiver);
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        const n = ++counter.calls;
        counter.methods.push(String(property));
        const fail = n === counter.failAt;
        if (fail && !counter.after) {
          counter.failed = true;
          throw new InjectedFault(`fault injected before call ${n} (${String(property)})`);
        }
        const result: unknown = await (value as (...a: unknown[]) => unknown).apply(object, args);
        if (fail) {
          counter.failed = true;
          throw new InjectedFault(`fault injected after call ${n} (${String(property)})`);
        }
        return result;
      };
    },
  });
}

/**
 * A port whose calls each fail with probability `share` (before the call, or after it: the answer
 * lost), as a flaky network or an overloaded store would. `random` is the source of chance.
 */
export function failingAtRandom<T extends object>(
  target: T,
  share: number,
  random: () => number = Math.random,
  counts: { calls: number; failed: number } = { calls: 0, failed: 0 },
): T {
  return new Proxy(target, {
    get(object, property, receiver) {
      const value: unknown = Reflect.get(object, property, receiver);
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        counts.calls += 1;
        const roll = random();
        if (roll < share / 2) {
          counts.failed += 1;
          throw new InjectedFault(`fault injected before ${String(property)}`);
        }
        const result: unknown = await (value as (...a: unknown[]) => unknown).apply(object, args);
        if (roll < share) {
          counts.failed += 1;
          throw new InjectedFault(`fault injected after ${String(property)}`);
        }
        return result;
      };
    },
  });
}
