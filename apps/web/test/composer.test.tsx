// @vitest-environment happy-dom
import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ServicesProvider } from '../src/services/index.ts';
import { Composer, useComposerStore, type ComposerSubmission } from '../src/composer/index.ts';
import { usePreferences } from '../src/preferences/index.ts';
import type { CommandDescriptor, DocumentView } from '@youyou/contracts';
import type { ApiClient } from '../src/api/index.ts';
import { useNavigation } from '../src/navigation/index.ts';
import { fakeApi, skillEntry, testServices, uploadOf } from './fake-api.ts';

// The command registry the server's own endpoint answers with (skills and built-ins).
const COMMANDS: CommandDescriptor[] = [
  {
    name: 'haiku',
    source: 'skill',
    action: 'skill',
    description: { en: 'Answer in a haiku.', 'zh-CN': 'Answer in a haiku.' },
    parameters: [],
  },
  {
    name: 'new',
    source: 'builtin',
    action: 'client',
    description: { en: 'Start a new conversation', 'zh-CN': '新建会话' },
    parameters: [],
  },
];

afterEach(() => {
  cleanup();
});
beforeEach(() => {
  usePreferences.getState().set({ sendKey: 'enter', language: 'en' });
  useComposerStore.setState({ drafts: {}, attachments: {} });
});

function renderComposer(
  props: {
    running?: boolean;
    vision?: boolean;
    onSend?: (submission: ComposerSubmission) => Promise<void>;
    onStop?: () => void;
    api?: Partial<ApiClient>;
  } = {},
) {
  const api = fakeApi({
    listCommands: () => Promise.resolve(COMMANDS),
    listMacros: () => Promise.resolve([]),
    listProfiles: () => Promise.resolve([]),
    listSnippets: () => Promise.resolve([]),
    listComponents: () =>
      Promise.resolve({ components: [skillEntry('haiku', 'Answer in a haiku.')], diagnostics: [] }),
    listModels: () =>
      Promise.resolve({
        models: [
          {
            id: 'fake/m',
            provider: 'fake',
            display_name: 'm',
            provider_id: 'fake',
            provider_name: 'fake',
            name: 'm',
            ...(props.vision === undefined ? {} : { capabilities: { vision: props.vision } }),
          },
        ],
        default_model: 'fake/m',
        default_model_id: 'fake/m',
      }),
    upload: (file) => Promise.resolve(uploadOf(file.name)),
    ...props.api,
  });
  const services = testServices(api);
  const onSend = vi.fn(props.onSend ?? (() => Promise.resolve()));
  const onStop = vi.fn(props.onStop);
  render(
    <QueryClientProvider client={services.queryClient}>
      <ServicesProvider services={services}>
        <Composer
          draftKey="c1"
          running={props.running ?? false}
          onSend={onSend}
          onStop={onStop}
          onNewConversation={vi.fn()}
        />
      </ServicesProvider>
    </QueryClientProvider>,
  );
  return { input: screen.getByRole('textbox', { name: 'Message' }), onSend, onStop };
}

