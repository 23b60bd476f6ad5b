import { describe, expect, it } from 'vitest';
import { inspect } from 'node:util';
import { createExtractionProvider } from '../../../../adapters/extraction/create-extraction-provider.js';
import type { ExtractionProvider } from '../../../../adapters/extraction/extraction-provider.js';
import { LanguageModelExtractionProvider } from '../../../../adapters/providers/llm/extraction.provider.js';
import { ConfigError, loadConfig } from '../../../../config/schema.js';

const KEY = 'sk-extraction-config-4b7e2a9c1d';
const offline: ExtractionProvider = { name: 'offline', extract: () => Promise.reject(new Error('not used')) };

describe('extraction engine configuration', () => {
  it('EXTRACTION_PROVIDER is offline by default; openai uses the LLM_API_* settings even with LLM_PROVIDER=none', () => {
    expect(loadConfig({}).extraction).toEqual({ provider: 'offline' });
    expect(loadConfig({ EXTRACTION_PROVIDER: '', LLM_API_KEY: KEY }).extraction).toEqual({ provider: 'offline' });
    const c = loadConfig({
      EXTRACTION_PROVIDER: 'openai',
      LLM_API_BASE_URL: 'https://llm.example.com/v1/',
      LLM_API_KEY: KEY,
      LLM_API_MODEL: 'gpt-4.1-mini',
    });
    expect(c.extraction).toEqual({
      provider: 'openai',
      api: { baseUrl: 'https://llm.example.com/v1', model: 'gpt-4.1-mini', timeoutMs: 120_000 },
    });
    expect(c.extraction.api?.apiKey).toBe(KEY);
    expect(c.llm).toEqual({ provider: 'none' });
    expect(JSON.stringify(c)).not.toContain(KEY);
    expect(inspect(c, { depth: 10 })).not.toContain(KEY);
    // Meeting summaries on, extraction offline: the API is the summaries' only.
    const both = loadConfig({
      LLM_PROVIDER: 'openai',
      LLM_API_BASE_URL: 'https://llm.example.com/v1',
      LLM_API_KEY: KEY,
    });
    expect(both.extraction).toEqual({ provider: 'offline' });
    expect(both.llm.api?.baseUrl).toBe('https://llm.example.com/v1');
    expect(() => loadConfig({ EXTRACTION_PROVIDER: 'local' })).toThrow(/EXTRACTION_PROVIDER/);
    try {
      loadConfig({ EXTRACTION_PROVIDER: 'openai', LLM_API_KEY: KEY });
      expect.unreachable('a missing base URL is refused');
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      expect(String(e)).toContain('LLM_API_BASE_URL: required with EXTRACTION_PROVIDER=openai');
      expect(String(e)).not.toContain(KEY);
    }
  });

  it('createExtractionProvider: the injected offline engine for offline, the language-model engine for openai', () => {
    expect(createExtractionProvider({ provider: 'offline' }, { offline })).toBe(offline);
    let built = 0;
    expect(createExtractionProvider({ provider: 'offline' }, { offline: () => (built++, offline) })).toBe(offline);
    const c = loadConfig({
      EXTRACTION_PROVIDER: 'openai',
      LLM_API_BASE_URL: 'https://llm.example.com/v1',
      LLM_API_KEY: KEY,
    });
    const engine = createExtractionProvider(c.extraction, { offline: () => (built++, offline) });
    expect(engine).toBeInstanceOf(LanguageModelExtractionProvider);
    expect(engine.name).toBe('openai');
    expect((engine as LanguageModelExtractionProvider).model).toBe('gpt-4o-mini');
    expect(built).toBe(1);
    expect(inspect(engine, { depth: 10 })).not.toContain(KEY);
    expect(() => createExtractionProvider({ provider: 'openai' }, { offline })).toThrow(
      'EXTRACTION_PROVIDER=openai needs LLM_API_BASE_URL and LLM_API_KEY',
    );
  });
});
