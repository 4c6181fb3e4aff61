import { sampleWorld } from './test/unit/core/planning/queries/world';
const w = await sampleWorld();
for (const r of w.g.recipes.values()) {
  if ([...r.ingredients, ...r.products].some((x) => x.name === 'steam')) console.log(r.name, JSON.stringify(r.ingredients), JSON.stringify(r.products));
}
process.exit(0);
