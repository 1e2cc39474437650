import type { DocumentBlock } from '@youyou/contracts';
import { describe, expect, it } from 'vitest';
import { blockChunker } from '../../src/knowledge/index.ts';

const heading = (level: number, text: string, page?: number): DocumentBlock => ({
  type: 'heading',
  level,
  text,
  location: page === undefined ? {} : { page },
});
const paragraph = (text: string, page?: number): DocumentBlock => ({
  type: 'paragraph',
  text,
  location: page === undefined ? {} : { page },
});

describe('block chunker', () => {
  it('carries the heading path and starts a new chunk at each heading', () => {
    const chunks = blockChunker.chunk([
      heading(1, 'Annual report'),
      paragraph('Intro text.'),
      heading(2, 'Revenue'),
      paragraph('Revenue grew.'),
      heading(3, 'Q3'),
      paragraph('Q3 was best.'),
      heading(2, 'Costs'),
      paragraph('Costs fell.'),
    ]);
    expect(chunks.map((chunk) => chunk.heading_path)).toEqual([
      ['Annual report'],
      ['Annual report', 'Revenue'],
      ['Annual report', 'Revenue', 'Q3'],
      ['Annual report', 'Costs'],
    ]);
    expect(chunks[2]).toMatchObject({ text: 'Q3\n\nQ3 was best.', block_start: 4, block_end: 5, ordinal: 2 });
  });

  it('keeps consecutive headings in one chunk with the innermost path', () => {
    const chunks = blockChunker.chunk([
      heading(1, '报告'),
      heading(2, '营收'),
      paragraph('三季度营收增长。'),
    ]);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]).toMatchObject({ heading_path: ['报告', '营收'], block_start: 0, block_end: 2 });
  });

  it('never cuts a table row and repeats the header row in a continued chunk', () => {
    const rows = Array.from({ length: 40 }, (_, index) => [`item-${index}`, 'x'.repeat(30), String(index)]);
    const chunks = blockChunker.chunk(
      [
        heading(1, 'Stock'),
        { type: 'table', header: ['Name', 'Note', 'Qty'], rows, location: { sheet: 'Stock' } },
      ],
      { target_chars: 300, overlap_chars: 50, max_chars: 1000 },
    );
    expect(chunks.length).toBeGreaterThan(3);
    const seen: string[] = [];
    for (const chunk of chunks) {
      expect(chunk.location).toEqual({ sheet: 'Stock' });
      expect(chunk.text).toContain('| Name | Note | Qty |');
      for (const line of chunk.text.split('\n')) {
        if (line.startsWith('| item-')) {
          expect(line).toMatch(/^\| item-\d+ \| x{30} \| \d+ \|$/);
          seen.push(line);
        }
      }
    }
    // Every row once: rows are not carried as overlap.
    expect(seen).toHaveLength(40);
    expect(new Set(seen).size).toBe(40);
  });

  it('never cuts a code block, even one over the size limit', () => {
    const code = Array.from({ length: 80 }, (_, index) => `const line${index} = ${index};`).join('\n');
    const chunks = blockChunker.chunk(
      [
        paragraph('Before the code.'),
        { type: 'code', language: 'ts', text: code, location: {} },
        paragraph('After.'),
      ],
      { target_chars: 200, overlap_chars: 0, max_chars: 500 },
    );
    const withCode = chunks.filter((chunk) => chunk.text.includes('const line0'));
    expect(withCode).toHaveLength(1);
    expect(withCode[0]?.text).toContain('const line79 = 79;');
    expect(withCode[0]?.text).toContain('```ts\n');
    expect(withCode[0]).toMatchObject({ block_start: 1, block_end: 1 });
  });

  it('overlaps consecutive chunks of a section by whole sentences', () => {
    const text = Array.from({ length: 30 }, (_, index) => `Sentence number ${index} is here.`).join(' ');
    const chunks = blockChunker.chunk([paragraph(text, 4)], {
      target_chars: 200,
      overlap_chars: 70,
      max_chars: 1000,
    });
    expect(chunks.length).toBeGreaterThan(3);
    for (let index = 1; index < chunks.length; index += 1) {
      const previous = chunks[index - 1]?.text ?? '';
      const first = /^Sentence number \d+ is here\./.exec(chunks[index]?.text ?? '')?.[0];
      expect(first).toBeDefined();
      expect(previous).toContain(first);
    }
    expect(chunks.every((chunk) => chunk.location.page === 4)).toBe(true);
    expect(chunks.every((chunk) => chunk.text.length <= 200 + 40)).toBe(true);
  });

  it('splits Chinese text between sentences', () => {
    const text = '第一句话很长很长。'.repeat(40);
    const chunks = blockChunker.chunk([paragraph(text)], {
      target_chars: 100,
      overlap_chars: 0,
      max_chars: 400,
    });
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks) expect(chunk.text.endsWith('。')).toBe(true);
  });

  it('records the page of each chunk and the block range it covers', () => {
    const chunks = blockChunker.chunk(
      [
        paragraph('a'.repeat(150), 1),
        { type: 'page_break', location: { page: 1 } },
        paragraph('b'.repeat(150), 2),
      ],
      { target_chars: 200, overlap_chars: 0, max_chars: 400 },
    );
    expect(chunks.map((chunk) => [chunk.location.page, chunk.block_start, chunk.block_end])).toEqual([
      [1, 0, 0],
      [2, 2, 2],
    ]);
  });

  it('an empty document or one with only images without text gives no chunks', () => {
    expect(blockChunker.chunk([])).toEqual([]);
    expect(
      blockChunker.chunk([{ type: 'image_ref', alt: null, target: 'media/a.png', location: {} }]),
    ).toEqual([]);
  });
});
