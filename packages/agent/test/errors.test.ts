import {
  AGENT_ERROR_CODES,
  AgentError,
  isAgentError,
  type AgentErrorCode,
  type AgentErrorSource,
} from '@youyou/agent';
import { describe, expect, it } from 'vitest';

/** The source each code reports when none is given (spec §10: agent / provider / tool / plugin / storage). */
const EXPECTED_SOURCE: Record<AgentErrorCode, AgentErrorSource> = {
  NO_MODEL_PROVIDER: 'agent',
  NAME_CONFLICT: 'agent',
  SKILL_DEPENDENCY_NOT_MET: 'agent',
  PLUGIN_INIT_FAILED: 'plugin',
  CONFIG_PARSE_ERROR: 'agent',
  STORAGE_DUPLICATE: 'storage',
  SESSION_BUSY: 'agent',
  MODEL_NOT_SUPPORTED: 'provider',
  PROVIDER_ERROR: 'provider',
  TOOL_EXECUTION_ERROR: 'tool',
  TOOL_TIMEOUT: 'tool',
  TOOL_NOT_FOUND: 'tool',
  SKILL_NOT_FOUND: 'agent',
  SESSION_NOT_FOUND: 'storage',
  STORAGE_ERROR: 'storage',
  MAX_TOOL_CALLS_EXCEEDED: 'agent',
  COMPACT_ERROR: 'agent',
  REQUEST_CANCELLED: 'agent',
  FILE_TOO_LARGE: 'agent',
  PATH_NOT_ALLOWED: 'agent',
  INVALID_INPUT: 'agent',
  HOOK_ABORTED: 'plugin',
  PLUGIN_NOT_FOUND: 'plugin',
  CONTEXT_BUDGET_EXCEEDED: 'agent',
};

