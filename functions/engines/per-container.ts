import { secretsPending, type Container } from '../container';

/**
 * An engine built once per container (once per cold start on AWS, once per local stack):
 * the first call builds it from the container's settings, later calls reuse it. Engines
 * read provider keys from the config, which on AWS holds them only after
 * `await container.ready()`: building one before that is a wiring bug and fails here,
 * instead of running the provider as if it were not configured.
 */
export function perContainer<T>(
  build: (container: Container) => T,
  /**
   * `needsSecrets: false` for what reads no provider key at build time (a repository on the
   * container's table, built here rather than in the container so that only the bundles
   * that use it carry it: the 250 KB route budget).
   */
  { needsSecrets = true }: { needsSecrets?: boolean } = {},
): (container: Container) => T {
  const built = new WeakMap<Container, T>();
  return (container) => {
    let value = built.get(container);
    if (value === undefined) {
      if (needsSecrets && secretsPending(container.config)) {
        throw new Error('provider secrets are not read yet: the entry point must `await container.ready()` before using an engine (D104)');
      }
      value = build(container);
      built.set(container, value);
    }
    return value;
  };
}
