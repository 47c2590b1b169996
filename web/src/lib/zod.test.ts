import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => vi.unstubAllGlobals());

describe('zod under our CSP (no eval)', () => {
  it('never probes `new Function`, which the CSP would report as a violation', async () => {
    const probe = vi.fn(() => {
      throw new EvalError('blocked by CSP');
    });
    vi.stubGlobal('Function', probe);
    const { z } = await import('@/lib/zod');
    const schema = z.object({ title: z.string().min(1) });
    expect(schema.parse({ title: 'Fix a tap' })).toEqual({ title: 'Fix a tap' });
    expect(probe).not.toHaveBeenCalled();
  });

  it('is imported from @/lib/zod everywhere, so no schema is built before the config', () => {
    const sources = import.meta.glob<string>('/src/**/*.{ts,tsx}', { query: '?raw', import: 'default', eager: true });
    const direct = Object.entries(sources)
      .filter(([path]) => path !== '/src/lib/zod.ts' && !path.endsWith('.test.ts'))
      .filter(([, text]) => /^import (?!type )[^;]*from 'zod'/m.test(text))
      .map(([path]) => path);
    expect(direct).toEqual([]);
  });
});
