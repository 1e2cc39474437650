import { Component, type ErrorInfo, type ReactNode } from 'react';

export interface ErrorBoundaryProps {
  /** What to show instead of the part that failed. */
  fallback: (error: Error, retry: () => void) => ReactNode;
  children: ReactNode;
}

/**
 * Keeps a failure in one part of the page (a message that cannot be drawn, a panel) from taking
 * the whole workbench down: the part shows its fallback, the rest keeps working.
 */
export class ErrorBoundary extends Component<ErrorBoundaryProps, { error: Error | undefined }> {
  override state: { error: Error | undefined } = { error: undefined };

  static getDerivedStateFromError(error: unknown): { error: Error } {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('A part of the workbench failed to render', error, info.componentStack);
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (error !== undefined) return this.props.fallback(error, () => this.setState({ error: undefined }));
    return this.props.children;
  }
}
