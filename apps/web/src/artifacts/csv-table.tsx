import Papa from 'papaparse';
import type { ReactElement } from 'react';

const MAX_ROWS = 2000;

/** A CSV document as a table (papaparse: quotes, embedded commas and newlines); the first row is the header. */
export function CsvTable({ text }: { text: string }): ReactElement {
  const parsed = Papa.parse<string[]>(text.trim(), { skipEmptyLines: true });
  const [header = [], ...rows] = parsed.data;
  return (
    <div className="csv-table-wrap">
      <table className="csv-table" data-testid="csv-table">
        <thead>
          <tr>
            {header.map((cell, index) => (
              <th key={index} scope="col">
                {cell}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.slice(0, MAX_ROWS).map((row, rowIndex) => (
            <tr key={rowIndex}>
              {row.map((cell, index) => (
                <td key={index}>{cell}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length > MAX_ROWS && (
        <p className="empty-state">{`${String(rows.length - MAX_ROWS)} more rows`}</p>
      )}
    </div>
  );
}
