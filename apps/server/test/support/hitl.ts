import type { HitlCardView } from '@youyou/contracts';
import type { TestServer } from './test-server.ts';

/** Waits (test-side polling) until the conversation has a card waiting, and returns it. */
export async function waitingCard(server: TestServer, conversationId: string): Promise<HitlCardView> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const { cards } = await server.call<{ cards: HitlCardView[] }>(
      'GET',
      `/api/conversations/${conversationId}/cards?status=pending`,
    );
    const card = cards[0];
    if (card !== undefined) return card;
    if (Date.now() > deadline) throw new Error('no card appeared');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The §4.5 example card. */
export const FORMAT_CARD = {
  question: '采用哪种输出格式？',
  kind: 'choice',
  choices: [
    {
      id: 'md',
      label: 'Markdown 文档',
      description: '生成可版本管理的轻量文档',
      impact: '写入 artifacts 并可在右栏查看；后续修订走 diff',
      recommended: true,
    },
    {
      id: 'docx',
      label: 'Word 文档',
      description: '便于离线分发',
      impact: '生成 .docx 文件，修订需重新生成',
    },
  ],
  allowFreeInput: true,
  freeInputHint: '也可以直接输入你的问题或别的格式要求',
  timeoutSec: null,
} as const;
