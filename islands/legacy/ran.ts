// Which page scripts of the module build ran in this browser. Each page script marks itself as it
// starts; islands/legacy/boot.ts (a classic script, run after them) loads the classic build of any
// that did not: the whole module build is skipped where `type="module"` is unknown (Firefox 59) and
// fails to parse where `import()` is (Firefox 60-66).

export const RAN_KEY = "__moduleScriptsRan";

type Scope = { [RAN_KEY]?: Record<string, true> };

export function markRan(name: string, scope: object = self): void {
  const s = scope as Scope;
  (s[RAN_KEY] ??= {})[name] = true;
}

export const hasRun = (name: string, scope: object = self): boolean => (scope as Scope)[RAN_KEY]?.[name] === true;
