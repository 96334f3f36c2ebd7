// "island-loaders" is generated at bundle time by scripts/build-client.ts: one
// `Name: () => import("islands/Name.tsx")` per island file that exists.
declare module "island-loaders" {
  import type { ComponentType } from "react";
  export const islandLoaders: Record<string, () => Promise<{ default: ComponentType<object> }>>;
}
