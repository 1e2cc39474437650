// The example extension's document parser (docs/extensions.md, "Parsers"): reads the file's JSON
// on stdin, writes { text, metadata } or { error: { reason, message } } on stdout. It runs in its
// own process with a time and an output cap; the workbench never loads it.
import { Buffer } from 'node:buffer';

/** Destinations whose text is not the document's (tables, pictures, fields' instructions …). */
const SKIPPED = new Set([
  'fonttbl',
  'colortbl',
  'stylesheet',
  'listtable',
  'listoverridetable',
  'pict',
  'object',
  'themedata',
  'colorschememapping',
  'latentstyles',
  'datastore',
  'xmlnstbl',
  'rsidtbl',
  'generator',
  'fldinst',
  'header',
  'footer',
  'info',
]);

/** RTF to plain text: paragraphs end at \par, groups nest, unknown control words are dropped. */
export function rtfToText(source) {
  let text = '';
  let title = null;
  const stack = [];
  let state = { skip: false, unicodeSkip: 1, field: null };
  let pendingSkip = 0;
  let index = 0;
  const emit = (value) => {
    if (pendingSkip > 0) {
      pendingSkip -= 1;
      return;
    }
    if (state.field === 'title') title = (title ?? '') + value;
    else if (!state.skip) text += value;
  };
  while (index < source.length) {
    const char = source[index];
    if (char === '{') {
      stack.push(state);
      state = { ...state };
      index += 1;
    } else if (char === '}') {
      state = stack.pop() ?? state;
      index += 1;
    } else if (char === '\\') {
      const next = source[index + 1] ?? '';
      if (next === '\\' || next === '{' || next === '}') {
        emit(next);
        index += 2;
      } else if (next === "'") {
        emit(Buffer.from([parseInt(source.slice(index + 2, index + 4), 16)]).toString('latin1'));
        index += 4;
      } else if (next === '*') {
        state.skip = true;
        index += 2;
      } else if (/[a-z]/i.test(next)) {
        const match = /^\\([a-z]+)(-?\d+)? ?/i.exec(source.slice(index));
        const [whole, word, number] = match;
        index += whole.length;
        if (word === 'title') state.field = 'title';
        else if (SKIPPED.has(word)) state.skip = true;
        else if (word === 'par' || word === 'sect') emit('\n\n');
        else if (word === 'line') emit('\n');
        else if (word === 'tab') emit('\t');
        else if (word === 'uc') state.unicodeSkip = Number(number ?? 1);
        else if (word === 'u') {
          const code = Number(number);
          emit(String.fromCharCode(code < 0 ? code + 65536 : code));
          pendingSkip = state.unicodeSkip;
        }
      } else {
        // A control symbol (\~ non-breaking space, \- optional hyphen …).
        if (next === '~') emit('\u00a0');
        index += 2;
      }
    } else if (char === '\r' || char === '\n') {
      index += 1;
    } else {
      emit(char);
      index += 1;
    }
  }
  return {
    text: text
      .replace(/[ \t]+\n/g, '\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim(),
    title: title?.trim() || null,
  };
}

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const request = JSON.parse(Buffer.concat(chunks).toString('utf8'));
const source = Buffer.from(request.content_base64, 'base64').toString('latin1');
if (!source.startsWith('{\\rtf')) {
  process.stdout.write(
    JSON.stringify({
      error: {
        reason: 'wrong_type',
        message: `${request.name} does not start with {\\rtf: not an RTF file.`,
      },
    }),
  );
} else {
  const { text, title } = rtfToText(source);
  if (text === '')
    process.stdout.write(
      JSON.stringify({ error: { reason: 'empty', message: `${request.name} holds no text.` } }),
    );
  else process.stdout.write(JSON.stringify({ text, metadata: { title }, confidence: 0.95 }));
}
