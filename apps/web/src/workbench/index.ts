export { Workbench } from './workbench.tsx';
export { PlanTab, usePlanboard } from './plan-tab.tsx';
export { planboardKey, syncPlanboards } from './planboard-sync.ts';
export { TodosTab } from './todos-tab.tsx';
