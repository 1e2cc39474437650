import 'katex/dist/katex.min.css';
import rehypeKatex from 'rehype-katex';
import remarkMath from 'remark-math';

/** Loaded only when a message has math (see needsMath): KaTeX and its CSS are a separate chunk. */
export const mathPlugins = { remarkMath, rehypeKatex };