describe('AgentError (spec §10)', () => {
  it('every code of spec §10 exists', () => {
    const spec: AgentErrorCode[] = [
      'NO_MODEL_PROVIDER',
      'NAME_CONFLICT',
      'SKILL_DEPENDENCY_NOT_MET',
      'PLUGIN_INIT_FAILED',
      'CONFIG_PARSE_ERROR',
      'STORAGE_DUPLICATE',
      'SESSION_BUSY',
      'MODEL_NOT_SUPPORTED',
      'PROVIDER_ERROR',
      'TOOL_EXECUTION_ERROR',
      'TOOL_TIMEOUT',
      'TOOL_NOT_FOUND',
      'SKILL_NOT_FOUND',
      'SESSION_NOT_FOUND',
      'STORAGE_ERROR',
      'MAX_TOOL_CALLS_EXCEEDED',
      'COMPACT_ERROR',
      'REQUEST_CANCELLED',
      'FILE_TOO_LARGE',
      'PATH_NOT_ALLOWED',
    ];
    expect(AGENT_ERROR_CODES).toEqual(expect.arrayContaining(spec));
    expect(new Set(AGENT_ERROR_CODES).size).toBe(AGENT_ERROR_CODES.length);
  });

  it('carries code, message, name and an empty details object by default', () => {
    const error = new AgentError('SESSION_BUSY', 'A session is already open.');
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe('SESSION_BUSY');
    expect(error.message).toBe('A session is already open.');
    expect(error.name).toBe('AgentError');
    expect(error.details).toEqual({});
    expect(error.cause).toBeUndefined();
    expect(String(error)).toBe('AgentError: A session is already open.');
  });

  it.each(AGENT_ERROR_CODES)('%s has the default retryable and source of its code', (code) => {
    const error = new AgentError(code, 'x');
    expect(error.retryable).toBe(code === 'PROVIDER_ERROR' || code === 'STORAGE_ERROR');
    expect(error.source).toBe(EXPECTED_SOURCE[code]);
  });

  it('retryable, source, cause and details can be given explicitly', () => {
    const cause = new Error('socket hang up');
    const error = new AgentError('PROVIDER_ERROR', 'The provider failed.', {
      retryable: false,
      source: 'agent',
      cause,
      details: { status: 400 },
    });
    expect(error).toMatchObject({ retryable: false, source: 'agent', details: { status: 400 } });
    expect(error.cause).toBe(cause);
    expect(new AgentError('TOOL_EXECUTION_ERROR', 'flaky', { retryable: true }).retryable).toBe(true);
  });

  it('toJSON gives code, message, retryable and source, and details only when there are some', () => {
    const plain = new AgentError('SKILL_NOT_FOUND', "There is no skill named '/x'.", {
      cause: new Error('hidden'),
    });
    expect(plain.toJSON()).toEqual({
      code: 'SKILL_NOT_FOUND',
      message: "There is no skill named '/x'.",
      retryable: false,
      source: 'agent',
    });
    const detailed = new AgentError('FILE_TOO_LARGE', 'Too big.', { details: { limitBytes: 10 } });
    expect(detailed.toJSON()).toEqual({
      code: 'FILE_TOO_LARGE',
      message: 'Too big.',
      retryable: false,
      source: 'agent',
      details: { limitBytes: 10 },
    });
    expect(JSON.parse(JSON.stringify(detailed))).toEqual(detailed.toJSON());
  });

  describe('fromUnknown', () => {
    it('passes an AgentError through unchanged, ignoring the fallback', () => {
      const original = new AgentError('TOOL_TIMEOUT', 'Too slow.');
      const wrapped = AgentError.fromUnknown(original, 'PROVIDER_ERROR', {
        source: 'provider',
        retryable: true,
      });
      expect(wrapped).toBe(original);
      expect(wrapped).toMatchObject({ code: 'TOOL_TIMEOUT', source: 'tool', retryable: false });
    });

    it('wraps an Error with the fallback code, its message, and the original as cause', () => {
      const original = new TypeError('fetch failed');
      const wrapped = AgentError.fromUnknown(original, 'PROVIDER_ERROR');
      expect(wrapped).toBeInstanceOf(AgentError);
      expect(wrapped).toMatchObject({
        code: 'PROVIDER_ERROR',
        message: 'fetch failed',
        retryable: true,
        source: 'provider',
      });
      expect(wrapped.cause).toBe(original);
    });

    it('wraps a thrown non-Error with its string form', () => {
      const wrapped = AgentError.fromUnknown('disk full', 'STORAGE_ERROR');
      expect(wrapped).toMatchObject({
        code: 'STORAGE_ERROR',
        message: 'disk full',
        retryable: true,
        source: 'storage',
      });
      expect(wrapped.cause).toBe('disk full');
      expect(AgentError.fromUnknown(undefined, 'TOOL_EXECUTION_ERROR').message).toBe('undefined');
    });

    it('applies the given options to a wrapped error', () => {
      const wrapped = AgentError.fromUnknown(new Error('EACCES'), 'STORAGE_ERROR', {
        retryable: false,
        source: 'agent',
        details: { path: '/x' },
      });
      expect(wrapped).toMatchObject({ retryable: false, source: 'agent', details: { path: '/x' } });
    });
  });

  describe('isAgentError', () => {
    it('is true for an AgentError and false for anything else', () => {
      expect(isAgentError(new AgentError('SESSION_BUSY', 'busy'))).toBe(true);
      expect(isAgentError(new Error('plain'))).toBe(false);
      expect(isAgentError({ code: 'SESSION_BUSY', message: 'looks alike' })).toBe(false);
      expect(isAgentError(undefined)).toBe(false);
      expect(isAgentError('SESSION_BUSY')).toBe(false);
    });

    it('narrows by code when one is given', () => {
      const error: unknown = new AgentError('SESSION_BUSY', 'busy');
      expect(isAgentError(error, 'SESSION_BUSY')).toBe(true);
      expect(isAgentError(error, 'SESSION_NOT_FOUND')).toBe(false);
      if (isAgentError(error, 'SESSION_BUSY')) expect(error.retryable).toBe(false);
    });
  });
});
