import type { Container } from '../container';

/**
 * An engine built once per container (once per cold start on AWS, once per local stack):
 * the first call builds it from the container's settings, later calls reuse it.
 */
export function perContainer<T>(build: (container: Container) => T): (container: Container) => T {
  const built = new WeakMap<Container, T>();
  return (container) => {
    let value = built.get(container);
    if (value === undefined) {
      value = build(container);
      built.set(container, value);
    }
    return value;
  };
}
