import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MemoryCandidate } from '@youyou/contracts';
import { useState, type ReactElement } from 'react';
import { useTranslation } from '../i18n/index.ts';
import { useOptionalServices, useServices } from '../services/index.ts';
import { MEMORY_KEY, memoryCandidatesKey, useMemoryCandidates } from './memory-queries.ts';
import { memoryErrorText } from './message-memory-actions.tsx';
import './memory.css';

function CandidateCard({ candidate }: { candidate: MemoryCandidate }): ReactElement {
  const t = useTranslation();
  const { api } = useServices();
  const queryClient = useQueryClient();
  const [content, setContent] = useState(candidate.content);
  const decide = useMutation({
    mutationFn: (accept: boolean) =>
      api.decideMemoryCandidate(candidate.id, accept ? { accept, content } : { accept }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: memoryCandidatesKey(candidate.conversation_id) });
      void queryClient.invalidateQueries({ queryKey: MEMORY_KEY });
    },
  });
  const pending = candidate.status === 'pending';
  return (
    <section
      className={`hitl-card memory-candidate ${pending ? 'pending' : 'answered'}`}
      aria-label={t('memory.candidates')}
      data-testid="memory-candidate"
      data-status={candidate.status}
    >
      <header className="hitl-header">
        <span className="hitl-question">{t('memory.candidates')}</span>
        <span className="hitl-badge">{t(`memory.type.${candidate.type}`)}</span>
      </header>
      {pending ? (
        <>
          <p className="field-hint">{t('memory.candidateHint')}</p>
          <textarea
            className="memory-candidate-text"
            aria-label={t('memory.content')}
            value={content}
            rows={2}
            onChange={(event) => setContent(event.target.value)}
          />
          <div className="hitl-actions">
            <button
              type="button"
              className="button primary"
              disabled={decide.isPending || content.trim() === ''}
              onClick={() => decide.mutate(true)}
            >
              {t('memory.accept')}
            </button>
            <button
              type="button"
              className="button"
              disabled={decide.isPending}
              onClick={() => decide.mutate(false)}
            >
              {t('memory.reject')}
            </button>
          </div>
          {decide.error !== null && (
            <p className="form-error" role="alert">
              {memoryErrorText(t, decide.error)}
            </p>
          )}
        </>
      ) : (
        <p className="memory-candidate-outcome">
          {candidate.status === 'accepted' ? t('memory.accepted') : t('memory.rejected')}: {candidate.content}
        </p>
      )}
    </section>
  );
}

/**
 * The confirm cards of memories the lightweight model proposed after this message's run (spec
 * §4.13): each is stored only when the user accepts it (optionally edited), and never otherwise.
 */
export function MemoryCandidateCards(props: { conversationId: string; runId: string }): ReactElement | null {
  // A message drawn outside the app (a test, an export preview) has no server to ask.
  return useOptionalServices() === undefined ? null : <CandidateList {...props} />;
}

function CandidateList({
  conversationId,
  runId,
}: {
  conversationId: string;
  runId: string;
}): ReactElement | null {
  const candidates = useMemoryCandidates(conversationId);
  const mine = (candidates.data ?? []).filter((candidate) => candidate.run_id === runId);
  if (mine.length === 0) return null;
  return (
    <div className="memory-candidates">
      {mine.map((candidate) => (
        <CandidateCard key={candidate.id} candidate={candidate} />
      ))}
    </div>
  );
}
