import { describe, expect, it } from 'vitest';
import { jsonSyntaxProblem } from './jsonText.ts';

describe('jsonSyntaxProblem', () => {
  it('is null for JSON', () => {
    expect(jsonSyntaxProblem('{"a": [1, 2]}')).toBeNull();
  });

  it('names the line and column of the mistake', () => {
    expect(jsonSyntaxProblem('{\n  "a": 1,\n  "b": 2\n  "c": 3\n}')).toMatch(/^line 4, column 3: /);
    expect(jsonSyntaxProblem('{"a": 1,}')).toMatch(/^line 1, column 9: /);
  });

  it('an unfinished text points at its end', () => {
    expect(jsonSyntaxProblem('{\n  "a": [1, 2')).toMatch(/^line 2, column 13: /);
  });
});
