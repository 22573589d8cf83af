// The editor answers that the users area builds (Editor Statistics, the editable rows of an
// activity) agree with their schemas here: the types at compile time, the tables at run time.
import type { z } from 'zod';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { EDITABLE_TABLES, EditedRowAnswer, type EditorStatsAnswer } from './answers.ts';
import { EDIT_SCREENS } from '../users/editor-activity.server.ts';
import type { EditorStats } from '../users/editor-stats.server.ts';

describe('the editor answers', () => {
  it('Editor Statistics are what editorStats builds', () => {
    expectTypeOf<z.output<typeof EditorStatsAnswer>>().toEqualTypeOf<EditorStats>();
  });

  it('an activity’s row is one of the tables an activity can be edited on, each described once', () => {
    expect([...EDITABLE_TABLES].sort()).toEqual(Object.keys(EDIT_SCREENS).sort());
    expect(EditedRowAnswer.options).toHaveLength(EDITABLE_TABLES.length);
  });
});
