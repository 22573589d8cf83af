import { describe, expect, it } from 'vitest';
import { conflict, fieldError, forbidden, inReaderWords, invalid, notFound, refusalLine } from '../errors.ts';
import { carried, ENGLISH, readerWords, type Reader } from './refusal-words.ts';
import { createTranslate } from './messages.ts';

// A Spanish catalog of the texts below, compiled as the server compiles the real ones.
const spanish: Reader = {
  locale: 'es',
  t: createTranslate('es', {
    'Two-factor authentication is not on for {user}.': [
      'La autenticación en dos pasos no está activada para ',
      ['user'],
      '.',
    ],
    Departments: 'Departamentos',
    '{table} could not be restored: {problem}': [['table'], ' no se pudo restaurar: ', ['problem']],
    'The file is empty': 'El archivo está vacío',
  }),
};

describe('refusal words', () => {
  it('a refusal with values is English for the /api and the message with its values for a reader', () => {
    const error = conflict('Two-factor authentication is not on for {user}.', { user: 'maria' });
    expect(error.message).toBe('Two-factor authentication is not on for maria.');
    expect(error.status).toBe(409);
    expect(readerWords(error, error.message, spanish)).toBe(
      'La autenticación en dos pasos no está activada para maria.',
    );
    expect(readerWords(error, error.message, ENGLISH)).toBe(error.message);
    expect(JSON.stringify(error)).not.toContain('{user}');
  });

  it('values named as messages are translated too', () => {
    const error = conflict('{table} could not be restored: {problem}', { table: 'Departments', problem: 'x' }, [
      'table',
    ]);
    expect(error.message).toBe('Departments could not be restored: x');
    expect(readerWords(error, error.message, spanish)).toBe('Departamentos no se pudo restaurar: x');
  });

  it('a refusal without values is its message through the catalog; an unknown text comes back as written', () => {
    expect(readerWords(notFound('The file is empty'), 'The file is empty', spanish)).toBe('El archivo está vacío');
    expect(readerWords(forbidden('Nobody knows {this}'), 'Nobody knows {this}', spanish)).toBe('Nobody knows {this}');
    expect(notFound().message).toBe('Resource not found');
  });

  it('carries the words from an inner error to the refusal made of it', () => {
    const inner = conflict('Two-factor authentication is not on for {user}.', { user: 'ana' });
    const outer = carried(inner, notFound(inner.message));
    expect(readerWords(outer, outer.message, spanish)).toBe('La autenticación en dos pasos no está activada para ana.');
    const plain = carried(new Error('plain'), notFound('plain'));
    expect(readerWords(plain, plain.message, spanish)).toBe('plain');
  });

  it('field errors: the screen gets them in the reader words, the /api in English', () => {
    const error = invalid([
      fieldError('file', 'The file is empty'),
      fieldError('user', 'Two-factor authentication is not on for {user}.', { user: 'li' }),
    ]);
    expect(error.errors).toEqual([
      { field: 'file', message: 'The file is empty' },
      { field: 'user', message: 'Two-factor authentication is not on for li.' },
    ]);
    const read = inReaderWords(error, spanish);
    expect(read.kind).toBe('invalid');
    expect(read.errors?.map((e) => e.message)).toEqual([
      'El archivo está vacío',
      'La autenticación en dos pasos no está activada para li.',
    ]);
    expect(refusalLine(error, spanish)).toBe(
      'El archivo está vacío; La autenticación en dos pasos no está activada para li.',
    );
    expect(refusalLine(conflict('The file is empty'), spanish)).toBe('El archivo está vacío');
  });
});
