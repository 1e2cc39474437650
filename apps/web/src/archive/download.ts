/**
 * Starts a download of a same-origin URL (the session cookie authorises it) without leaving the
 * page.
 *
 * @example
 * download(api.archiveUrl('everything'));
 */
export function download(url: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = '';
  document.body.append(link);
  link.click();
  link.remove();
}
