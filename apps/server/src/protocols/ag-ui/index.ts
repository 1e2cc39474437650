export { AgUiEventMapper } from './ag-ui-mapper.ts';
export { parseRunAgentInput, runAgUiTurn } from './ag-ui-endpoint.ts';
