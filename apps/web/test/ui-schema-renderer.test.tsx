// @vitest-environment happy-dom
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { adaptA2uiSurface, type UiActionRequest } from '@youyou/contracts';
import { ApiError, type ApiClient } from '../src/api/index.ts';
import { usePreferences } from '../src/preferences/index.ts';
import { ServicesProvider } from '../src/services/index.ts';
import { UiDocumentView } from '../src/ui-schema/index.ts';
import { fakeApi, testServices } from './fake-api.ts';

afterEach(cleanup);
beforeEach(() => usePreferences.getState().set({ language: 'en' }));

function draw(schema: unknown, api: ApiClient = fakeApi()) {
  const services = testServices(api);
  return render(
    <QueryClientProvider client={services.queryClient}>
      <ServicesProvider services={services}>
        <p>The rest of the page</p>
        <UiDocumentView schema={schema} target={{ kind: 'panel', id: 'p1', source: 'extension:example' }} />
      </ServicesProvider>
    </QueryClientProvider>,
  );
}

const bookingSurface = JSON.parse(
  // Vitest runs from the repository root.
  readFileSync(join(process.cwd(), 'packages/contracts/test/a2ui-samples/booking-form.json'), 'utf8'),
) as unknown;

describe('the UI-schema renderer', () => {
  it('draws an A2UI basic-catalog surface, and a button sends the values bound to the data model', async () => {
    const requests: UiActionRequest[] = [];
    const api = fakeApi({
      runUiAction: (request) => {
        requests.push(request);
        return Promise.resolve({ output: 'Table booked for Ada', is_error: false, duration_ms: 3 });
      },
    });
    draw(adaptA2uiSurface(bookingSurface).document, api);
    expect(screen.getByText('Book a table').tagName).toBe('H4');
    fireEvent.change(screen.getByLabelText(/Name/), { target: { value: 'Ada' } });
    fireEvent.click(screen.getByRole('radio', { name: 'Four' }));
    expect(screen.getByRole('link', { name: 'Menu' }).getAttribute('href')).toBe('https://example.com/menu');
    fireEvent.click(screen.getByRole('button', { name: 'Book' }));
    await screen.findByText('Table booked for Ada');
    expect(requests).toEqual([
      {
        source: 'extension:example',
        surface: { kind: 'panel', id: 'p1' },
        action: { tool: 'book_table', arguments: { name: 'Ada', seats: ['4'] } },
      },
    ]);
  });

  it('shows a placeholder for an unknown component and still draws its siblings', () => {
    draw({
      version: 1,
      root: {
        component: 'Column',
        children: [
          { component: 'Text', text: 'Before' },
          { component: 'Carousel', slides: [] },
          { component: 'Text', text: 'After' },
        ],
      },
    });
    expect(screen.getByText('Before')).toBeTruthy();
    expect(screen.getByText('After')).toBeTruthy();
    const placeholder = screen.getByTestId('ui-unsupported');
    expect(within(placeholder).getByText('Not shown: Carousel')).toBeTruthy();
  });

  it('shows "could not be drawn" with the reasons for a document without a usable shape', () => {
    draw({ version: 7, root: 'nothing' });
    const box = screen.getByTestId('ui-could-not-render');
    expect(box.textContent).toContain('This could not be drawn');
    expect(box.textContent).toContain('version: must be 1');
    expect(screen.getByText('The rest of the page')).toBeTruthy();
  });

  it('never turns markdown or text from a document into HTML', () => {
    const { container } = draw({
      version: 1,
      root: {
        component: 'Column',
        children: [
          { component: 'Text', text: '<img src=x onerror="alert(1)">' },
          {
            component: 'Markdown',
            text: '**bold** <script>window.hacked = 1</script><img src=x onerror="alert(2)">',
          },
        ],
      },
    });
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('strong')?.textContent).toBe('bold');
    expect(screen.getByText('<img src=x onerror="alert(1)">')).toBeTruthy();
  });

  it('asks before a tool that needs confirmation, then sends confirmed: true', async () => {
    const runUiAction = vi.fn((request: UiActionRequest) =>
      request.confirmed === true
        ? Promise.resolve({ output: 'Subscribed', is_error: false, duration_ms: 1 })
        : Promise.reject(
            new ApiError('ACTION_CONFIRMATION_REQUIRED', 'asks', 409, {
              details: { tool: 'subscribe', arguments: [{ name: 'city', value: 'Oslo' }] },
            }),
          ),
    );
    draw(
      {
        version: 1,
        root: {
          component: 'Button',
          label: 'Subscribe',
          action: { tool: 'subscribe', arguments: { city: 'Oslo' } },
        },
      },
      fakeApi({ runUiAction }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Subscribe' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain('Run subscribe?');
    expect(dialog.textContent).toContain('Oslo');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Run' }));
    await screen.findByText('Subscribed');
    expect(runUiAction.mock.calls.map(([request]) => request.confirmed)).toEqual([undefined, true]);
  });

  it('checks a form in the browser before sending it, and shows the error of a failed call', async () => {
    const runUiAction = vi.fn(() =>
      Promise.reject(new ApiError('ACTION_DENIED', 'The tool save is turned off in Settings.', 403)),
    );
    draw(
      {
        version: 1,
        root: {
          component: 'Form',
          fields: [
            {
              id: 'code',
              type: 'text',
              label: 'Code',
              required: true,
              pattern: '[A-Z]{3}',
              patternMessage: 'three capitals',
            },
          ],
          action: { tool: 'save' },
        },
      },
      fakeApi({ runUiAction }),
    );
    fireEvent.change(screen.getByLabelText(/Code/), { target: { value: 'ab' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect((await screen.findByRole('alert')).textContent).toBe('three capitals');
    expect(runUiAction).not.toHaveBeenCalled();
    fireEvent.change(screen.getByLabelText(/Code/), { target: { value: 'ABC' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() =>
      expect(screen.getByTestId('ui-action-error').textContent).toContain('turned off in Settings'),
    );
    expect(runUiAction).toHaveBeenCalledWith(
      expect.objectContaining({ action: { tool: 'save', arguments: { code: 'ABC' } } }),
    );
  });

  it('a form bound to the whole data model starts from it and sends what was typed (as the example panel does)', async () => {
    const runUiAction = vi.fn(() => Promise.resolve({ output: 'Sunny', is_error: false, duration_ms: 1 }));
    draw(
      {
        version: 1,
        // `units` is not a field: it stays out of the answer.
        data: { city: 'Paris', units: 'metric' },
        root: {
          component: 'Column',
          children: [
            {
              component: 'Form',
              fields: [{ id: 'city', type: 'text', label: 'City', required: true }],
              value: { path: '/' },
              submitLabel: 'Look up',
              action: { tool: 'city_weather', arguments: { city: { path: '/city' } } },
            },
            { component: 'Text', text: { call: 'formatString', args: { value: 'Now: ${/city}' } } },
          ],
        },
      },
      fakeApi({ runUiAction }),
    );
    const field = screen.getByLabelText(/City/);
    expect((field as HTMLInputElement).value).toBe('Paris');
    fireEvent.change(field, { target: { value: 'Oslo' } });
    expect(screen.getByText('Now: Oslo')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Look up' }));
    await screen.findByText('Sunny');
    expect(runUiAction).toHaveBeenCalledWith(
      expect.objectContaining({ action: { tool: 'city_weather', arguments: { city: 'Oslo' } } }),
    );
  });

  it('draws a chart from bound points and a key-value list from bound values', () => {
    const { container } = draw({
      version: 1,
      data: {
        hours: [
          { label: 'Mon', value: 2 },
          { label: 'Tue', value: 5 },
        ],
        owner: 'Ada',
      },
      root: {
        component: 'Column',
        children: [
          { component: 'ChartLite', title: 'Hours', points: { path: '/hours' }, unit: 'h' },
          { component: 'KeyValue', items: [{ label: 'Owner', value: { path: '/owner' } }] },
        ],
      },
    });
    expect(container.querySelectorAll('rect.ui-chart-bar')).toHaveLength(2);
    expect(screen.getByRole('img', { name: 'Hours' })).toBeTruthy();
    expect(screen.getByText('Ada')).toBeTruthy();
  });
});
