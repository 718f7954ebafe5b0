import { formatCsv, fromSpreadsheetText, parseCsv, toSpreadsheetText } from './csv';

describe('parseCsv', () => {
  it('reads records, quoted fields, doubled quotes and both line endings', () => {
    expect(parseCsv('a,b\r\n"x, y","say ""hi"""\n3,\n')).toEqual([
      ['a', 'b'],
      ['x, y', 'say "hi"'],
      ['3', ''],
    ]);
  });

  it('keeps line breaks inside quotes and drops a BOM and blank lines', () => {
    expect(parseCsv('\ufeffphone\n\n"line\none"\n')).toEqual([['phone'], ['line\none']]);
  });

  it('reads a last record without a line ending', () => {
    expect(parseCsv('a,b\n1,2')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
  });
});

describe('formatCsv', () => {
  it('quotes what needs it and reads back to the same rows', () => {
    const rows = [
      ['number', 'reason', 'note'],
      ['+15550001234', 'opt_out', 'said "stop", twice'],
      ['+9198', 'legal', 'line one\nline two'],
      ['+44', 'manual', ''],
    ];
    const text = formatCsv(rows);
    expect(text.split('\r\n')[1]).toBe('+15550001234,opt_out,"said ""stop"", twice"');
    expect(text.endsWith('\r\n')).toBe(true);
    expect(parseCsv(text)).toEqual(rows);
  });
});

describe('toSpreadsheetText', () => {
  it.each(['=HYPERLINK("http://x")', '+1+1', '-2', '@SUM(A1)', '\tcmd', "'=1", "''+1"])(
    'guards %p and reads it back as it was',
    (text) => {
      const cell = toSpreadsheetText(text);
      expect(cell).toBe(`'${text}`);
      expect(fromSpreadsheetText(cell)).toBe(text);
    },
  );

  it.each(['plain note', "'quoted", 'a=b', '', 'café'])('leaves %p alone', (text) => {
    expect(toSpreadsheetText(text)).toBe(text);
    expect(fromSpreadsheetText(text)).toBe(text);
  });
});
