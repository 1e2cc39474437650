export { Workbench } from './workbench.tsx';
