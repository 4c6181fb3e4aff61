// The planning queries: plain functions (ctx, input) => result over the game index and the
// project's availability. Each input schema lives in schemas.ts; unknown names throw QueryError.
export { QueryError } from './errors';
export * from './schemas';
export { searchGoods, type SearchGoodsResult } from './searchGoods';
export { goodInfo, type GoodInfoResult, type GoodInfoOptions } from './goodInfo';
export { recipeInfo, type RecipeInfoResult } from './recipeInfo';
export { recipeOptions, recipeOptionsBatch, recipeOptionsForModel, recipeOptionsBatchForModel, type RecipeOptionsResult, type RecipeOptionsBatchResult, type RecipeCandidate } from './recipeOptions';
export { recipeGraph, type RecipeGraphResult, type RecipeGraphOptions } from './recipeGraph';
export { calcRecipe, type CalcRecipeResult } from './calcRecipe';
export { researchPath, type ResearchPathResult } from './researchPath';
export { turdChoices, availableTurds, turdConsistency, type TurdChoicesResult, type AvailableTurdsResult, type TurdConsistencyResult, type TurdConsistencyOptions } from './turd';
export { chainStatus, type ChainStatusResult } from './chainStatus';
export { byproductSinks, byproductSinksBatch, byproductSinksForModel, type ByproductSinksResult, type ByproductSinksBatchResult, type ByproductSinksOptions } from './byproductSinks';
export { logisticsFor, type LogisticsResult } from './logisticsFor';
export { goodCost, recipeCost, unitCost } from './cost';
