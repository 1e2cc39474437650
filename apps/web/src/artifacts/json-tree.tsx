import type { ReactElement } from 'react';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function Leaf({ value }: { value: Exclude<Json, Json[] | { [key: string]: Json }> }): ReactElement {
  const kind = value === null ? 'null' : typeof value;
  return <span className={`json-${kind}`}>{JSON.stringify(value)}</span>;
}

function JsonNode({ name, value, depth }: { name?: string; value: Json; depth: number }): ReactElement {
  const label = name === undefined ? null : <span className="json-key">{name}: </span>;
  if (value === null || typeof value !== 'object') {
    return (
      <div className="json-row">
        {label}
        <Leaf value={value} />
      </div>
    );
  }
  const entries: [string, Json][] = Array.isArray(value)
    ? value.map((item, index) => [String(index), item])
    : Object.entries(value);
  const summary = Array.isArray(value) ? `[${String(entries.length)}]` : `{${String(entries.length)}}`;
  return (
    <details className="json-branch" open={depth < 2}>
      <summary>
        {label}
        <span className="json-count">{summary}</span>
      </summary>
      {entries.slice(0, 2000).map(([key, item]) => (
        <JsonNode key={key} name={key} value={item} depth={depth + 1} />
      ))}
    </details>
  );
}

/** A JSON document as a collapsible tree (text only: keys and values are never HTML). */
export function JsonTree({ text }: { text: string }): ReactElement {
  let value: Json;
  try {
    value = JSON.parse(text) as Json;
  } catch (error) {
    return (
      <>
        <p className="field-error">{(error as Error).message}</p>
        <pre className="artifact-text">{text}</pre>
      </>
    );
  }
  return (
    <div className="json-tree" data-testid="json-tree">
      <JsonNode value={value} depth={0} />
    </div>
  );
}
