import { describe, it } from 'vitest';
import { relativeLink } from './links.js';

describe('relativeLink', () => {
  it('links a row path from the page directory', ({ expect }) => {
    expect(relativeLink('/r/.gz-bench', '/r', '.gz-bench/logs/a/agent.log')).toBe('logs/a/agent.log');
    expect(relativeLink('/r/out', '/r', 'logs/x y#?.log')).toBe('../logs/x%20y%23%3F.log');
    expect(relativeLink('/r', '/elsewhere', '/abs/agent.log')).toBe('../abs/agent.log');
  });

  it('never yields a scheme, a host or markup from a hostile path', ({ expect }) => {
    for (const path of [
      'javascript:alert(1)',
      '//evil.example/x',
      '"><img src=x onerror=alert(1)>',
      'data:text/html,x',
    ]) {
      const link = relativeLink('/r', '/r', path) ?? '';
      expect(link).not.toMatch(/^[a-z][a-z0-9+.-]*:/i);
      expect(link).not.toMatch(/^\/|["<>]/);
    }
    expect(relativeLink('/r', '/r', 'javascript:alert(1)')).toBe('javascript%3Aalert(1)');
  });

  it('takes lone surrogates and refuses NUL and empty paths', ({ expect }) => {
    expect(relativeLink('/r', '/r', 'a\ud800.log')).toBe('a%EF%BF%BD.log');
    expect(relativeLink('/r', '/r', 'a\0b')).toBeUndefined();
    expect(relativeLink('/r', '/r', '')).toBeUndefined();
    expect(relativeLink('/r', '/r', '.')).toBeUndefined();
  });
});
