export { FirstRun, OLLAMA_BASE_URL } from './first-run.tsx';
