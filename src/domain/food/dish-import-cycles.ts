/**
 * The sub-recipe check of the dishes workbook: no dish may end up made of itself through its sub-recipes, within the
 * file or through the recipes the catalogue keeps for the levels the file leaves alone.
 */
import { tidy } from "./cities";
import { foldText } from "../search";

const keyOf = (name: string) => foldText(tidy(name));

/**
 * The sub-recipe lines of the file that make a dish part of itself, once the file is written: each dish's
 * sub-recipes are those of its recipes in the file and of its other levels' recipes in the catalogue. Each cycle is
 * reported once, at the first of its lines the file writes, as the path of dish names.
 */
export function findCycles(
  drafts: ReadonlyMap<string, { name: string; recipes: ReadonlyMap<number, unknown> }>,
  known: {
    dishes: ReadonlyMap<string, { id: number; name: string }>;
    recipes: ReadonlyMap<string, { dishId: number; levelId: number; lines: readonly { subDishId: number | null }[] }>;
  },
  subLines: readonly { row: number; dishKey: string; subKey: string }[],
): { row: number; path: string }[] {
  const nameById = new Map<number, { id: number; name: string }>();
  for (const dish of known.dishes.values()) nameById.set(dish.id, dish);
  const names = new Map<string, string>();
  for (const [key, dish] of known.dishes) names.set(key, dish.name);
  for (const [key, draft] of drafts) names.set(key, draft.name);
  // Edges by dish key.
  const edges = new Map<string, Set<string>>();
  const add = (from: string, to: string) => {
    let set = edges.get(from);
    if (!set) edges.set(from, (set = new Set()));
    set.add(to);
  };
  for (const recipe of known.recipes.values()) {
    const dish = nameById.get(recipe.dishId);
    if (!dish) continue;
    const key = keyOf(dish.name);
    if (drafts.get(key)?.recipes.has(recipe.levelId)) continue; // replaced by the file
    for (const line of recipe.lines) {
      const sub = line.subDishId === null ? undefined : nameById.get(line.subDishId);
      if (sub) add(key, keyOf(sub.name));
    }
  }
  for (const sub of subLines) add(sub.dishKey, sub.subKey);
  // A line closes a cycle when its dish and its sub-recipe are in one strongly connected component (or are one
  // dish); only those lines look for their path back, so a long chain of sub-recipes costs one walk of the graph.
  const component = components(edges);
  const reported = new Set<string>();
  const found: { row: number; path: string }[] = [];
  for (const line of subLines) {
    if (line.dishKey !== line.subKey && (component.get(line.dishKey) ?? -1) !== (component.get(line.subKey) ?? -2))
      continue;
    const path = pathBetween(edges, line.subKey, line.dishKey);
    if (!path) continue;
    const cycle = [line.dishKey, ...path];
    const signature = [...cycle.slice(1)].sort().join("→");
    if (reported.has(signature)) continue;
    reported.add(signature);
    found.push({ row: line.row, path: cycle.map((k) => names.get(k) ?? k).join(" → ") });
  }
  return found;
}

/** Each dish key's strongly connected component (Tarjan's algorithm, walked without recursion). */
function components(edges: Map<string, Set<string>>): Map<string, number> {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const component = new Map<string, number>();
  let next = 0;
  let count = 0;
  for (const root of edges.keys()) {
    if (index.has(root)) continue;
    const work: { key: string; children: Iterator<string> }[] = [];
    const open = (key: string) => {
      index.set(key, next);
      low.set(key, next++);
      stack.push(key);
      onStack.add(key);
      work.push({ key, children: (edges.get(key) ?? new Set<string>()).values() });
    };
    open(root);
    while (work.length) {
      const top = work[work.length - 1];
      const child = top.children.next();
      if (!child.done) {
        if (!index.has(child.value)) open(child.value);
        else if (onStack.has(child.value)) low.set(top.key, Math.min(low.get(top.key)!, index.get(child.value)!));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1].key;
        low.set(parent, Math.min(low.get(parent)!, low.get(top.key)!));
      }
      if (low.get(top.key) === index.get(top.key)) {
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.set(member, count);
        } while (member !== top.key);
        count++;
      }
    }
  }
  return component;
}

/** The shortest path of dish keys from `from` to `to` (both included), or null. */
function pathBetween(edges: Map<string, Set<string>>, from: string, to: string): string[] | null {
  const previous = new Map<string, string | null>([[from, null]]);
  const queue = [from];
  while (queue.length) {
    const at = queue.shift()!;
    if (at === to) {
      const path: string[] = [];
      for (let k: string | null = at; k !== null; k = previous.get(k) ?? null) path.unshift(k);
      return path;
    }
    for (const next of edges.get(at) ?? [])
      if (!previous.has(next)) {
        previous.set(next, at);
        queue.push(next);
      }
  }
  return null;
}