describe('Composer and what the chosen model accepts', () => {
  it('an image for a model without vision is marked with the reason, and sending waits', async () => {
    const { input, onSend } = renderComposer({ vision: false });
    const file = new File(['png'], 'photo.png', { type: 'image/png' });
    const picker = document.querySelector<HTMLInputElement>('input[type="file"]');
    if (picker === null) throw new Error('no file input');
    fireEvent.change(picker, { target: { files: [file] } });
    await screen.findByTestId('attachment-unsupported');
    expect(screen.getByTestId('attachment-unsupported').textContent).toContain('cannot read images');
    fireEvent.change(input, { target: { value: 'what is in it?' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(onSend).not.toHaveBeenCalled();
  });
});

describe('Composer', () => {
  it('a send that fails puts the text back in the composer, so nothing typed is lost', async () => {
    const { input, onSend } = renderComposer({
      onSend: () => Promise.reject(new Error('No model is set up yet')),
    });
    fireEvent.change(input, { target: { value: 'my long question' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(onSend).toHaveBeenCalledTimes(1);
    await waitFor(() => expect((input as HTMLTextAreaElement).value).toBe('my long question'));
  });

  it('Enter sends, Shift+Enter does not, and the input empties', () => {
    const { input, onSend } = renderComposer();
    fireEvent.change(input, { target: { value: 'hello' } });
    fireEvent.keyDown(input, { key: 'Enter', shiftKey: true });
    expect(onSend).not.toHaveBeenCalled();
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(onSend).toHaveBeenCalledWith({ text: 'hello', attachments: [], skills: [] });
    expect((input as HTMLTextAreaElement).value).toBe('');
  });

  it('with the Ctrl+Enter preference, Enter is a new line and Ctrl+Enter sends', () => {
    usePreferences.getState().set({ sendKey: 'ctrl-enter' });
    const { input, onSend } = renderComposer();
    fireEvent.change(input, { target: { value: 'hello' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(onSend).not.toHaveBeenCalled();
    fireEvent.keyDown(input, { key: 'Enter', ctrlKey: true });
    expect(onSend).toHaveBeenCalledTimes(1);
  });

  it('never sends while an input method is composing', () => {
    const { input, onSend } = renderComposer();
    fireEvent.change(input, { target: { value: '你好' } });
    fireEvent.keyDown(input, { key: 'Enter', isComposing: true, keyCode: 229 });
    expect(onSend).not.toHaveBeenCalled();
  });

  it('shows Stop while a run is in flight', () => {
    const { onStop } = renderComposer({ running: true });
    fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    expect(onStop).toHaveBeenCalled();
    expect(screen.queryByRole('button', { name: 'Send' })).toBeNull();
    fireEvent.keyDown(screen.getByRole('textbox', { name: 'Message' }), { key: 'Escape' });
    expect(onStop).toHaveBeenCalledTimes(2);
  });

  it('/ opens the palette of skills and commands; Enter picks; the skill is sent as an invocation', async () => {
    const { input, onSend } = renderComposer();
    fireEvent.change(input, { target: { value: '/ha' } });
    const option = await screen.findByRole('option', { name: /haiku/ });
    expect(option.textContent).toContain('Answer in a haiku.');
    expect(input.getAttribute('aria-activedescendant')).toBe(option.id);
    fireEvent.keyDown(input, { key: 'Enter' });
    expect((input as HTMLTextAreaElement).value).toBe('/haiku ');
    expect(screen.queryByRole('listbox')).toBeNull();
    fireEvent.change(input, { target: { value: '/haiku autumn' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(onSend).toHaveBeenCalledWith({
      text: 'autumn',
      attachments: [],
      skills: [{ name: 'haiku', arguments: 'autumn' }],
    });
  });

  it('uploads picked files, shows them, sends their ids; refuses bad types inline', async () => {
    const { input, onSend } = renderComposer();
    const picker = screen.getByTestId('file-input');
    await act(async () => {
      fireEvent.change(picker, {
        target: {
          files: [
            new File(['notes'], 'notes.txt', { type: 'text/plain' }),
            new File(['MZ'], 'tool.exe', { type: 'application/x-msdownload' }),
          ],
        },
      });
    });
    expect(screen.getByText('notes.txt')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('tool.exe: this file type is not supported.');
    await waitFor(() => expect(screen.getByText('5 B')).toBeTruthy());
    fireEvent.change(input, { target: { value: 'read this' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(onSend).toHaveBeenCalledWith({ text: 'read this', attachments: ['upload-notes.txt'], skills: [] });
  });
});

describe('Composer in a project conversation', () => {
  afterEach(() => useNavigation.setState({ projectId: undefined }));

  it('a file kept to the conversation is uploaded and then its document is patched to the conversation scope', async () => {
    useNavigation.setState({ projectId: 'p1' });
    const uploads: { name: string; scope: string | undefined }[] = [];
    const scopes: { id: string; scope: string }[] = [];
    const documentOf = (scope: 'project' | 'conversation') =>
      ({
        id: 'd1',
        upload_id: 'upload-notes.txt',
        status: 'parsed',
        progress: null,
        failure: null,
        metadata: null,
        knowledge_scope: scope,
      }) as DocumentView;
    renderComposer({
      api: {
        upload: (file, options) => {
          uploads.push({ name: file.name, scope: options?.knowledgeScope });
          return Promise.resolve(uploadOf(file.name));
        },
        getUploadDocument: () => Promise.resolve(documentOf('project')),
        setDocumentKnowledgeScope: (id, scope) => {
          scopes.push({ id, scope });
          return Promise.resolve(documentOf(scope));
        },
      },
    });
    await act(async () => {
      fireEvent.change(screen.getByTestId('file-input'), {
        target: { files: [new File(['notes'], 'notes.txt', { type: 'text/plain' })] },
      });
    });
    expect(uploads).toEqual([{ name: 'notes.txt', scope: 'project' }]);
    const toggle = await screen.findByRole('checkbox', { name: /Only this conversation/ });
    await waitFor(() => expect(screen.getByText('5 B')).toBeTruthy());
    await act(async () => {
      fireEvent.click(toggle);
    });
    await waitFor(() => expect(scopes).toEqual([{ id: 'd1', scope: 'conversation' }]));
    expect((toggle as HTMLInputElement).checked).toBe(true);
  });

  it('outside a project a file has no scope toggle', async () => {
    renderComposer();
    await act(async () => {
      fireEvent.change(screen.getByTestId('file-input'), {
        target: { files: [new File(['notes'], 'notes.txt', { type: 'text/plain' })] },
      });
    });
    expect(screen.queryByTestId('attachment-scope')).toBeNull();
  });
});
