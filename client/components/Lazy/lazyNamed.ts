import { type ComponentType, type LazyExoticComponent, lazy } from "react";

// biome-ignore lint/suspicious/noExplicitAny: React.lazy's own bound: a component of any props.
type AnyComponent = ComponentType<any>;

/**
 * React.lazy for a module's named export: the component's code is fetched when it first renders,
 * not with the first screen (issue 39). Render it inside a Suspense.
 */
export function lazyNamed<M extends { [name in K]: AnyComponent }, K extends string>(
  load: () => Promise<M>,
  name: K,
): LazyExoticComponent<M[K]> {
  return lazy(async () => ({ default: (await load())[name] }));
}
