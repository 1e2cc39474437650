import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PlanboardView, TodoItem, TodoUpdatePayload } from '@youyou/contracts';
import { useState, type ReactElement } from 'react';
import { errorMessage } from '../api/index.ts';
import { useTranslation } from '../i18n/index.ts';
import { EditIcon, TrashIcon } from '../icons/index.ts';
import { useNavigation } from '../navigation/index.ts';
import { useServices } from '../services/index.ts';
import { usePlanboard } from './plan-tab.tsx';
import { planboardKey } from './planboard-sync.ts';

function TodoRow(props: {
  todo: TodoItem;
  busy: boolean;
  onToggle: () => void;
  onEdit: (text: string) => void;
  onRemove: () => void;
}): ReactElement {
  const { todo, busy, onToggle, onEdit, onRemove } = props;
  const t = useTranslation();
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(todo.text);
  const save = (): void => {
    setEditing(false);
    if (text.trim() !== '' && text.trim() !== todo.text) onEdit(text.trim());
  };
  return (
    <li className={`todo-item${todo.done ? ' done' : ''}`} data-testid="todo-item" data-todo-id={todo.id}>
      <input
        type="checkbox"
        checked={todo.done}
        disabled={busy}
        onChange={onToggle}
        aria-label={todo.text}
        data-testid="todo-checkbox"
      />
      {editing ? (
        <input
          className="todo-edit"
          value={text}
          autoFocus
          aria-label={t('todos.edit', { text: todo.text })}
          onChange={(event) => setText(event.target.value)}
          onBlur={save}
          onKeyDown={(event) => {
            if (event.key === 'Enter') save();
            if (event.key === 'Escape') {
              setText(todo.text);
              setEditing(false);
            }
          }}
        />
      ) : (
        <span className="todo-text" onDoubleClick={() => setEditing(true)}>
          {todo.text}
        </span>
      )}
      <button
        type="button"
        className="icon-button"
        aria-label={t('todos.edit', { text: todo.text })}
        onClick={() => setEditing(true)}
      >
        <EditIcon size={14} />
      </button>
      <button
        type="button"
        className="icon-button"
        aria-label={t('todos.remove', { text: todo.text })}
        onClick={onRemove}
      >
        <TrashIcon size={14} />
      </button>
    </li>
  );
}

/**
 * The Todos tab: the conversation's todos, live; the user ticks, edits, adds and removes them, and
 * the agent is told at its next step.
 */
export function TodosTab(): ReactElement {
  const t = useTranslation();
  const { api } = useServices();
  const queryClient = useQueryClient();
  const conversationId = useNavigation((state) => state.conversationId);
  const board = usePlanboard(conversationId);
  const [draft, setDraft] = useState('');
  const apply = (payload: TodoUpdatePayload): void => {
    if (conversationId === undefined) return;
    queryClient.setQueryData<PlanboardView>(planboardKey(conversationId), (current) =>
      current !== undefined && current.todos.version >= payload.version
        ? current
        : {
            plan: current?.plan ?? { steps: [], version: 0 },
            todos: { items: payload.todos, version: payload.version },
          },
    );
  };
  const change = useMutation({
    mutationFn: (action: () => Promise<TodoUpdatePayload>) => action(),
    onSuccess: apply,
  });
  if (conversationId === undefined) return <p className="empty-state">{t('workbench.todosEmpty')}</p>;
  const items = board.data?.todos.items ?? [];
  const open = items.filter((todo) => !todo.done).length;
  const add = (): void => {
    const text = draft.trim();
    if (text === '') return;
    setDraft('');
    change.mutate(() => api.addTodo(conversationId, text));
  };
  return (
    <div className="todos-tab" data-testid="todos-tab">
      {items.length === 0 ? (
        <p className="empty-state">{t('workbench.todosEmpty')}</p>
      ) : (
        <>
          <div className="todos-summary">{t('todos.open', { open, total: items.length })}</div>
          <ul className="todo-list">
            {items.map((todo) => (
              <TodoRow
                key={todo.id}
                todo={todo}
                busy={change.isPending}
                onToggle={() =>
                  change.mutate(() => api.updateTodo(conversationId, todo.id, { done: !todo.done }))
                }
                onEdit={(text) => change.mutate(() => api.updateTodo(conversationId, todo.id, { text }))}
                onRemove={() => change.mutate(() => api.removeTodo(conversationId, todo.id))}
              />
            ))}
          </ul>
        </>
      )}
      <form
        className="todo-add"
        onSubmit={(event) => {
          event.preventDefault();
          add();
        }}
      >
        <input
          value={draft}
          placeholder={t('todos.add')}
          aria-label={t('todos.add')}
          onChange={(event) => setDraft(event.target.value)}
          data-testid="todo-add-input"
        />
        <button type="submit" className="button" disabled={draft.trim() === ''}>
          {t('todos.addButton')}
        </button>
      </form>
      {change.error !== null && (
        <p className="field-error" role="alert">
          {t('common.error', { message: errorMessage(change.error) })}
        </p>
      )}
      <p className="todos-hint">{t('todos.toldNext')}</p>
    </div>
  );
}
