/** aws-local-stepfunctions' engine, loaded once with what it needs from the platform. */

// aws-local-stepfunctions 3 calls Promise.withResolvers, which Node 20 lacks.
type WithResolvers = <T>() => { promise: Promise<T>; resolve: (v: T) => void; reject: (e: unknown) => void };
const PromiseCtor = Promise as unknown as { withResolvers?: WithResolvers };
PromiseCtor.withResolvers ??= <T>() => {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => { resolve = res; reject = rej; });
  return { promise, resolve, reject };
};

// eslint-disable-next-line @typescript-eslint/no-require-imports
export const { StateMachine } = require('aws-local-stepfunctions') as typeof import('aws-local-stepfunctions');
