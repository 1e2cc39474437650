import type { ReactElement } from 'react';
import { absolutePointer, readPointer, resolveText, type ChartLiteNode } from '@youyou/contracts';
import { useTranslation } from '../i18n/index.ts';
import { scopeOf, useUiSurface } from './ui-context.ts';

const WIDTH = 300;
const HEIGHT = 120;

function pointsOf(value: unknown): { label: string; value: number }[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((point: unknown) => {
    if (typeof point !== 'object' || point === null) return [];
    const { label, value: number } = point as { label?: unknown; value?: unknown };
    return typeof number === 'number' && Number.isFinite(number)
      ? [{ label: String(label ?? ''), value: number }]
      : [];
  });
}

/**
 * `ChartLite`: a small bar or line chart drawn as SVG from the theme's tokens, with the values as a
 * table for screen readers. No chart library: a handful of points needs none.
 */
export function ChartLiteView({ node, base }: { node: ChartLiteNode; base: string }): ReactElement {
  const surface = useUiSurface();
  const t = useTranslation();
  const scope = scopeOf(surface, base);
  const points = Array.isArray(node.points)
    ? node.points
    : pointsOf(readPointer(surface.data, absolutePointer(node.points.path, scope)));
  const title = node.title === undefined ? '' : resolveText(node.title, scope, surface.locale);
  const max = Math.max(0, ...points.map((point) => point.value));
  const min = Math.min(0, ...points.map((point) => point.value));
  const span = max - min || 1;
  const y = (value: number) => HEIGHT - ((value - min) / span) * HEIGHT;
  const step = points.length === 0 ? 0 : WIDTH / points.length;
  const unit = node.unit === undefined ? '' : ` ${node.unit}`;
  return (
    <figure className="ui-chart" data-variant={node.variant ?? 'bar'}>
      {title !== '' && <figcaption className="ui-chart-title">{title}</figcaption>}
      {points.length === 0 ? (
        <p className="ui-empty">{t('ui.chartEmpty')}</p>
      ) : (
        <svg
          viewBox={`0 0 ${WIDTH} ${HEIGHT + 18}`}
          role="img"
          aria-label={title === '' ? t('ui.chart') : title}
        >
          {node.variant === 'line' ? (
            <polyline
              className="ui-chart-line"
              fill="none"
              points={points.map((point, index) => `${index * step + step / 2},${y(point.value)}`).join(' ')}
            />
          ) : (
            points.map((point, index) => (
              <rect
                key={index}
                className="ui-chart-bar"
                x={index * step + step * 0.15}
                width={step * 0.7}
                y={Math.min(y(point.value), y(0))}
                height={Math.max(1, Math.abs(y(point.value) - y(0)))}
              >
                <title>{`${point.label}: ${point.value}${unit}`}</title>
              </rect>
            ))
          )}
          {points.map((point, index) => (
            <text
              key={index}
              className="ui-chart-label"
              x={index * step + step / 2}
              y={HEIGHT + 14}
              textAnchor="middle"
            >
              {point.label.slice(0, 12)}
            </text>
          ))}
        </svg>
      )}
      <table className="visually-hidden">
        <tbody>
          {points.map((point, index) => (
            <tr key={index}>
              <th scope="row">{point.label}</th>
              <td>{`${point.value}${unit}`}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
