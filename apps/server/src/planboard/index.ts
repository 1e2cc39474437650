export { PlanboardRepository } from './planboard-repository.ts';
export { describeTodoChanges, planboardPlugin, updatePlanTool, updateTodosTool } from './planboard-tools.ts';
