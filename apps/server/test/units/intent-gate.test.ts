import { describe, expect, it } from 'vitest';
import { IntentGate, loadExtension, type LoadedExtension } from '../../src/extensions/index.ts';
import { EXAMPLE_EXTENSION } from '../support/example-extension.ts';

async function example(): Promise<LoadedExtension> {
  const loaded = await loadExtension(EXAMPLE_EXTENSION);
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.problems));
  return loaded.extension;
}

/** A gate whose lightweight model answers `reply` and records what it was asked. */
async function gateAnswering(reply: string, set = true) {
  const extension = await example();
  const asked: { systemPrompt: string; text: string }[] = [];
  const gate = new IntentGate(() => [extension], {
    isSet: () => Promise.resolve(set),
    complete: (request) => {
      asked.push({ systemPrompt: request.systemPrompt, text: request.text });
      return Promise.resolve(reply);
    },
  });
  return { gate, asked };
}

const context = { conversationId: 'c1', signal: new AbortController().signal };

describe('the intent gate', () => {
  it('the rules decide first: a keyword match never reaches the model', async () => {
    const { gate, asked } = await gateAnswering('{"intent": null}');
    expect(await gate.match('weather report for Oslo', context)).toMatchObject({
      by: 'rule',
      match: { intent_id: 'weather', slots: { city: 'Oslo' }, missing: [] },
    });
    expect(asked).toEqual([]);
  });

  it("the model's answer counts only for an installed intent, and only its declared slots", async () => {
    const { gate, asked } = await gateAnswering(
      'Sure: {"intent": "weather", "slots": {"city": "Lisbon", "mood": "sunny"}}',
    );
    expect(await gate.match('will it rain in Lisbon?', context)).toMatchObject({
      by: 'model',
      match: { intent_id: 'weather', source: 'extension:example', slots: { city: 'Lisbon' }, missing: [] },
    });
    expect(asked[0]?.systemPrompt).toContain('- weather (extension:example): Weather report for a city');
    const unknown = await gateAnswering('{"intent": "poems", "slots": {}}');
    expect(await unknown.gate.match('write a poem', context)).toBeUndefined();
    const garbled = await gateAnswering('I think it is the weather one');
    expect(await garbled.gate.match('hmm', context)).toBeUndefined();
  });

  it('a slot the model leaves out is missing, to be asked on the form card', async () => {
    const { gate } = await gateAnswering('{"intent": "weather", "slots": {}}');
    const found = await gate.match('what is it like outside?', context);
    expect(found?.match.missing).toEqual(['city']);
    expect(found?.missing.map((slot) => slot.name)).toEqual(['city']);
  });

  it('with the model not set, only the rules decide', async () => {
    const { gate, asked } = await gateAnswering('{"intent": "weather"}', false);
    expect(await gate.match('will it rain in Lisbon?', context)).toBeUndefined();
    expect(asked).toEqual([]);
  });
});
