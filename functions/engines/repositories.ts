/**
 * Repositories only some entry points use, built once per container from its table
 * (`container.dynamo`) on first use. Kept out of the container itself so that the route
 * bundles that never touch them do not carry them (the 250 KB budget); each has its own
 * module for the same reason.
 */
import type { Container } from '../container';

/** A value built once per container on first use (no provider secrets involved, unlike engines/per-container). */
export function memoPerContainer<T>(build: (container: Container) => T): (container: Container) => T {
  const built = new WeakMap<Container, T>();
  return (container) => {
    if (!built.has(container)) built.set(container, build(container));
    return built.get(container)!;
  };
}
