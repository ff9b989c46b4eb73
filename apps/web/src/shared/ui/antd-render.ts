import type { ReactElement } from "react";
import { createRoot, type Root } from "react-dom/client";

/**
 * How antd-mobile 5 mounts its imperative overlays (Toast, Dialog, Modal…) under React 19: one `createRoot` per
 * container, kept on the container. main.tsx hands {@link antdRender} to antd-mobile's `unstableSetRender` (without it
 * React 19 renders nothing there), and vite.config.ts points antd-mobile's own default, `rc-util/lib/React/render` (a
 * CommonJS module with Babel's regenerator runtime, ~3.5 KB gzip out of every first screen's size budget), at this
 * module, so the first screen carries one implementation.
 */
type ContainerWithRoot = (Element | DocumentFragment) & { _reactRoot?: Root };

/**
 * Renders `node` into `container`, creating the container's React root on first use.
 * Returns antd-mobile's unmount callback: it unmounts the root a macrotask later (after the closing render) and
 * forgets it.
 */
export function antdRender(node: ReactElement, container: Element | DocumentFragment): () => Promise<void> {
  render(node, container);
  return () => unmount(container);
}

/** rc-util's `render(node, container)`: mounts or updates `node` in the container's own root. */
export function render(node: ReactElement, container: Element | DocumentFragment): void {
  const target = container as ContainerWithRoot;
  target._reactRoot ||= createRoot(target);
  target._reactRoot.render(node);
}

/** rc-util's `unmount(container)`: unmounts the container's root after a macrotask; a no-op without one. */
export async function unmount(container: Element | DocumentFragment): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 0));
  const target = container as ContainerWithRoot;
  target._reactRoot?.unmount();
  delete target._reactRoot;
}
