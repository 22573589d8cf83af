// Parsing CSV back in tests (unit, CLI and end-to-end alike).

/** A strict RFC 4180 parser: CRLF between records, "" inside quoted fields, nothing else. */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let i = 0;
  if (text === '') return records;
  for (;;) {
    let field = '';
    if (text[i] === '"') {
      i++;
      for (;;) {
        const q = text.indexOf('"', i);
        if (q === -1) throw new Error('unterminated quoted field');
        field += text.slice(i, q);
        i = q + 1;
        if (text[i] === '"') {
          field += '"';
          i++;
        } else break;
      }
    } else {
      while (i < text.length && text[i] !== ',' && text[i] !== '\r' && text[i] !== '\n') {
        if (text[i] === '"') throw new Error(`bare quote in unquoted field at ${i}`);
        field += text[i++];
      }
    }
    record.push(field);
    if (text[i] === ',') {
      i++;
      continue;
    }
    if (text.startsWith('\r\n', i)) {
      records.push(record);
      record = [];
      i += 2;
      if (i === text.length) return records;
      continue;
    }
    throw new Error(
      i >= text.length ? 'last record does not end with CRLF' : `unexpected ${JSON.stringify(text[i])} at ${i}`,
    );
  }
}
