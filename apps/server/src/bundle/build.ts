// `npm run build -w @youyou/server`: writes dist/youyou-server.mjs.
import { buildServerBundle } from './build-bundle.ts';

const started = performance.now();
const { outfile, bytes } = await buildServerBundle(process.argv[2]);
process.stdout.write(
  `${outfile}: ${(bytes / 1_000_000).toFixed(1)} MB in ${Math.round(performance.now() - started)} ms\n`,
);
