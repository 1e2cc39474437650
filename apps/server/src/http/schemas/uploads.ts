// The request and response bodies are the contract's (@youyou/contracts), so routes and clients cannot drift.
export { UploadSchema } from '@youyou/contracts';
