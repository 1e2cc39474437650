/** The page served until the web app is built: where the API is, and whether this browser is signed in. */
export const MINIMAL_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>YouYou Workbench</title>
<link rel="stylesheet" href="/_workbench/page.css">
</head>
<body>
<main>
<h1>YouYou Workbench</h1>
<p id="status">Checking the server…</p>
<p>The web interface is not built yet. The API is served here: see <a href="/api/openapi.json">/api/openapi.json</a>
(open it after signing in with the login URL the server printed) and <code>apps/server/README.md</code>.</p>
</main>
<script src="/_workbench/page.js" defer></script>
</body>
</html>
`;

export const MINIMAL_STYLE = `:root { --text: #1d1d1f; --muted: #6e6e73; --background: #fbfbfd; }
body { font: 16px/1.5 system-ui, sans-serif; color: var(--text); background: var(--background); margin: 0; }
main { max-width: 40rem; margin: 4rem auto; padding: 0 1rem; }
#status { color: var(--muted); }
`;

export const MINIMAL_SCRIPT = `fetch('/api/health', { credentials: 'same-origin' })
  .then((response) => response.ok ? response.json() : Promise.reject(response.status))
  .then((health) => {
    document.getElementById('status').textContent =
      'Signed in. Server ' + health.version + ' on ' + health.database + '.';
  })
  .catch((status) => {
    document.getElementById('status').textContent = status === 401
      ? 'Not signed in: open the login URL the server printed.'
      : 'The server did not answer.';
  });
`;
