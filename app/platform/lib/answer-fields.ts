// The small field schemas every area's answers.ts is written with, so an id, a count and an
// instant read the same in every answer of the OpenAPI document.
import { z } from 'zod';

export const id = z.number().int();
export const count = z.number().int().min(0);
export const instant = z.string().describe('ISO 8601 instant');
